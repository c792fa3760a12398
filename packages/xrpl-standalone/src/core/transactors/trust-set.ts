// TrustSet (rippled SetTrust.cpp): create, modify or delete a trust line, with per-side reserve
// accounting (lsfLowReserve/lsfHighReserve), NoRipple, Freeze, Auth and line qualities.
import { accountReserve, adjustOwnerCount, readAccount } from '../account';
import { parseAmount, isLegalXrp } from '../amount/amount';
import { currencyToHex, isBadCurrency } from '../amount/currency';
import { IouValue } from '../amount/iou-value';
import { ACCOUNT_ONE, ACCOUNT_ZERO } from '../account-id';
import { trustLineKey } from '../keylets';
import { LSF, TF, hasFlag } from '../ledger-flags';
import type { Ter } from '../results';
import { QUALITY_ONE, isHigh, trustCreate, trustDelete } from '../trust-lines';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

const Q1 = Number(QUALITY_ONE);

function limitOf(tx: Record<string, unknown>) {
  const a = parseAmount(tx.LimitAmount);
  return a;
}

export const trustSet: Transactor = {
  flagsMask:
    TF.setfAuth |
    TF.setNoRipple |
    TF.clearNoRipple |
    TF.setFreeze |
    TF.clearFreeze |
    TF.setDeepFreeze |
    TF.clearDeepFreeze,

  preflight({ tx }: PreflightContext): Ter {
    const flags = Number(tx.Flags ?? 0);
    // Setting and clearing (deep) freeze together is contradictory.
    if (
      (hasFlag(flags, TF.setFreeze) || hasFlag(flags, TF.setDeepFreeze)) &&
      (hasFlag(flags, TF.clearFreeze) || hasFlag(flags, TF.clearDeepFreeze))
    ) {
      return 'temINVALID_FLAG';
    }
    const limit = limitOf(tx);
    if (!limit) return 'temBAD_AMOUNT';
    if (limit.kind === 'xrp') return isLegalXrp(limit.drops) ? 'temBAD_LIMIT' : 'temBAD_AMOUNT';
    if (isBadCurrency(currencyToHex(limit.currency) as string) || limit.currency === 'XRP')
      return 'temBAD_CURRENCY';
    if (limit.value.signum() < 0) return 'temBAD_LIMIT';
    if (limit.issuer === ACCOUNT_ZERO || limit.issuer === ACCOUNT_ONE) return 'temDST_NEEDED';
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, account }: PreclaimContext): Ter {
    const acct = readAccount(view, account);
    if (!acct) return 'terNO_ACCOUNT';
    const flags = Number(tx.Flags ?? 0);
    if (hasFlag(flags, TF.setfAuth) && !hasFlag(acct.Flags, LSF.requireAuth)) return 'tefNO_AUTH_REQUIRED';
    const limit = limitOf(tx);
    if (!limit || limit.kind !== 'iou') return 'temBAD_LIMIT';
    if (limit.issuer === account) return 'temDST_IS_SRC';
    const dst = readAccount(view, limit.issuer);
    if (dst && hasFlag(dst.Flags, LSF.disallowIncomingTrustline)) {
      if (!view.read(trustLineKey(account, limit.issuer, limit.currency))) return 'tecNO_PERMISSION';
    }
    const noFreeze = hasFlag(acct.Flags, LSF.noFreeze);
    if (noFreeze && (hasFlag(flags, TF.setFreeze) || hasFlag(flags, TF.setDeepFreeze)))
      return 'tecNO_PERMISSION';
    // A deep freeze only ever sits on top of a normal freeze (rippled computeFreezeFlags).
    const high = isHigh(account, limit.issuer);
    const existing = view.read(trustLineKey(account, limit.issuer, limit.currency));
    let lineFlags = Number(existing?.Flags ?? 0);
    const freezeFlag = high ? LSF.highFreeze : LSF.lowFreeze;
    const deepFlag = high ? LSF.highDeepFreeze : LSF.lowDeepFreeze;
    if (hasFlag(flags, TF.setFreeze) && !noFreeze) lineFlags |= freezeFlag;
    else if (hasFlag(flags, TF.clearFreeze)) lineFlags &= ~freezeFlag;
    if (hasFlag(flags, TF.setDeepFreeze) && !noFreeze) lineFlags |= deepFlag;
    else if (hasFlag(flags, TF.clearDeepFreeze)) lineFlags &= ~deepFlag;
    if (hasFlag(lineFlags, deepFlag) && !hasFlag(lineFlags, freezeFlag)) return 'tecNO_PERMISSION';
    return 'tesSUCCESS';
  },

  doApply(ctx: ApplyContext): Ter {
    const { tx, view, account, config } = ctx;
    const limit = limitOf(tx);
    if (!limit || limit.kind !== 'iou') return 'tefINTERNAL';
    const dstId = limit.issuer;
    const currency = limit.currency;
    const hasQIn = tx.QualityIn !== undefined;
    const hasQOut = tx.QualityOut !== undefined;
    const qIn = hasQIn ? Number(tx.QualityIn) : 0;
    let qOut = hasQOut ? Number(tx.QualityOut) : 0;
    if (hasQOut && qOut === Q1) qOut = 0;
    const high = isHigh(account, dstId);
    const acct = readAccount(view, account);
    if (!acct) return 'tefINTERNAL';
    const owners = Number(acct.OwnerCount ?? 0);
    // rippled only enforces the line reserve once the account owns two or more objects.
    const reserveCreate = owners < 2 ? 0n : accountReserve(config, owners + 1);
    const flags = Number(tx.Flags ?? 0);
    const setAuth = hasFlag(flags, TF.setfAuth);
    const setNoRipple = hasFlag(flags, TF.setNoRipple);
    const clearNoRipple = hasFlag(flags, TF.clearNoRipple);
    const setFreeze = hasFlag(flags, TF.setFreeze);
    const clearFreeze = hasFlag(flags, TF.clearFreeze);
    const setDeepFreeze = hasFlag(flags, TF.setDeepFreeze);
    const clearDeepFreeze = hasFlag(flags, TF.clearDeepFreeze);

    const dst = readAccount(view, dstId);
    if (!dst) return 'tecNO_DST';
    const key = trustLineKey(account, dstId, currency);
    const line = view.peek(key);
    if (line) {
      const lowId = high ? dstId : account;
      const highId = high ? account : dstId;
      const lowAcct = readAccount(view, lowId);
      const highAcct = readAccount(view, highId);
      const lowBalance = IouValue.parse((line.Balance as { value: string }).value);
      const highBalance = lowBalance.negate();
      const limitJson = {
        currency: (line.LowLimit as { currency: string }).currency,
        issuer: account,
        value: limit.value.toString(),
      };
      line[high ? 'HighLimit' : 'LowLimit'] = limitJson;
      const lowLimit = IouValue.parse((line.LowLimit as { value: string }).value);
      const highLimit = IouValue.parse((line.HighLimit as { value: string }).value);

      const side = (lowSide: boolean, field: 'QualityIn' | 'QualityOut', has: boolean, q: number): number => {
        const name = `${lowSide ? 'Low' : 'High'}${field}`;
        const mine = lowSide === !high;
        if (!mine || !has) return Number(line[name] ?? 0);
        if (q) line[name] = q;
        else delete line[name];
        return q;
      };
      let lowQIn = side(true, 'QualityIn', hasQIn, qIn);
      let highQIn = side(false, 'QualityIn', hasQIn, qIn);
      let lowQOut = side(true, 'QualityOut', hasQOut, qOut);
      let highQOut = side(false, 'QualityOut', hasQOut, qOut);
      if (lowQIn === Q1) lowQIn = 0;
      if (highQIn === Q1) highQIn = 0;
      if (lowQOut === Q1) lowQOut = 0;
      if (highQOut === Q1) highQOut = 0;

      const flagsIn = Number(line.Flags ?? 0);
      let flagsOut = flagsIn;
      if (setNoRipple && !clearNoRipple) {
        if ((high ? highBalance : lowBalance).signum() >= 0)
          flagsOut |= high ? LSF.highNoRipple : LSF.lowNoRipple;
        else return 'tecNO_PERMISSION';
      } else if (clearNoRipple && !setNoRipple) {
        flagsOut &= ~(high ? LSF.highNoRipple : LSF.lowNoRipple);
      }
      if (setFreeze && !clearFreeze && !hasFlag(acct.Flags, LSF.noFreeze))
        flagsOut |= high ? LSF.highFreeze : LSF.lowFreeze;
      else if (clearFreeze && !setFreeze) flagsOut &= ~(high ? LSF.highFreeze : LSF.lowFreeze);
      if (setDeepFreeze && !clearDeepFreeze && !hasFlag(acct.Flags, LSF.noFreeze))
        flagsOut |= high ? LSF.highDeepFreeze : LSF.lowDeepFreeze;
      else if (clearDeepFreeze && !setDeepFreeze)
        flagsOut &= ~(high ? LSF.highDeepFreeze : LSF.lowDeepFreeze);
      flagsOut >>>= 0;

      const lowDefRipple = hasFlag(lowAcct?.Flags, LSF.defaultRipple);
      const highDefRipple = hasFlag(highAcct?.Flags, LSF.defaultRipple);
      const lowReserveSet =
        lowQIn !== 0 ||
        lowQOut !== 0 ||
        ((flagsOut & LSF.lowNoRipple) === 0) !== lowDefRipple ||
        (flagsOut & LSF.lowFreeze) !== 0 ||
        !lowLimit.isZero() ||
        lowBalance.signum() > 0;
      const highReserveSet =
        highQIn !== 0 ||
        highQOut !== 0 ||
        ((flagsOut & LSF.highNoRipple) === 0) !== highDefRipple ||
        (flagsOut & LSF.highFreeze) !== 0 ||
        !highLimit.isZero() ||
        highBalance.signum() > 0;
      const isDefault = !lowReserveSet && !highReserveSet;
      const lowReserved = hasFlag(flagsIn, LSF.lowReserve);
      const highReserved = hasFlag(flagsIn, LSF.highReserve);
      let reserveIncrease = false;
      if (setAuth) flagsOut |= high ? LSF.highAuth : LSF.lowAuth;
      if (lowReserveSet && !lowReserved) {
        adjustOwnerCount(view, lowId, 1);
        flagsOut |= LSF.lowReserve;
        if (!high) reserveIncrease = true;
      }
      if (!lowReserveSet && lowReserved) {
        adjustOwnerCount(view, lowId, -1);
        flagsOut &= ~LSF.lowReserve;
      }
      if (highReserveSet && !highReserved) {
        adjustOwnerCount(view, highId, 1);
        flagsOut |= LSF.highReserve;
        if (high) reserveIncrease = true;
      }
      if (!highReserveSet && highReserved) {
        adjustOwnerCount(view, highId, -1);
        flagsOut &= ~LSF.highReserve;
      }
      flagsOut >>>= 0;
      if (flagsIn !== flagsOut) line.Flags = flagsOut;
      if (isDefault) return trustDelete(view, line, lowId, highId);
      if (reserveIncrease && ctx.priorBalance < reserveCreate) return 'tecINSUF_RESERVE_LINE';
      view.update(line);
      return 'tesSUCCESS';
    }
    if (limit.value.isZero() && (!hasQIn || !qIn) && (!hasQOut || !qOut) && !setAuth)
      return 'tecNO_LINE_REDUNDANT';
    if (ctx.priorBalance < reserveCreate) return 'tecNO_LINE_INSUF_RESERVE';
    return trustCreate(view, {
      src: account,
      dst: dstId,
      currency,
      limit: limit.value,
      auth: setAuth,
      noRipple: setNoRipple && !clearNoRipple,
      freeze: setFreeze && !clearFreeze,
      deepFreeze: setDeepFreeze && !clearDeepFreeze,
      qualityIn: qIn,
      qualityOut: qOut,
      reserveOwner: account,
    });
  },
};

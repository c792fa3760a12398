// CheckCash (rippled CashCheck.cpp, with CheckCashMakesTrustLine and fix1623, both retired): the
// destination takes an exact Amount, or at least DeliverMin and as much more as the Check and the
// writer's funds allow. XRP moves directly (the writer may spend the reserve the Check frees);
// tokens go through the payment engine from the writer, SendMax bounding what it spends (a
// transfer fee included), into a trust line of the destination — created if missing, its limit
// set aside while the cash runs, since the destination asked for the funds itself.
import { readAccount, xrpBalance, xrpLiquid } from '../account';
import { amountToJson, parseAmount, type Amount, type IouAmount } from '../amount/amount';
import { currencyToHex } from '../amount/currency';
import { IouValue, MAX_EXPONENT, MAX_MANTISSA } from '../amount/iou-value';
import type { JsonObject, LedgerEntry } from '../contract';
import { accountRootKey, trustLineKey } from '../keylets';
import { LSF, hasFlag } from '../ledger-flags';
import { amtCmp } from '../payment/amount-math';
import { runFlow } from '../payment/run-flow';
import type { Ter } from '../results';
import { isTes } from '../results';
import type { StateReader } from '../state/apply-view';
import { accountHoldsIou, createHolderLine, isDeepFrozen, isFrozen, isHigh, readLine } from '../trust-lines';
import { checkAmountShape, checkIdOf, hasExpired, isZeroCheckId, removeCheck } from './check-common';
import { isMptAmount } from './escrow-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

/** The amount asked for: Amount, or DeliverMin (exactly one is present after preflight). */
function requested(tx: JsonObject): Amount {
  return parseAmount(tx.Amount ?? tx.DeliverMin) as Amount;
}

function sameCurrencyAndIssuer(a: Amount, b: Amount): 'currency' | 'issuer' | undefined {
  if (a.kind !== b.kind) return 'currency';
  if (a.kind === 'xrp') return undefined;
  const bb = b as IouAmount;
  if (currencyToHex(a.currency) !== currencyToHex(bb.currency)) return 'currency';
  return a.issuer === bb.issuer ? undefined : 'issuer';
}

/**
 * rippled accountFunds for the writer in preclaim: frozen tokens count as none, an issuer has all
 * of its own; for XRP, the liquid balance plus the reserve the cashed Check will free.
 */
function writerFunds(
  view: StateReader,
  src: string,
  value: Amount,
  increment: bigint,
  ctx: PreclaimContext,
): Amount {
  if (value.kind === 'xrp') return { kind: 'xrp', drops: xrpLiquid(view, src, 0, ctx.config) + increment };
  if (value.issuer === src) return value;
  if (isDeepFrozen(view, src, value.currency, value.issuer)) return { ...value, value: IouValue.ZERO };
  return { ...value, value: accountHoldsIou(view, src, value.currency, value.issuer, true) };
}

/** STAmount(issue, cMaxValue / 2, cMaxOffset): DeliverMin's "as much as possible" for tokens. */
const HALF_MAX = IouValue.raw(MAX_MANTISSA / 2n, MAX_EXPONENT, false);
/** The largest token value, a line limit flow can never reach. */
const MAX_VALUE = IouValue.raw(MAX_MANTISSA, MAX_EXPONENT, false);

export const checkCash: Transactor = {
  preflight({ tx, rules }: PreflightContext): Ter {
    // MPT checks need MPTokensV2 (and MPT issuances, which this ledger does not have).
    const mpt = isMptAmount(tx.Amount) || isMptAmount(tx.DeliverMin);
    if (mpt) return rules.enabled('MPTokensV2') ? 'tesSUCCESS' : 'temDISABLED';
    if (typeof tx.CheckID !== 'string') return 'temMALFORMED';
    if (rules.enabled('fixCleanup3_3_0') && isZeroCheckId(tx)) return 'temMALFORMED';
    if ((tx.Amount === undefined) === (tx.DeliverMin === undefined)) return 'temMALFORMED';
    return checkAmountShape(parseAmount(tx.Amount ?? tx.DeliverMin));
  },

  preclaim(ctx: PreclaimContext): Ter {
    const { tx, view, account, config } = ctx;
    const check = view.read(checkIdOf(tx));
    if (!check || check.LedgerEntryType !== 'Check') return 'tecNO_ENTRY';
    const dst = check.Destination as string;
    if (account !== dst) return 'tecNO_PERMISSION';
    const src = check.Account as string;
    if (src === dst) return 'tecINTERNAL';
    const dstRoot = readAccount(view, dst);
    if (!readAccount(view, src) || !dstRoot) return 'tecNO_ENTRY';
    if (hasFlag(dstRoot.Flags, LSF.requireDestTag) && check.DestinationTag === undefined)
      return 'tecDST_TAG_NEEDED';
    if (hasExpired(ctx.parentCloseTime ?? 0, check.Expiration)) return 'tecEXPIRED';
    if (isMptAmount(tx.Amount) || isMptAmount(tx.DeliverMin)) return 'tecOBJECT_NOT_FOUND';

    const value = requested(tx);
    const sendMax = parseAmount(check.SendMax) as Amount;
    if (sameCurrencyAndIssuer(value, sendMax) !== undefined) return 'temMALFORMED';
    if (amtCmp(value, sendMax) > 0) return 'tecPATH_PARTIAL';
    if (amtCmp(value, writerFunds(view, src, value, config.reserveIncrement, ctx)) > 0)
      return 'tecPATH_PARTIAL';

    // An issuer can always accept its own currency; anyone else needs to be able to hold it.
    if (value.kind === 'iou' && value.issuer !== dst) {
      const { issuer, currency } = value;
      const issuerRoot = readAccount(view, issuer);
      if (!issuerRoot) return 'tecNO_ISSUER';
      if (hasFlag(issuerRoot.Flags, LSF.requireAuth)) {
        // A missing line could only be created unauthorized.
        const line = readLine(view, dst, issuer, currency);
        if (!line) return 'tecNO_AUTH';
        if (!hasFlag(line.Flags, isHigh(dst, issuer) ? LSF.lowAuth : LSF.highAuth)) return 'tecNO_AUTH';
      }
      // The writer's funds were counted frozen-as-none above; the destination's line may not be frozen.
      if (isFrozen(view, dst, currency, issuer)) return 'tecFROZEN';
    }
    return 'tesSUCCESS';
  },

  doApply(ctx: ApplyContext): Ter {
    const { tx, view, account } = ctx;
    const check = view.read(checkIdOf(tx));
    if (!check) return 'tecFAILED_PROCESSING';
    const src = check.Account as string;
    if (!view.exists(accountRootKey(src)) || !view.exists(accountRootKey(account)))
      return 'tecFAILED_PROCESSING';
    if (src !== account) {
      const sendMax = parseAmount(check.SendMax) as Amount;
      const ter = sendMax.kind === 'xrp' ? cashXrp(ctx, src, sendMax.drops) : cashToken(ctx, src, sendMax);
      if (ter !== 'tesSUCCESS') return ter;
    }
    return removeCheck(view, check);
  },
};

/** The XRP case: the writer's balance above its reserve, one owned object (this Check) fewer. */
function cashXrp(ctx: ApplyContext, src: string, sendMax: bigint): Ter {
  const { tx, view, account, config } = ctx;
  const srcLiquid = xrpLiquid(view, src, -1, config);
  const deliverMin = parseAmount(tx.DeliverMin);
  let amount: bigint;
  if (deliverMin && deliverMin.kind === 'xrp') {
    const possible = sendMax < srcLiquid ? sendMax : srcLiquid;
    amount = deliverMin.drops > possible ? deliverMin.drops : possible;
  } else {
    amount = (parseAmount(tx.Amount) as { drops: bigint }).drops;
  }
  if (srcLiquid < amount) return 'tecUNFUNDED_PAYMENT';
  if (deliverMin) ctx.deliver(amount.toString());
  const from = view.peek(accountRootKey(src)) as LedgerEntry;
  from.Balance = (xrpBalance(from) - amount).toString();
  view.update(from);
  const to = view.peek(accountRootKey(account)) as LedgerEntry;
  to.Balance = (xrpBalance(to) + amount).toString();
  view.update(to);
  return 'tesSUCCESS';
}

/** The token case: flow from the writer, SendMax as its limit, into the destination's line. */
function cashToken(ctx: ApplyContext, src: string, sendMax: Amount): Ter {
  const { tx, view, account, priorBalance } = ctx;
  const deliverMin = parseAmount(tx.DeliverMin);
  const asked = requested(tx) as IouAmount;
  const deliver: IouAmount = deliverMin ? { ...asked, value: HALF_MAX } : asked;
  const { issuer, currency } = deliver;
  // The line the funds arrive on (the writer's own when the destination is the issuer).
  const truster = issuer === account ? src : account;
  const lineKey = trustLineKey(truster, issuer, currency);
  if (!view.exists(lineKey) && truster === account) {
    const ter = createHolderLine(view, account, issuer, currency, priorBalance);
    if (ter !== 'tesSUCCESS') return ter;
  }
  const line = view.peek(lineKey);
  if (!line) return 'tecNO_LINE';
  // The destination asked for the funds: its limit does not apply while flow runs.
  const limitField = isHigh(issuer, account) ? 'LowLimit' : 'HighLimit';
  const saved = line[limitField] as JsonObject;
  line[limitField] = { ...saved, value: MAX_VALUE.toString() };
  view.update(line);
  const { ter, result } = runFlow(view, {
    src,
    dst: account,
    deliver,
    sendMax,
    maxSource: sendMax,
    paths: [],
    defaultPaths: true,
    limitQuality: false,
    partialPayment: deliverMin !== undefined,
  });
  const after = view.peek(lineKey);
  if (after) {
    after[limitField] = saved;
    view.update(after);
  }
  if (!isTes(ter) || !result) return ter;
  if (deliverMin && amtCmp(result.actualOut, deliverMin) < 0) return 'tecPATH_PARTIAL';
  ctx.deliver(amountToJson(result.actualOut));
  return 'tesSUCCESS';
}

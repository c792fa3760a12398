// Payment (rippled Payment.cpp): direct XRP, and issued currencies through the flow engine.
import { accountReserve, newAccountRoot, readAccount, xrpBalance } from '../account';
import { isValidAddress } from '../account-id';
import type { Amount } from '../amount/amount';
import { amountToJson, isLegalXrp, parseAmount, sameIssue } from '../amount/amount';
import { currencyToHex, isBadCurrency } from '../amount/currency';
import type { JsonObject } from '../contract';
import { accountRootKey, depositPreauthKey } from '../keylets';
import { LSF, TF, hasFlag } from '../ledger-flags';
import { amtCmp } from '../payment/amount-math';
import { runFlow } from '../payment/run-flow';
import type { PathElement } from '../payment/strands';
import { isTes, isTer, type Ter } from '../results';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

const MAX_PATH_SIZE = 6;
const MAX_PATH_LENGTH = 8;

function maxSourceAmount(account: string, amount: Amount, sendMax: Amount | undefined): Amount {
  if (sendMax) return sendMax;
  if (amount.kind === 'xrp') return amount;
  return { ...amount, issuer: account };
}

function legal(a: Amount): boolean {
  return a.kind === 'xrp' ? isLegalXrp(a.drops) : true;
}

function positive(a: Amount): boolean {
  return a.kind === 'xrp' ? a.drops > 0n : a.value.signum() > 0;
}

/** One shared string: comparing it with itself is a pointer check, not a 40-character compare. */
const XRP_CURRENCY_HEX = '0'.repeat(40);

function currencyHex(a: Amount): string {
  return a.kind === 'xrp' ? XRP_CURRENCY_HEX : (currencyToHex(a.currency) as string);
}

// The XRP Amount of the payment last parsed: preflight, preclaim and doApply run back to back on
// the same decoded tx object. Only XRP amounts are kept (nothing mutates an XRP Amount; issued
// ones carry objects the payment engine works with).
let amountTx: JsonObject | undefined;
let amountRaw: unknown;
let amountXrp: Amount | undefined;

function txAmount(tx: JsonObject): Amount | undefined {
  const raw = tx.Amount;
  if (amountTx === tx && amountRaw === raw) return amountXrp;
  const amount = parseAmount(raw);
  if (amount?.kind === 'xrp') {
    amountTx = tx;
    amountRaw = raw;
    amountXrp = amount;
  }
  return amount;
}

export const payment: Transactor = {
  flagsMask: TF.noRippleDirect | TF.partialPayment | TF.limitQuality,

  preflight({ tx }: PreflightContext): Ter {
    const flags = Number(tx.Flags ?? 0);
    const partial = hasFlag(flags, TF.partialPayment);
    const limitQuality = hasFlag(flags, TF.limitQuality);
    const defaultPaths = !hasFlag(flags, TF.noRippleDirect);
    const hasPaths = tx.Paths !== undefined;
    const amount = txAmount(tx);
    if (!amount) return 'temBAD_AMOUNT';
    const sendMax = tx.SendMax !== undefined ? parseAmount(tx.SendMax) : undefined;
    if (tx.SendMax !== undefined && !sendMax) return 'temBAD_AMOUNT';
    const maxSrc = maxSourceAmount(tx.Account as string, amount, sendMax);
    const xrpDirect = amount.kind === 'xrp' && maxSrc.kind === 'xrp';
    if (!legal(amount) || !legal(maxSrc)) return 'temBAD_AMOUNT';
    if (!isValidAddress(tx.Destination)) return 'temDST_NEEDED';
    if (sendMax && !positive(sendMax)) return 'temBAD_AMOUNT';
    if (!positive(amount)) return 'temBAD_AMOUNT';
    if (isBadCurrency(currencyHex(maxSrc)) || isBadCurrency(currencyHex(amount))) return 'temBAD_CURRENCY';
    if (tx.Account === tx.Destination && currencyHex(maxSrc) === currencyHex(amount) && !hasPaths)
      return 'temREDUNDANT';
    if (xrpDirect && sendMax) return 'temBAD_SEND_XRP_MAX';
    if (xrpDirect && hasPaths) return 'temBAD_SEND_XRP_PATHS';
    if (xrpDirect && partial) return 'temBAD_SEND_XRP_PARTIAL';
    if (xrpDirect && limitQuality) return 'temBAD_SEND_XRP_LIMIT';
    if (xrpDirect && !defaultPaths) return 'temBAD_SEND_XRP_NO_DIRECT';
    if (tx.DeliverMin !== undefined) {
      if (!partial) return 'temBAD_AMOUNT';
      const dmin = parseAmount(tx.DeliverMin);
      if (!dmin || !legal(dmin) || !positive(dmin)) return 'temBAD_AMOUNT';
      if (!sameIssue(dmin, amount)) return 'temBAD_AMOUNT';
      if (amtCmp(dmin, amount) > 0) return 'temBAD_AMOUNT';
    }
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, config }: PreclaimContext): Ter {
    const partial = hasFlag(tx.Flags, TF.partialPayment);
    const amount = txAmount(tx) as Amount;
    const dst = readAccount(view, tx.Destination as string);
    if (!dst) {
      if (amount.kind !== 'xrp') return 'tecNO_DST';
      if (partial) return 'telNO_DST_PARTIAL';
      if (amount.drops < accountReserve(config, 0)) return 'tecNO_DST_INSUF_XRP';
    } else if (hasFlag(dst.Flags, LSF.requireDestTag) && tx.DestinationTag === undefined) {
      return 'tecDST_TAG_NEEDED';
    }
    const paths = tx.Paths as unknown[][] | undefined;
    if ((paths || tx.SendMax !== undefined || amount.kind !== 'xrp') && paths) {
      if (paths.length > MAX_PATH_SIZE || paths.some((p) => p.length > MAX_PATH_LENGTH))
        return 'telBAD_PATH_COUNT';
    }
    return 'tesSUCCESS';
  },

  doApply(ctx: ApplyContext): Ter {
    const { tx, view, account } = ctx;
    const flags = Number(tx.Flags ?? 0);
    const partial = hasFlag(flags, TF.partialPayment);
    const defaultPaths = !hasFlag(flags, TF.noRippleDirect);
    const amount = txAmount(tx) as Amount;
    const sendMax = tx.SendMax !== undefined ? parseAmount(tx.SendMax) : undefined;
    const deliverMin = tx.DeliverMin !== undefined ? parseAmount(tx.DeliverMin) : undefined;
    const destination = tx.Destination as string;
    const dstKey = accountRootKey(destination);
    // Only read here (flags, AMMID, balance); the copy to modify is peeked below.
    let dst = view.read(dstKey);
    if (!dst) {
      dst = newAccountRoot(destination, 0n, view.ledgerSeq);
      view.insert(dst);
    }
    const reqDepositAuth = hasFlag(dst.Flags, LSF.depositAuth);
    const ripple = tx.Paths !== undefined || sendMax !== undefined || amount.kind !== 'xrp';
    if (ripple) {
      if (
        reqDepositAuth &&
        destination !== account &&
        !view.exists(depositPreauthKey(destination, account))
      ) {
        return 'tecNO_PERMISSION';
      }
      const { ter: flowTer, result } = runFlow(view, {
        src: account,
        dst: destination,
        deliver: amount,
        sendMax,
        maxSource: maxSourceAmount(account, amount, sendMax),
        paths: (tx.Paths as PathElement[][] | undefined) ?? [],
        defaultPaths,
        limitQuality: hasFlag(flags, TF.limitQuality),
        partialPayment: partial,
      });
      let ter: Ter = flowTer;
      if (isTes(ter) && result && amtCmp(result.actualOut, amount) !== 0) {
        if (deliverMin && amtCmp(result.actualOut, deliverMin) < 0) ter = 'tecPATH_PARTIAL';
        else ctx.deliver(amountToJson(result.actualOut));
      }
      if (isTer(ter)) ter = 'tecPATH_DRY';
      return ter;
    }

    if (amount.kind !== 'xrp') return 'tefINTERNAL';
    const srcKey = accountRootKey(account);
    // The sender's root was copied when the fee was claimed; it is changed only right before update().
    const src = view.peekModified(srcKey) as JsonObject & { index: string; LedgerEntryType: string };
    const reserve = accountReserve(ctx.config, Number(src.OwnerCount ?? 0));
    const fee = BigInt(tx.Fee as string);
    const mmm = reserve > fee ? reserve : fee;
    if (ctx.priorBalance < amount.drops + mmm) return 'tecUNFUNDED_PAYMENT';
    if (dst.AMMID !== undefined) return 'tecNO_PERMISSION';
    if (reqDepositAuth && destination !== account) {
      const small = amount.drops <= ctx.config.reserveBase;
      const dstBalance = xrpBalance(dst);
      const dstReserve = ctx.config.reserveBase;
      if (!(small && dstBalance <= dstReserve) && !view.exists(depositPreauthKey(destination, account))) {
        return 'tecNO_PERMISSION';
      }
    }
    src.Balance = (ctx.sourceBalance - amount.drops).toString();
    view.update(src);
    const d = view.peek(dstKey) as typeof src;
    d.Balance = (xrpBalance(d) + amount.drops).toString();
    if (hasFlag(d.Flags, LSF.passwordSpent)) d.Flags = (Number(d.Flags) & ~LSF.passwordSpent) >>> 0;
    view.update(d);
    return 'tesSUCCESS';
  },
};

// What CheckCreate, CheckCash and CheckCancel share (rippled CreateCheck/CashCheck/CancelCheck.cpp):
// rippled's hasExpired, the Check a transaction names, and its removal from both directories.
import { adjustOwnerCount } from '../account';
import { isLegalXrp, type Amount } from '../amount/amount';
import { currencyToHex, isBadCurrency } from '../amount/currency';
import type { JsonObject, LedgerEntry } from '../contract';
import { ownerDirKey } from '../keylets';
import type { Ter } from '../results';
import type { ApplyView } from '../state/apply-view';
import { dirRemove, readU64 } from '../state/directory';

/** rippled hasExpired: an Expiration the parent ledger's close time has reached. */
export function hasExpired(parentCloseTime: number, expiration: unknown): boolean {
  return expiration !== undefined && parentCloseTime >= Number(expiration);
}

/** SendMax or the cashed amount: positive and legal (temBAD_AMOUNT), not "XRP" as a token code. */
export function checkAmountShape(amount: Amount | undefined): Ter {
  if (!amount) return 'temBAD_AMOUNT';
  if (amount.kind === 'xrp')
    return amount.drops > 0n && isLegalXrp(amount.drops) ? 'tesSUCCESS' : 'temBAD_AMOUNT';
  if (amount.value.signum() <= 0) return 'temBAD_AMOUNT';
  return isBadCurrency(currencyToHex(amount.currency) as string) ? 'temBAD_CURRENCY' : 'tesSUCCESS';
}

/** The Check a CheckCash or CheckCancel names (its ledger index). */
export function checkIdOf(tx: JsonObject): string {
  return String(tx.CheckID).toUpperCase();
}

/** fixCleanup3_3_0: an all-zero CheckID is malformed in preflight (before: tecNO_ENTRY). */
export function isZeroCheckId(tx: JsonObject): boolean {
  return /^0{64}$/.test(String(tx.CheckID));
}

/**
 * A cashed or cancelled Check leaves the destination's directory (unless written to itself) and
 * the owner's, releases the owner's reserve and is erased.
 */
export function removeCheck(view: ApplyView, check: LedgerEntry): Ter {
  const owner = check.Account as string;
  const destination = check.Destination as string;
  if (owner !== destination) {
    const page = readU64(check, 'DestinationNode');
    if (!dirRemove(view, ownerDirKey(destination), page, check.index, true)) return 'tefBAD_LEDGER';
  }
  if (!dirRemove(view, ownerDirKey(owner), readU64(check, 'OwnerNode'), check.index, true))
    return 'tefBAD_LEDGER';
  adjustOwnerCount(view, owner, -1);
  view.erase(check);
  return 'tesSUCCESS';
}

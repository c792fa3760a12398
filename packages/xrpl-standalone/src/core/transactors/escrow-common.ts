// What EscrowCreate, EscrowFinish and EscrowCancel share (rippled Escrow.cpp and View.cpp): the
// time rule, the escrow's amount, its directory links, and the token side of XLS-85 (TokenEscrow):
// tokens leave the holder's trust line for the issuer when the escrow is made, and come back from
// the issuer to the receiver when it finishes or is cancelled.
import { adjustOwnerCount, xrpBalance } from '../account';
import type { Rules } from '../amendments';
import { parseAmount, type Amount, type IouAmount } from '../amount/amount';
import { IouValue, MAX_MANTISSA, MIN_EXPONENT, MIN_MANTISSA } from '../amount/iou-value';
import type { JsonObject, LedgerEntry } from '../contract';
import { accountRootKey, escrowKey, ownerDirKey } from '../keylets';
import { Num, toIouPrecision, withMantissaScale } from '../number';
import type { Ter } from '../results';
import type { ApplyView } from '../state/apply-view';
import { dirRemove, readU64 } from '../state/directory';
import {
  QUALITY_ONE,
  isHigh,
  lineBalanceFor,
  lineLimitOf,
  readLine,
  rippleCredit,
  transferRate,
  createHolderLine,
} from '../trust-lines';
import { stDivide } from '../../amm/st-math';

/** rippled's after(now, mark): a close time strictly later than the mark. */
export function timePassed(now: number, mark: unknown): boolean {
  return now > Number(mark);
}

/** The escrow a Finish or Cancel names: keylet::escrow(Owner, OfferSequence). */
export function escrowKeyOf(tx: JsonObject): string {
  return escrowKey(tx.Owner as string, Number(tx.OfferSequence));
}

/** Owner and OfferSequence are required fields of EscrowFinish and EscrowCancel. */
export function hasEscrowTarget(tx: JsonObject): boolean {
  return typeof tx.Owner === 'string' && typeof tx.OfferSequence === 'number';
}

/** An escrow's (or EscrowCreate's) Amount; MPT amounts come back as undefined. */
export function escrowAmount(json: unknown): Amount | undefined {
  return parseAmount(json);
}

/** An MPT amount ({ mpt_issuance_id, value }): escrows of those are not implemented here. */
export function isMptAmount(json: unknown): boolean {
  return typeof json === 'object' && json !== null && 'mpt_issuance_id' in json;
}

/** rippled's EscrowFinish/EscrowCancel: unlink the escrow from its owner's and destination's directories. */
function unlinkEscrow(view: ApplyView, escrow: LedgerEntry): Ter {
  if (
    !dirRemove(view, ownerDirKey(escrow.Account as string), readU64(escrow, 'OwnerNode'), escrow.index, true)
  )
    return 'tefBAD_LEDGER';
  if (escrow.DestinationNode !== undefined) {
    const page = readU64(escrow, 'DestinationNode');
    if (!dirRemove(view, ownerDirKey(escrow.Destination as string), page, escrow.index, true))
      return 'tefBAD_LEDGER';
  }
  return 'tesSUCCESS';
}

/** A token escrow is also listed in its issuer's directory (IssuerNode); unlink it there too. */
function unlinkEscrowFromIssuer(view: ApplyView, escrow: LedgerEntry, issuer: string): Ter {
  if (escrow.IssuerNode === undefined) return 'tesSUCCESS';
  if (!dirRemove(view, ownerDirKey(issuer), readU64(escrow, 'IssuerNode'), escrow.index, true))
    return 'tefBAD_LEDGER';
  return 'tesSUCCESS';
}

// --- STAmount arithmetic the token rules use, as rippled's Number computes it -------------------

function num(v: IouValue): Num {
  return v.isZero() ? Num.zero : Num.of(v.negative ? -v.mantissa : v.mantissa, v.exponent);
}

function stAdd(a: Num, b: Num): Num {
  return toIouPrecision(a.add(b));
}

function stSub(a: Num, b: Num): Num {
  return toIouPrecision(a.sub(b));
}

const ONE = Num.of(1n, 0);
const MAX_LOSS = Num.of(1n, -4);

/**
 * rippled canAdd for two token amounts: adding them must not lose more than 1e-4 relative
 * precision, tested by a round trip ((a - b) + b against a, (b - a) + a against b) in STAmount
 * arithmetic. A huge spendable balance next to a tiny escrow fails it (tecPRECISION_LOSS).
 */
export function canAddTokens(a: IouValue, b: IouValue, rules: Rules): boolean {
  if (a.isZero() || b.isZero()) return true;
  return withMantissaScale(rules.numberScale, () => {
    const x = num(a);
    const y = num(b);
    const left = stSub(stDivide(stAdd(stSub(x, y), y), x), ONE);
    const right = stSub(stDivide(stAdd(stSub(y, x), x), y), ONE);
    return stAdd(left.abs(), right.abs()).le(MAX_LOSS);
  });
}

/**
 * rippled divideRound(amount, rate, roundUp = true) for a positive token amount: the mantissas
 * divided with 17 extra digits rounding up, then canonicalizeRound (the last digit rounded up).
 */
export function divideByRateRoundUp(amount: IouValue, rate: bigint): IouValue {
  if (rate === QUALITY_ONE || amount.isZero()) return amount;
  let den = rate;
  let denOffset = -9;
  while (den < MIN_MANTISSA) {
    den *= 10n;
    denOffset -= 1;
  }
  let value = (amount.mantissa * 10n ** 17n + den - 1n) / den;
  let offset = amount.exponent - denOffset - 17;
  if (value > MAX_MANTISSA) {
    while (value > 10n * MAX_MANTISSA) {
      value /= 10n;
      offset += 1;
    }
    value = (value + 9n) / 10n;
    offset += 1;
  }
  const result = IouValue.fromExact(value, offset);
  return result.isZero() ? IouValue.raw(MIN_MANTISSA, MIN_EXPONENT, false) : result;
}

/** Who an escrow is paid to when it closes, and on what terms. */
export interface EscrowPayout {
  /** The destination on finish, the owner on cancel. */
  receiver: string;
  /** The highest transfer rate to charge: the one captured at creation on finish, parity on cancel. */
  lockedRate: bigint;
  /** The account submitting the finish or cancel (rippled's account_). */
  submitter: string;
  /** Its XRP before the fee (rippled mPriorBalance), for a trust line it may need. */
  priorBalance: bigint;
}

/**
 * EscrowFinish and EscrowCancel once their checks pass: unlink the escrow, pay its amount to the
 * receiver (XRP directly, tokens from the issuer), release the owner's reserve and erase it.
 */
export function closeEscrow(view: ApplyView, escrow: LedgerEntry, payout: EscrowPayout): Ter {
  let ter = unlinkEscrow(view, escrow);
  if (ter !== 'tesSUCCESS') return ter;
  const amount = escrowAmount(escrow.Amount) as Amount;
  if (amount.kind === 'xrp') {
    const root = view.peek(accountRootKey(payout.receiver)) as LedgerEntry;
    root.Balance = (xrpBalance(root) + amount.drops).toString();
    view.update(root);
  } else {
    ter = unlockTokens(view, amount, escrow.Account as string, payout);
    if (ter !== 'tesSUCCESS') return ter;
    ter = unlinkEscrowFromIssuer(view, escrow, amount.issuer);
    if (ter !== 'tesSUCCESS') return ter;
  }
  adjustOwnerCount(view, escrow.Account as string, -1);
  view.erase(escrow);
  return 'tesSUCCESS';
}

/**
 * rippled escrowUnlockApplyHelper<Issue>: pay the escrowed tokens from the issuer to the receiver.
 * The issuer's current transfer fee applies when it is below the one captured at creation, and is
 * taken out of the escrowed amount (not added on top, as in a payment).
 */
function unlockTokens(view: ApplyView, amount: IouAmount, sender: string, payout: EscrowPayout): Ter {
  const { issuer, currency } = amount;
  const { receiver } = payout;
  // The submitter is the receiver: a missing trust line is created, and no limit applies.
  const createAsset = payout.submitter === receiver;
  if (issuer === sender) return 'tecINTERNAL';
  if (issuer === receiver) return 'tesSUCCESS';
  let line = readLine(view, receiver, issuer, currency);
  if (!line && createAsset) {
    const ter = createHolderLine(view, receiver, issuer, currency, payout.priorBalance);
    if (ter !== 'tesSUCCESS') return ter;
    line = readLine(view, receiver, issuer, currency);
  }
  if (!line) return 'tecNO_LINE';
  let rate = payout.lockedRate;
  const current = transferRate(view, issuer);
  if (current < rate) rate = current;
  let final = amount.value;
  if (rate !== QUALITY_ONE) {
    const fee = amount.value.sub(divideByRateRoundUp(amount.value, rate));
    final = amount.value.sub(fee);
  }
  if (!createAsset) {
    const after = lineBalanceFor(line, receiver, issuer).add(final);
    if (lineLimitOf(line, receiver, issuer).lt(after)) return 'tecLIMIT_EXCEEDED';
  }
  return rippleCredit(view, issuer, receiver, currency, final);
}

/**
 * rippled's EscrowCreate preclaim: a positive balance must sit on the account's side of its line
 * to the issuer (low holds when the balance is positive, high when negative).
 */
export function balanceOnHolderSide(account: string, issuer: string, line: LedgerEntry): boolean {
  const balance = IouValue.parse((line.Balance as { value: string }).value);
  if (balance.signum() > 0 && isHigh(account, issuer)) return false;
  if (balance.signum() < 0 && !isHigh(account, issuer)) return false;
  return true;
}

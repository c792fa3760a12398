// A transaction with a `Delegate` field (XLS-75): sent for `Account` by the delegate, who signs it
// and pays its fee, while it acts exactly as the account's own (its Sequence or Ticket, its
// balances). These are the engine's steps for it, as rippled's Transactor has them: preflight1's
// refusals, checkPermission (the Delegate entry's permissions, and for a granular permission its
// template of flags and fields and the transaction type's own semantics), and who signs and pays.
import type { Rules } from '../amendments';
import { parseAmount, sameIssue } from '../amount/amount';
import type { JsonObject } from '../contract';
import { delegateKey } from '../keylets';
import type { Ter } from '../results';
import type { StateReader } from '../state/apply-view';
import { lineBalanceFor, lineLimitOf, readLine } from '../trust-lines';
import {
  PAYMENT_BURN,
  PAYMENT_MINT,
  granularPermission,
  hasGranularPermissions,
  isDelegable,
  permissionValues,
  txTypePermission,
  type GranularPermission,
} from './permissions';

const NO = 'terNO_DELEGATE_PERMISSION';

/** The account that signs and pays the fee: the delegate, or the account itself. */
export function feePayerOf(tx: JsonObject): string {
  return typeof tx.Delegate === 'string' ? tx.Delegate : (tx.Account as string);
}

/**
 * rippled preflight1 for the Delegate field: the amendment, no delegating to oneself, and a
 * transaction type that no permission could ever cover is refused at once (temINVALID).
 */
export function delegatePreflight(tx: JsonObject, rules: Rules): Ter {
  if (tx.Delegate === undefined) return 'tesSUCCESS';
  if (!rules.enabled('PermissionDelegationV1_1')) return 'temDISABLED';
  if (tx.Delegate === tx.Account) return 'temBAD_SIGNER';
  const type = tx.TransactionType as string;
  const whole = txTypePermission(type);
  if ((whole === undefined || !isDelegable(whole, rules)) && !hasGranularPermissions(type))
    return 'temINVALID';
  return 'tesSUCCESS';
}

/** TxFormats::getCommonFields: every granular template admits these. */
const COMMON_FIELDS = new Set([
  'TransactionType',
  'Flags',
  'SourceTag',
  'Account',
  'Sequence',
  'PreviousTxnID',
  'LastLedgerSequence',
  'AccountTxnID',
  'Fee',
  'OperationLimit',
  'Memos',
  'SigningPubKey',
  'TicketSequence',
  'TxnSignature',
  'Signers',
  'NetworkID',
  'Delegate',
  'Sponsor',
  'SponsorFlags',
  'SponsorSignature',
]);

/**
 * rippled Transactor::checkPermission (preclaim, before the signature and fee checks): the
 * account's Delegate entry for this delegate must grant the transaction type, or granular
 * permissions of this type that admit every flag and field it carries and whose semantics hold.
 */
export function checkDelegatePermission(view: StateReader, tx: JsonObject, rules: Rules): Ter {
  const delegate = tx.Delegate;
  if (typeof delegate !== 'string') return 'tesSUCCESS';
  const entry = view.read(delegateKey(tx.Account as string, delegate));
  if (!entry) return NO;
  const held = permissionValues(entry.Permissions);
  const type = tx.TransactionType as string;
  const whole = txTypePermission(type);
  if (whole !== undefined && held.includes(whole)) return 'tesSUCCESS';
  if (!hasGranularPermissions(type)) return NO;
  const granted: GranularPermission[] = [];
  for (const value of held) {
    const g = value === undefined ? undefined : granularPermission(value);
    if (g && g.txType === type) granted.push(g);
  }
  if (granted.length === 0 || !withinTemplates(tx, granted)) return NO;
  if (type === 'Payment') return paymentSemantics(view, tx, granted, rules);
  if (type === 'TrustSet') return trustSetSemantics(view, tx);
  return 'tesSUCCESS';
}

/** rippled Permission::checkGranularSandbox: the flags and fields the granted templates admit. */
function withinTemplates(tx: JsonObject, granted: readonly GranularPermission[]): boolean {
  let flags = 0;
  for (const g of granted) flags |= g.flags;
  if ((Number(tx.Flags ?? 0) & ~flags) >>> 0 !== 0) return false;
  for (const field of Object.keys(tx)) {
    if (COMMON_FIELDS.has(field)) continue;
    if (!granted.some((g) => g.fields.includes(field))) return false;
  }
  return true;
}

/**
 * Payment::checkGranularSemantics: a direct payment of a token between the account and the
 * destination (same asset as any SendMax). The trust line between them decides what the payment
 * would do: it mints when the destination trusts the account and the account holds none of the
 * destination's tokens (the step issues), it burns when the account holds the destination's
 * tokens (the step redeems). Under fixCleanup3_4_0 a burn may not go past the balance held.
 */
function paymentSemantics(
  view: StateReader,
  tx: JsonObject,
  granted: readonly GranularPermission[],
  rules: Rules,
): Ter {
  const amount = parseAmount(tx.Amount);
  if (!amount) return NO;
  if (tx.SendMax !== undefined) {
    const sendMax = parseAmount(tx.SendMax);
    if (!sendMax || !sameIssue(sendMax, amount)) return NO;
  }
  if (amount.kind === 'xrp') return NO;
  const account = tx.Account as string;
  const dest = tx.Destination as string;
  if (amount.issuer !== account && amount.issuer !== dest) return NO;
  const line = readLine(view, account, dest, amount.currency);
  if (!line) return NO;
  const mint = granted.some((g) => g.value === PAYMENT_MINT);
  const burn = granted.some((g) => g.value === PAYMENT_BURN);
  const held = lineBalanceFor(line, account, dest);
  const accountIsHolder = held.signum() > 0;
  const mayIssue = mint && lineLimitOf(line, dest, account).signum() > 0;
  if (mayIssue && !accountIsHolder) return 'tesSUCCESS';
  if (burn && accountIsHolder) {
    if (!rules.enabled('fixCleanup3_4_0')) return 'tesSUCCESS';
    if (amount.value.lte(held) || mayIssue) return 'tesSUCCESS';
  }
  return NO;
}

/** TrustSet::checkGranularSemantics: an existing line, and its limit left as it is. */
function trustSetSemantics(view: StateReader, tx: JsonObject): Ter {
  const limit = parseAmount(tx.LimitAmount);
  if (!limit || limit.kind !== 'iou') return NO;
  const account = tx.Account as string;
  const line = readLine(view, account, limit.issuer, limit.currency);
  if (!line) return NO;
  return lineLimitOf(line, account, limit.issuer).eq(limit.value) ? 'tesSUCCESS' : NO;
}

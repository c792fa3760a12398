// The permission values of XLS-75 (PermissionDelegationV1_1) as rippled 3.4 defines them: a
// transaction-type permission is the type's code + 1 (1 .. 65536), a granular permission a fixed
// value from 65537 up that admits a subset of one transaction type (rippled permissions.macro:
// the flags and fields each one allows). Which types can be delegated, and under which amendment,
// follows rippled's transactions.macro (`Delegation::notDelegable`, the type's amendment); types
// whose amendment rippled 3.4 has retired need none.
import definitions from 'ripple-binary-codec/dist/enums/definitions.json';
import type { Rules } from '../amendments';
import { TF } from '../ledger-flags';
import { VAULT_AND_LENDING_TYPES } from '../vault-lending-types';

/** rippled kPermissionMaxSize: at most this many permissions per Delegate. */
export const MAX_PERMISSIONS = 10;

const TX_TYPES = definitions.TRANSACTION_TYPES as Record<string, number>;

/** rippled's tfUniversal: the flags any transaction, delegated or not, may carry. */
const TF_UNIVERSAL_ALL = (TF.fullyCanonicalSig | TF.innerBatchTxn) >>> 0;

export interface GranularPermission {
  readonly name: string;
  readonly value: number;
  /** The one transaction type it applies to. */
  readonly txType: string;
  /** The transaction flags it admits. */
  readonly flags: number;
  /** The fields it admits besides the common fields every transaction has. */
  readonly fields: readonly string[];
}

const TRUST_FIELDS = ['LimitAmount'];
const PAYMENT_FIELDS = ['Destination', 'Amount', 'SendMax', 'InvoiceID', 'DestinationTag', 'CredentialIDs'];
const MPT_FIELDS = ['MPTokenIssuanceID', 'Holder'];

/** rippled permissions.macro (GRANULAR_PERMISSION), the twelve of rippled 3.4. */
export const GRANULAR_PERMISSIONS: readonly GranularPermission[] = [
  { name: 'TrustlineAuthorize', value: 65537, txType: 'TrustSet', flags: TF.setfAuth, fields: TRUST_FIELDS },
  { name: 'TrustlineFreeze', value: 65538, txType: 'TrustSet', flags: TF.setFreeze, fields: TRUST_FIELDS },
  {
    name: 'TrustlineUnfreeze',
    value: 65539,
    txType: 'TrustSet',
    flags: TF.clearFreeze,
    fields: TRUST_FIELDS,
  },
  { name: 'AccountDomainSet', value: 65540, txType: 'AccountSet', flags: 0, fields: ['Domain'] },
  { name: 'AccountEmailHashSet', value: 65541, txType: 'AccountSet', flags: 0, fields: ['EmailHash'] },
  { name: 'AccountMessageKeySet', value: 65542, txType: 'AccountSet', flags: 0, fields: ['MessageKey'] },
  { name: 'AccountTransferRateSet', value: 65543, txType: 'AccountSet', flags: 0, fields: ['TransferRate'] },
  { name: 'AccountTickSizeSet', value: 65544, txType: 'AccountSet', flags: 0, fields: ['TickSize'] },
  { name: 'PaymentMint', value: 65545, txType: 'Payment', flags: 0, fields: PAYMENT_FIELDS },
  { name: 'PaymentBurn', value: 65546, txType: 'Payment', flags: 0, fields: PAYMENT_FIELDS },
  { name: 'MPTokenIssuanceLock', value: 65547, txType: 'MPTokenIssuanceSet', flags: 0x1, fields: MPT_FIELDS },
  {
    name: 'MPTokenIssuanceUnlock',
    value: 65548,
    txType: 'MPTokenIssuanceSet',
    flags: 0x2,
    fields: MPT_FIELDS,
  },
].map((g) => ({ ...g, flags: (g.flags | TF_UNIVERSAL_ALL) >>> 0 }));

const GRANULAR_BY_VALUE = new Map(GRANULAR_PERMISSIONS.map((g) => [g.value, g]));
const GRANULAR_BY_NAME = new Map(GRANULAR_PERMISSIONS.map((g) => [g.name, g]));
const GRANULAR_TX_TYPES = new Set(GRANULAR_PERMISSIONS.map((g) => g.txType));

export const PAYMENT_MINT = 65545;
export const PAYMENT_BURN = 65546;

/** Transaction types that can never be delegated as a whole (Delegation::notDelegable). */
const NOT_DELEGABLE = new Set([
  'AccountSet',
  'SetRegularKey',
  'SignerListSet',
  'AccountDelete',
  'DelegateSet',
  'Batch',
  'LedgerStateFix',
  'EnableAmendment',
  'SetFee',
  'UNLModify',
  ...VAULT_AND_LENDING_TYPES,
  'ConfidentialMPTConvert',
  'SponsorshipTransfer',
]);

/**
 * The amendment a transaction type needs (rippled 3.4's transactions.macro). Types absent here need
 * none: the original types, and those whose amendment is retired (Checks, TicketBatch,
 * DepositPreauth, the NFToken ones, Clawback, PayChan).
 */
const TX_AMENDMENT: Record<string, string> = {
  AMMCreate: 'AMM',
  AMMDeposit: 'AMM',
  AMMWithdraw: 'AMM',
  AMMVote: 'AMM',
  AMMBid: 'AMM',
  AMMDelete: 'AMM',
  AMMClawback: 'AMMClawback',
  DIDSet: 'DID',
  DIDDelete: 'DID',
  OracleSet: 'PriceOracle',
  OracleDelete: 'PriceOracle',
  MPTokenIssuanceCreate: 'MPTokensV1',
  MPTokenIssuanceDestroy: 'MPTokensV1',
  MPTokenIssuanceSet: 'MPTokensV1',
  MPTokenAuthorize: 'MPTokensV1',
  CredentialCreate: 'Credentials',
  CredentialAccept: 'Credentials',
  CredentialDelete: 'Credentials',
  NFTokenModify: 'DynamicNFT',
  PermissionedDomainSet: 'PermissionedDomains',
  PermissionedDomainDelete: 'PermissionedDomains',
  ConfidentialMPTMergeInbox: 'ConfidentialTransfer',
  ConfidentialMPTConvertBack: 'ConfidentialTransfer',
  ConfidentialMPTSend: 'ConfidentialTransfer',
  ConfidentialMPTClawback: 'ConfidentialTransfer',
  SponsorshipSet: 'Sponsor',
  XChainCreateBridge: 'XChainBridge',
  XChainModifyBridge: 'XChainBridge',
  XChainCreateClaimID: 'XChainBridge',
  XChainCommit: 'XChainBridge',
  XChainClaim: 'XChainBridge',
  XChainAccountCreateCommit: 'XChainBridge',
  XChainAddClaimAttestation: 'XChainBridge',
  XChainAddAccountCreateAttestation: 'XChainBridge',
};

const TX_NAME_BY_CODE = new Map<number, string>();
for (const [name, code] of Object.entries(TX_TYPES)) if (code >= 0) TX_NAME_BY_CODE.set(code, name);

/**
 * A PermissionValue as the ledger holds it: a granular name, a transaction type's name (its code +
 * 1) or the number itself. undefined for a name neither rippled nor the codec knows.
 */
export function permissionValueOf(json: unknown): number | undefined {
  if (typeof json === 'number')
    return Number.isInteger(json) && json >= 0 && json <= 0xffffffff ? json : undefined;
  if (typeof json !== 'string') return undefined;
  const granular = GRANULAR_BY_NAME.get(json);
  if (granular) return granular.value;
  const code = TX_TYPES[json];
  return code === undefined ? undefined : code + 1;
}

/** The transaction type a permission value names (value - 1), if it is a known type. */
function txTypeOfPermission(value: number): string | undefined {
  if (value < 1 || value > 65536) return undefined;
  return TX_NAME_BY_CODE.get(value - 1);
}

function typeEnabled(txType: string, rules: Rules): boolean {
  const amendment = TX_AMENDMENT[txType];
  return amendment === undefined || rules.enabled(amendment);
}

/**
 * rippled Permission::isDelegable: a granular permission of an enabled transaction type, or a
 * delegable transaction type whose amendment is enabled. 0 ("all permissions") never is.
 */
export function isDelegable(value: number, rules: Rules): boolean {
  if (value === 0) return false;
  const granular = GRANULAR_BY_VALUE.get(value);
  if (granular) return typeEnabled(granular.txType, rules);
  const txType = txTypeOfPermission(value);
  if (txType === undefined || NOT_DELEGABLE.has(txType)) return false;
  return typeEnabled(txType, rules);
}

/** rippled Permission::hasGranularPermissions: some granular permission covers this type. */
export function hasGranularPermissions(txType: string): boolean {
  return GRANULAR_TX_TYPES.has(txType);
}

/** The permission value that grants a whole transaction type. */
export function txTypePermission(txType: string): number | undefined {
  const code = TX_TYPES[txType];
  return code === undefined || code < 0 ? undefined : code + 1;
}

export function granularPermission(value: number): GranularPermission | undefined {
  return GRANULAR_BY_VALUE.get(value);
}

/** The permission values a Delegate entry (or a DelegateSet) lists, in order. */
export function permissionValues(permissions: unknown): Array<number | undefined> {
  if (!Array.isArray(permissions)) return [];
  return permissions.map((p) =>
    permissionValueOf((p as { Permission?: { PermissionValue?: unknown } })?.Permission?.PermissionValue),
  );
}

// rippled's RPC::chooseLedgerEntryType: the `type` filter of ledger_data and account_objects.
import type { JsonObject } from '../core/contract';
import { invalidField } from './errors';

const SHORT_NAMES: Record<string, string> = {
  account: 'AccountRoot',
  amendments: 'Amendments',
  amm: 'AMM',
  bridge: 'Bridge',
  check: 'Check',
  credential: 'Credential',
  delegate: 'Delegate',
  deposit_preauth: 'DepositPreauth',
  did: 'DID',
  directory: 'DirectoryNode',
  escrow: 'Escrow',
  fee: 'FeeSettings',
  hashes: 'LedgerHashes',
  mpt_issuance: 'MPTokenIssuance',
  mptoken: 'MPToken',
  nft_offer: 'NFTokenOffer',
  nft_page: 'NFTokenPage',
  nunl: 'NegativeUNL',
  offer: 'Offer',
  oracle: 'Oracle',
  payment_channel: 'PayChannel',
  permissioned_domain: 'PermissionedDomain',
  signer_list: 'SignerList',
  state: 'RippleState',
  ticket: 'Ticket',
  vault: 'Vault',
  xchain_owned_claim_id: 'XChainOwnedClaimID',
  xchain_owned_create_account_claim_id: 'XChainOwnedCreateAccountClaimID',
};

const CANONICAL = new Map(Object.values(SHORT_NAMES).map((name) => [name.toLowerCase(), name]));

/** Types whose presence blocks AccountDelete (account_objects deletion_blockers_only). */
export const DELETION_BLOCKERS = new Set([
  'Check',
  'Escrow',
  'NFTokenPage',
  'PayChannel',
  'RippleState',
  'Bridge',
  'XChainOwnedClaimID',
  'XChainOwnedCreateAccountClaimID',
  'MPTokenIssuance',
  'MPToken',
  'PermissionedDomain',
  'Vault',
]);

/** undefined when no filter was given; throws invalidParams for an unknown name. */
export function readTypeFilter(params: JsonObject): string | undefined {
  const value = params.type;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidField('type');
  const found = SHORT_NAMES[value] ?? CANONICAL.get(value.toLowerCase());
  if (!found) throw invalidField('type');
  return found;
}

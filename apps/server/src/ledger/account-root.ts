import { BLACKHOLE_ADDRESSES, type AccountRole } from '@ledgerpad/shared';
import { LedgerEntry, type Client, type LedgerIndex } from 'xrpl';
import { aboutAccount } from './errors';

// What an account's root says about it as an issuer, read one way for every module (listing, the
// dashboard, the market indexer, the risk panel), so "blackholed" means the same thing everywhere.

/** AccountRoot flags, by the names this code reads them with (values: xrpl.js's AccountRootFlags). */
const F = LedgerEntry.AccountRootFlags;
export const LSF = {
  requireDestTag: F.lsfRequireDestTag,
  requireAuth: F.lsfRequireAuth,
  disableMaster: F.lsfDisableMaster,
  noFreeze: F.lsfNoFreeze,
  globalFreeze: F.lsfGlobalFreeze,
  defaultRipple: F.lsfDefaultRipple,
  depositAuth: F.lsfDepositAuth,
  allowTrustLineClawback: F.lsfAllowTrustLineClawback,
} as const;

export interface IssuerFacts {
  masterDisabled: boolean;
  regularKey: string | null;
  hasSignerList: boolean;
  /** Master key disabled, no signer list, and a regular key no one holds (or none): can never sign. */
  blackholed: boolean;
  requireAuth: boolean;
  globalFreeze: boolean;
  noFreeze: boolean;
  clawback: boolean;
  defaultRipple: boolean;
  /** TransferRate as stored (1e9 = no fee); null when unset. */
  transferRate: number | null;
}

function isBlackholed(f: Pick<IssuerFacts, 'masterDisabled' | 'regularKey' | 'hasSignerList'>): boolean {
  return (
    f.masterDisabled &&
    !f.hasSignerList &&
    (f.regularKey === null || (BLACKHOLE_ADDRESSES as readonly string[]).includes(f.regularKey))
  );
}

/** The facts of an account, from `account_info` with `signer_lists: true` (rejects like the request). */
export async function readIssuerFacts(
  client: Client,
  account: string,
  ledgerIndex: LedgerIndex | number = 'validated',
): Promise<IssuerFacts> {
  const r = await client.request({
    command: 'account_info',
    account,
    ledger_index: ledgerIndex,
    signer_lists: true,
  });
  const a = r.result.account_data as typeof r.result.account_data & {
    RegularKey?: string;
    TransferRate?: number;
  };
  // API v2 puts signer_lists beside account_data; v1 inside it.
  const lists =
    (r.result as { signer_lists?: unknown[] }).signer_lists ??
    (a as { signer_lists?: unknown[] }).signer_lists ??
    [];
  const flags = Number(a.Flags ?? 0) >>> 0;
  const f = {
    masterDisabled: (flags & LSF.disableMaster) !== 0,
    regularKey: a.RegularKey ?? null,
    hasSignerList: lists.length > 0,
    requireAuth: (flags & LSF.requireAuth) !== 0,
    globalFreeze: (flags & LSF.globalFreeze) !== 0,
    noFreeze: (flags & LSF.noFreeze) !== 0,
    clawback: (flags & LSF.allowTrustLineClawback) >>> 0 !== 0,
    defaultRipple: (flags & LSF.defaultRipple) !== 0,
    transferRate: a.TransferRate ?? null,
  };
  return { ...f, blackholed: isBlackholed(f) };
}

/**
 * The address a user gave exists on the validated ledger, else a 400 naming it ("The issuer r… does
 * not exist on the XRP Ledger."): checked before anything is signed, so a typo or an unfunded
 * address is the user's mistake said plainly — not a TrustSet paid for nothing, nor a 502.
 */
export async function requireAccount(
  reader: Pick<Client, 'request'>,
  address: string,
  role: AccountRole,
  field?: string,
): Promise<void> {
  await aboutAccount(
    address,
    role,
    () => reader.request({ command: 'account_info', account: address, ledger_index: 'validated' }),
    field,
  );
}

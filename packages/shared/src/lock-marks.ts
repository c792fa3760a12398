import type { z } from 'zod';
import type { tokenDevUnlockedSchema, tokenLedgerLockSchema } from './schemas/token-identity';
import type { DevLockView, EscrowLockState } from './schemas/vesting';

// The token list's lock marks and the risk panel's lock lines, worded once. Plain functions, no zod: the landing list
// shows them, and in a schema module they brought zod into the landing route's JavaScript (issue 40).
// The marks' types are their schemas' (schemas/token-identity.ts), imported as types only.

/**
 * The token list's lock mark (`TokenView.ledger_lock`): the token's escrows by **any** holder, read
 * from the issuer's escrow objects on the ledger (docs/vesting.md "The list mark"). Absent when no
 * escrow of the token is on the ledger.
 */
export type TokenLedgerLock = z.infer<typeof tokenLedgerLockSchema>;

/** The mark's label: '7.5% locked' ('<0.01% locked' for a sliver). */
export const ledgerLockLabel = (lock: Pick<TokenLedgerLock, 'percent'>): string =>
  `${lock.percent === '0' ? '<0.01' : lock.percent}% locked`;

/** The mark's tooltip and accessible name: what is locked, where, and until when (UTC days). */
export const ledgerLockTitle = (lock: TokenLedgerLock): string => {
  const share = ledgerLockLabel(lock).replace(' locked', '');
  const where = `${share} of the supply locked on the ledger in ${lock.escrows} escrow${lock.escrows === 1 ? '' : 's'}`;
  const first = lock.firstUnlock?.slice(0, 10);
  const last = lock.until?.slice(0, 10);
  if (!last) return `${where}, with no unlock date`;
  if (!first || first === last) return `${where} until ${last}`;
  return `${where} until ${last} (first unlock ${first})`;
};

/**
 * The token list's 'unlocked' mark (`TokenView.dev_unlocked`): a Ledgerpad deploy whose dev
 * allocation (above 0) has no escrow of the deployer's wallet on the ledger — never locked, or every
 * tranche released (docs/vesting.md "Unlocked dev allocations"). Absent for tokens without a known
 * dev allocation (listed from the ledger, curve launches) and for locked ones.
 */
export type TokenDevUnlocked = z.infer<typeof tokenDevUnlockedSchema>;

/** The mark's label: 'unlocked', or 'partly unlocked' when some of the allocation is locked. */
export const devUnlockedLabel = (u: TokenDevUnlocked): string =>
  u.lockedPercent && u.lockedPercent !== '0' ? 'partly unlocked' : 'unlocked';

/** The 'unlocked' mark's tooltip and accessible name. */
export const devUnlockedTitle = (u: TokenDevUnlocked): string =>
  u.lockedPercent && u.lockedPercent !== '0'
    ? `Dev allocation ${u.percent}% — only ${u.lockedPercent}% of it locked on the ledger: the deployer can sell the rest`
    : `Dev allocation ${u.percent}% — unlocked: not in escrow on the ledger, the deployer can sell it`;

/** What an escrow of the panel's list says beside its amount and date. */
export const ESCROW_STATE_TEXT: Record<EscrowLockState, string> = {
  locked: 'locked',
  due: 'unlocked — can be released now',
  conditional: 'has a crypto-condition: can be finished at any time, not a lock',
  'no-finish-after': 'no unlock date: not a lock',
};

/**
 * The risk panel's dev-lock line, worded once (`until`: 'YYYY-MM-DD'; `locked`: percent of the
 * allocation). 'Dev allocation 10% — locked on the ledger until 2031-01-01', '… — 0.01% of it locked
 * on the ledger until …', '… — unlocked — can be released now', '… — unlocked'.
 */
export const devLockText = (
  dev: string,
  locked: string,
  until: string | null,
  status: DevLockView['status'],
  due: boolean,
): string => {
  if (status === 'locked' && until) return `Dev allocation ${dev}% — locked on the ledger until ${until}`;
  if (status === 'partial' && until)
    return `Dev allocation ${dev}% — ${locked}% of it locked on the ledger until ${until}; the rest ${due ? 'unlocked — can be released now' : 'can be sold'}`;
  if (status === 'unlocked') return `Dev allocation ${dev}% — unlocked${due ? ' — can be released now' : ''}`;
  return `Dev allocation ${dev}% — not locked`;
};

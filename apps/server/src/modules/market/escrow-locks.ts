import {
  Decimal,
  devAllocationAmount,
  escrowLockState,
  rippleTime,
  type TokenDevUnlocked,
  type TokenLedgerLock,
  type TokenView,
} from '@ledgerpad/shared';
import type { Client } from 'xrpl';
import { readEscrows, type LedgerEscrow } from '../../ledger/escrows';
import type { IndexedLedger } from '../../platform/indexer/follower';
import type { TokenRow } from '../tokens';

// The token list's lock mark (issue 28, docs/vesting.md "The list mark"): per listed issuer, the
// escrows of its tokens by any holder, read from the ledger's escrow objects. /api/tokens is one
// body built per ledger, so the reads happen here, not per request: every listed issuer once (at
// start, or when it is first listed), then again only when a validated ledger creates, finishes or
// cancels an escrow of that issuer's token (the indexer's metadata says which).

/** Issuers read at once when the list is first built (the ledger server is shared with the app). */
const READ_CONCURRENCY = 4;

type Log = (err: unknown, issuer: string) => void;

/** Issuers whose token escrows this ledger created or removed (an Escrow node holding an issued amount). */
export function escrowIssuersTouched(ledger: IndexedLedger): Set<string> {
  const out = new Set<string>();
  for (const itx of ledger.transactions) {
    // Escrow nodes are only in a successful transaction's metadata (a tec changes no escrow).
    for (const node of itx.meta?.AffectedNodes ?? []) {
      const n = (
        'CreatedNode' in node ? node.CreatedNode : 'DeletedNode' in node ? node.DeletedNode : undefined
      ) as
        | { LedgerEntryType: string; NewFields?: { Amount?: unknown }; FinalFields?: { Amount?: unknown } }
        | undefined;
      if (n?.LedgerEntryType !== 'Escrow') continue;
      const amount = (n.NewFields ?? n.FinalFields)?.Amount;
      if (amount && typeof amount === 'object' && 'issuer' in amount) out.add(String(amount.issuer));
    }
  }
  return out;
}

/**
 * One token's mark from its escrows at `closeTime` (Ripple seconds); undefined when none locks
 * anything. Only escrows the ledger guarantees count (issue 35, `escrowLockState`): a FinishAfter
 * not reached yet and no Condition — a conditional escrow, one with only a CancelAfter, or a due one
 * locks nothing.
 */
export function summarize(
  escrows: LedgerEscrow[],
  supply: string,
  closeTime: number,
): TokenLedgerLock | undefined {
  const locking = escrows.filter((e) => escrowLockState(e, closeTime) === 'locked');
  if (locking.length === 0) return undefined;
  const amount = locking.reduce((s, e) => s.plus(e.amount), new Decimal(0));
  const whole = new Decimal(supply);
  const dates = locking.map((e) => e.finishAfter!).sort((a, b) => a - b);
  return {
    percent: whole.gt(0) ? amount.div(whole).mul(100).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed() : '0',
    amount: amount.toFixed(),
    escrows: locking.length,
    firstUnlock: rippleTime.toIso(dates[0]!),
    until: rippleTime.toIso(dates[dates.length - 1]!),
  };
}

/**
 * The 'unlocked' mark: a Ledgerpad deploy with a dev allocation above 0 that the deployer's wallet
 * does not hold in full in escrows that lock it (never locked, released, due, conditional, or a
 * token amount of it: issue 35), with the share of the allocation that is locked. Undefined when
 * all of it is locked — and for tokens without a known dev allocation (listed, curve launches).
 */
export function devUnlocked(
  row: Pick<TokenRow, 'source' | 'devAllocation' | 'supply'>,
  devWallet: string | undefined,
  escrows: LedgerEscrow[],
  closeTime: number,
): TokenDevUnlocked | undefined {
  if (row.source !== 'deploy' || !devWallet || !new Decimal(row.devAllocation).gt(0)) return undefined;
  const allocation = devAllocationAmount(row.supply, row.devAllocation);
  const locked = escrows
    .filter((e) => e.owner === devWallet && escrowLockState(e, closeTime) === 'locked')
    .reduce((s, e) => s.plus(e.amount), new Decimal(0));
  if (allocation.gt(0) && locked.gte(allocation)) return undefined;
  const share = allocation.gt(0)
    ? locked.div(allocation).mul(100).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed()
    : '0';
  return { percent: new Decimal(row.devAllocation).toFixed(), lockedPercent: share };
}

/** The deployer's wallet of each deploy job (vesting's `deployWallets`). */
type DeployWallets = (jobIds: string[]) => Promise<Map<string, string>>;

export class EscrowLocks {
  /** Deploy job → the deployer's wallet (a job's payload never changes: kept for good). */
  private readonly devWallets = new Map<string, string>();
  /** The validated ledger's token escrows in each issuer's directory (only that issuer's tokens). */
  private readonly byIssuer = new Map<string, LedgerEscrow[]>();
  private readonly reading = new Map<string, Promise<void>>();
  /** A read asked for while one runs: one more after it (its answer may predate the change). */
  private readonly queued = new Map<string, Promise<void>>();
  private listed = new Set<string>();
  /** Reads started by a ledger's escrow change: the next build waits for them. */
  private readonly changed = new Set<Promise<void>>();
  /** Reads of never-read issuers under way (in the background). */
  private loading: Promise<void> | undefined;

  constructor(
    private readonly client: Client | undefined,
    private readonly log: Log = () => {},
    /** Never-read issuers are in: the list body should be rebuilt. */
    private readonly loaded: () => void = () => {},
    private readonly deployWallets?: DeployWallets,
  ) {}

  /** The last indexed ledger's close time (Unix ms): escrows are judged at the ledger's time. */
  private closeTimeMs: number | undefined;

  /** The indexer committed a ledger: read again the listed issuers whose escrows it changed. */
  ledgerIndexed(ledger: IndexedLedger): void {
    if (ledger.closeTime > 0) this.closeTimeMs = ledger.closeTime;
    for (const issuer of escrowIssuersTouched(ledger)) {
      if (!this.listed.has(issuer)) continue;
      const read = this.read(issuer);
      this.changed.add(read);
      void read.finally(() => this.changed.delete(read));
    }
  }

  /**
   * Sets `ledger_lock` on the listed tokens (the snapshot's build). Waits for the reads a ledger's
   * escrow change started, so the body built for that ledger shows it; issuers never read (at start,
   * or newly listed) are read in the background, a few at a time, and `loaded` asks for a rebuild
   * when they are in — the first list never waits for thousands of reads.
   */
  async apply(tokens: TokenView[], rows: TokenRow[] = []): Promise<void> {
    if (!this.client) return;
    const devs = await this.devWalletsOf(rows);
    this.listed = new Set(tokens.map((t) => t.issuer_address));
    const missing = [...this.listed].filter((i) => !this.byIssuer.has(i) && !this.reading.has(i));
    if (missing.length > 0 && !this.loading) {
      const workers = Array.from({ length: Math.min(READ_CONCURRENCY, missing.length) }, async () => {
        for (let issuer = missing.shift(); issuer !== undefined; issuer = missing.shift())
          await this.read(issuer);
      });
      const before = this.byIssuer.size;
      this.loading = Promise.all(workers).then(() => {
        this.loading = undefined;
        // Only when something was read: a ledger that is down must not make every request rebuild.
        if (this.byIssuer.size > before) this.loaded();
      });
    }
    await Promise.all(this.changed);
    const byId = new Map(rows.map((r) => [r.id, r]));
    // The time escrows are judged at: the last indexed ledger's close (the embedded ledger's clock
    // may run behind the wall clock), else now. A FinishAfter passing changes no ledger object; the
    // next build after it shows the escrow as due, not locked.
    const closeTime = rippleTime.fromUnixMs(this.closeTimeMs ?? Date.now());
    for (const t of tokens) {
      const mine = (this.byIssuer.get(t.issuer_address) ?? []).filter((e) => e.currency === t.currency);
      // Only once the issuer's escrows are known: an unread issuer gets no mark either way.
      const row = byId.get(t.id);
      if (row && this.byIssuer.has(t.issuer_address)) {
        const unlocked = devUnlocked(
          row,
          row.deployJobId ? devs.get(row.deployJobId) : undefined,
          mine,
          closeTime,
        );
        if (unlocked) t.dev_unlocked = unlocked;
      }
      // A dev allocation not locked in full shows only its amber mark: a green 'locked' beside it
      // (a sliver in escrow) would read as the opposite.
      const lock = t.dev_unlocked ? undefined : summarize(mine, t.supply, closeTime);
      if (lock) t.ledger_lock = lock;
    }
  }

  /** The deployers' wallets of these rows' deploys; read once per job, a failed read skips the mark. */
  private async devWalletsOf(rows: TokenRow[]): Promise<Map<string, string>> {
    const jobIds = rows.flatMap((r) =>
      r.source === 'deploy' && r.deployJobId && new Decimal(r.devAllocation).gt(0) ? [r.deployJobId] : [],
    );
    const unknown = jobIds.filter((id) => !this.devWallets.has(id));
    if (unknown.length && this.deployWallets) {
      try {
        for (const [id, address] of await this.deployWallets(unknown)) this.devWallets.set(id, address);
      } catch (err) {
        this.log(err, 'deploy wallets');
      }
    }
    return this.devWallets;
  }

  /** Reads one issuer's escrows, coalesced; never rejects (a failed read is retried by the next build). */
  private read(issuer: string): Promise<void> {
    const running = this.reading.get(issuer);
    if (running) {
      let next = this.queued.get(issuer);
      if (!next) {
        next = running.then(() => {
          this.queued.delete(issuer);
          return this.read(issuer);
        });
        this.queued.set(issuer, next);
      }
      return next;
    }
    const client = this.client!;
    const done = readEscrows(client, issuer)
      .then(
        (all) => {
          this.byIssuer.set(
            issuer,
            all.filter((e) => e.issuer === issuer),
          );
        },
        (err: unknown) => this.log(err, issuer),
      )
      .finally(() => this.reading.delete(issuer));
    this.reading.set(issuer, done);
    return done;
  }
}

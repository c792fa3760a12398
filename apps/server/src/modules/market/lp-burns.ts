import { Decimal, type TokenView } from '@ledgerpad/shared';
import type { Client } from 'xrpl';
import type { TokenRow } from '../tokens';
import { lpBurnedPercent, readLpBurn } from './lp-holders';

// The token list's 'LP burned' mark (issue 37, docs/launch-protection.md): per listed token with a
// pool, the share of the pool's LP tokens held by accounts that can never sign, read from the ledger
// the way the risk panel reads it (`readLpBurn`). /api/tokens is one body built per ledger, so the
// reads happen here in the background, a few at a time, never per request: a pool is read when first
// seen, when its LP supply changes (a deposit or a withdrawal), and again after LP_BURN_REFRESH_MS
// (a holder blackholed later, or LP tokens sent to a black hole, leave the supply as it was).

/** Pools read at once (the ledger server is shared with the app). */
const READ_CONCURRENCY = 4;
/** How long a read stands without a change of the pool's LP supply. */
const LP_BURN_REFRESH_MS = 60_000;

/** The pool of a token the indexer knows (market_pools). */
interface LpPool {
  tokenId: number;
  quote: string;
  ammAccount: string;
  lpCurrency: string;
  lpSupply: string;
}

interface Read {
  lpSupply: string;
  percent: string;
  at: number;
}

export class LpBurns {
  private readonly byPool = new Map<string, Read>();
  private readonly reading = new Set<string>();
  private loading: Promise<void> | undefined;

  constructor(
    private readonly client: Client | undefined,
    private readonly log: (err: unknown, pool: string) => void = () => {},
    /** Reads came in: the list body should be rebuilt. */
    private readonly loaded: () => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Sets `lp_burned` on the listed tokens from the reads in (the snapshot's build), the token's own
   * pair's pool first (the one it launched with), and starts the reads that are missing or stale.
   */
  apply(tokens: TokenView[], rows: TokenRow[], pools: LpPool[]): void {
    if (!this.client) return;
    const pairOf = new Map(rows.map((r) => [r.id, r.liquidityPair]));
    const byToken = new Map<number, LpPool[]>();
    for (const p of pools) byToken.set(p.tokenId, [...(byToken.get(p.tokenId) ?? []), p]);
    const wanted: LpPool[] = [];
    for (const t of tokens) {
      const own = byToken.get(t.id) ?? [];
      const pool = own.find((p) => p.quote === pairOf.get(t.id)) ?? own[0];
      if (!pool || !new Decimal(pool.lpSupply).gt(0)) continue;
      const read = this.byPool.get(pool.ammAccount);
      if (!read || read.lpSupply !== pool.lpSupply || this.now() - read.at > LP_BURN_REFRESH_MS)
        wanted.push(pool);
      // A read of an older LP supply still says who held what: shown until the new one is in.
      if (read && read.percent !== '0') t.lp_burned = { percent: read.percent };
    }
    this.start(wanted);
  }

  /**
   * Reads that found no burned LP stand no longer: a curve's graduation (or a window launch's) opens
   * its pool before it blackholes the LP holder, so the pool's first read saw 0%; re-read at the next
   * build instead of a minute later.
   */
  rereadUnburned(): void {
    for (const [pool, read] of this.byPool) if (read.percent === '0') this.byPool.delete(pool);
  }

  private start(pools: LpPool[]): void {
    const todo = pools.filter((p) => !this.reading.has(p.ammAccount));
    if (todo.length === 0 || this.loading) return;
    for (const p of todo) this.reading.add(p.ammAccount);
    let changed = false;
    const workers = Array.from({ length: Math.min(READ_CONCURRENCY, todo.length) }, async () => {
      for (let p = todo.shift(); p !== undefined; p = todo.shift()) {
        try {
          const lp = await readLpBurn(this.client!, {
            account: p.ammAccount,
            lpCurrency: p.lpCurrency,
            lpSupply: p.lpSupply,
          });
          const percent = lpBurnedPercent(lp);
          const before = this.byPool.get(p.ammAccount);
          if (before?.percent !== percent) changed = true;
          this.byPool.set(p.ammAccount, { lpSupply: p.lpSupply, percent, at: this.now() });
        } catch (err) {
          this.log(err, p.ammAccount);
        } finally {
          this.reading.delete(p.ammAccount);
        }
      }
    });
    this.loading = Promise.all(workers).then(() => {
      this.loading = undefined;
      // Only when a mark changed: a refresh that finds the same must not rebuild the list.
      if (changed) this.loaded();
    });
  }
}

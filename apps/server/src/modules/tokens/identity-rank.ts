import { Decimal, RLUSD_CURRENCY_HEX, type SameAsRef } from '@ledgerpad/shared';
import { identityKeys, reservedIdentityOf } from '@ledgerpad/shared/lookalike';

// Tokens that share a ticker or a name after the lookalike fold (issue 35, docs/token-identity.md
// "Same ticker"): ledger facts decide which one the others give way to, never the order of listing.
// Pure: the registry reads the rows and the facts, this decides, the registry writes what changed.

/** What the ledger says about a token, as the market indexer recorded it (`LedgerFactsProvider`). */
export interface LedgerFacts {
  /** Accounts holding a positive balance (AMM pools and Ledgerpad's own accounts left out). */
  holders: number;
  /** Trust lines to the issuer for this currency, zero balances included. */
  trustLines: number;
  /** Traded volume, in XRP (RLUSD-quoted trades at the ledger's own XRP/USD price); a decimal string. */
  volume: string;
}

export interface RankRow {
  id: number;
  ticker: string;
  name: string;
  currency: string;
  issuerAddress: string;
  verifiedBy: string | null;
  verifiedDomain: string | null;
  /** The issuer's first issuance of the currency (its first trust line), or the listing time. */
  createdAt: Date;
  isActive: boolean;
}

/** What a row should read after ranking. */
export interface IdentityOutcome {
  /** A reserved identity ('XRP', 'RLUSD') or the ticker of the token it gives way to. */
  lookalikeOf: string | null;
  sameAs: (SameAsRef & { id: number }) | null;
  /** False when the row wears a reserved identity (no proof can make it verified). */
  mayBeVerified: boolean;
}

const NO_FACTS: LedgerFacts = { holders: 0, trustLines: 0, volume: '0' };

/** An admin's decision (or the platform's own listing) comes before any ledger fact. */
const PINNED = new Set(['admin', 'platform']);

/**
 * Orders the members of one group best first:
 * 1. listed on the list (a hidden listing never leads);
 * 2. an admin's decision (`verified_by` admin or platform) — applied to both sides of a pair;
 * 3. a TOML domain vouching for it (the issuer's Domain lists it);
 * 4. ledger facts, each member scored by how many others it beats on each of: the earlier first
 *    issuance, more holders, more trust lines, more volume (a Borda count: transitive, so three or
 *    more tokens sharing a ticker still get one order);
 * 5. the earlier first issuance, then the lower id (a stable order for equal facts).
 * A controller's proof of its own issuer is no fact about the project and does not rank.
 */
export function rankGroup(members: RankRow[], facts: ReadonlyMap<number, LedgerFacts>): RankRow[] {
  const f = (r: RankRow) => facts.get(r.id) ?? NO_FACTS;
  // The Borda count without comparing every pair: on each fact a member beats exactly the others
  // with a strictly worse value, counted by a binary search in that fact's sorted values. A group
  // can hold thousands of tokens (names folding together by the thousand are cheap to make), and
  // the pairwise count was quadratic: 3,660 members took seconds and held up the server's start.
  const created = members.map((r) => r.createdAt.getTime()).sort((a, b) => a - b);
  const holders = members.map((r) => f(r).holders).sort((a, b) => a - b);
  const trustLines = members.map((r) => f(r).trustLines).sort((a, b) => a - b);
  const volumes = members.map((r) => new Decimal(f(r).volume)).sort((a, b) => a.comparedTo(b));
  const score = new Map(
    members.map((a) => {
      const fa = f(a);
      const volume = new Decimal(fa.volume);
      const wins =
        // Earlier first issuance: the others created strictly later.
        members.length -
        firstIndex(created, (x) => x > a.createdAt.getTime()) +
        firstIndex(holders, (x) => x >= fa.holders) +
        firstIndex(trustLines, (x) => x >= fa.trustLines) +
        firstIndex(volumes, (x) => x.gte(volume));
      return [a.id, wins];
    }),
  );
  const tier = (r: RankRow) =>
    (r.isActive ? 0 : 4) + (r.verifiedBy && PINNED.has(r.verifiedBy) ? 0 : 2) + (r.verifiedDomain ? 0 : 1);
  return [...members].sort(
    (a, b) =>
      tier(a) - tier(b) ||
      score.get(b.id)! - score.get(a.id)! ||
      a.createdAt.getTime() - b.createdAt.getTime() ||
      a.id - b.id,
  );
}

/** The index of the first element of an ascending array for which `atOrPast` holds (its length if none). */
function firstIndex<T>(sorted: readonly T[], atOrPast: (x: T) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (atOrPast(sorted[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The groups of rows sharing a key (connected through any shared ticker or name key), 2 or more each. */
export function sameIdentityGroups(rows: RankRow[]): RankRow[][] {
  const parent = new Map<number, number>(rows.map((r) => [r.id, r.id]));
  const find = (id: number): number => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const byKey = new Map<string, number>();
  for (const r of rows) {
    for (const k of identityKeys(r)) {
      const other = byKey.get(k);
      if (other === undefined) byKey.set(k, r.id);
      else parent.set(find(r.id), find(other));
    }
  }
  const groups = new Map<number, RankRow[]>();
  for (const r of rows) {
    const root = find(r.id);
    const group = groups.get(root);
    if (group) group.push(r);
    else groups.set(root, [r]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

/** True for the network's own RLUSD (the reserved identity itself). */
const isPlatformRlusd = (r: RankRow, rlusdIssuer: string | undefined) =>
  r.currency === RLUSD_CURRENCY_HEX && r.issuerAddress === rlusdIssuer;

/**
 * What every row should read: reserved identities first (a token wearing XRP's or RLUSD's ticker
 * or name, or RLUSD's code from another issuer, 'looks like' it and is never verified); then, in
 * each group sharing a key, every member below another it shares a key with gives way to the best
 * such one ('same ticker as …' or 'same name as …').
 */
export function decideIdentities(
  rows: RankRow[],
  facts: ReadonlyMap<number, LedgerFacts>,
  rlusdIssuer: string | undefined,
): Map<number, IdentityOutcome> {
  const out = new Map<number, IdentityOutcome>();
  const ranked: RankRow[] = [];
  for (const r of rows) {
    if (isPlatformRlusd(r, rlusdIssuer)) {
      out.set(r.id, { lookalikeOf: null, sameAs: null, mayBeVerified: true });
      continue;
    }
    const reserved =
      r.currency === RLUSD_CURRENCY_HEX
        ? 'RLUSD'
        : (reservedIdentityOf(r.ticker) ?? reservedIdentityOf(r.name));
    if (reserved) {
      out.set(r.id, { lookalikeOf: reserved, sameAs: null, mayBeVerified: false });
      continue;
    }
    out.set(r.id, { lookalikeOf: null, sameAs: null, mayBeVerified: true });
    ranked.push(r);
  }
  for (const group of sameIdentityGroups(ranked)) {
    const order = rankGroup(group, facts);
    // Each key's best-ranked holder so far: the best member above one that it shares a key with is
    // the best of its keys' holders (chains through a third token do not count) — one pass, not a
    // scan of everything above each member.
    const bestWith = new Map<string, number>();
    for (let i = 0; i < order.length; i++) {
      const me = order[i]!;
      const mine = identityKeys(me);
      let best: number | undefined;
      for (const k of mine) {
        const j = bestWith.get(k);
        if (j === undefined) bestWith.set(k, i);
        else if (best === undefined || j < best) best = j;
      }
      if (best === undefined) continue;
      const above = order[best]!;
      const aboveTicker = identityKeys({ ticker: above.ticker, name: '' });
      const match = [...mine].some((k) => aboveTicker.has(k)) ? 'ticker' : 'name';
      out.set(me.id, {
        lookalikeOf: above.ticker,
        sameAs: {
          id: above.id,
          match,
          ticker: above.ticker,
          name: above.name,
          issuer_address: above.issuerAddress,
          currency: above.currency,
        },
        mayBeVerified: true,
      });
    }
  }
  return out;
}

import { describe, expect, it } from 'vitest';
import { Decimal } from '@ledgerpad/shared';
import { identityKeys } from '@ledgerpad/shared/lookalike';
import {
  decideIdentities,
  rankGroup,
  sameIdentityGroups,
  type LedgerFacts,
  type RankRow,
} from '../../src/modules/tokens/identity-rank';

// The same-ticker ranking at scale: thousands of tokens whose names fold together (digits read as
// letters: 'Bench Token 105' and 'Bench Token lOS' are one name) form groups of thousands, which
// the pairwise ranking took seconds over and held up the server's start (the market bench's 10,000
// tokens: 8 s). The fast ranking must decide exactly what the definition says; the definition is
// written out here pair by pair, as docs/token-identity.md states it, and both run on the same rows.

const NO_FACTS: LedgerFacts = { holders: 0, trustLines: 0, volume: '0' };
const PINNED = new Set(['admin', 'platform']);

/** The Borda order by its definition: every pair compared on every fact. */
function rankByPairs(members: RankRow[], facts: ReadonlyMap<number, LedgerFacts>): RankRow[] {
  const f = (r: RankRow) => facts.get(r.id) ?? NO_FACTS;
  const beats = (a: RankRow, b: RankRow) =>
    Number(a.createdAt.getTime() < b.createdAt.getTime()) +
    Number(f(a).holders > f(b).holders) +
    Number(f(a).trustLines > f(b).trustLines) +
    Number(new Decimal(f(a).volume).gt(f(b).volume));
  const score = new Map(
    members.map((a) => [a.id, members.reduce((s, b) => s + (a === b ? 0 : beats(a, b)), 0)]),
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

/** A seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function world(n: number, seed: number) {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const rows: RankRow[] = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    // Few distinct keys, so groups are large and chain through tickers and names.
    ticker: pick(['ZETA', 'ZET4', 'MOON', 'M00N', 'PEPE', `T${i}`]),
    name: pick(['Zeta', 'Moon Coin', 'M00n Coin', 'Pepe', `Token ${i}`]),
    currency: 'X',
    issuerAddress: `r${i}`,
    verifiedBy: pick([null, null, null, 'admin', 'toml']),
    verifiedDomain: pick([null, null, 'zeta.example']),
    // Ties on purpose: a handful of dates and fact values.
    createdAt: new Date(Date.UTC(2025, 0, 1 + Math.floor(rnd() * 5))),
    isActive: rnd() > 0.1,
  }));
  const facts = new Map<number, LedgerFacts>(
    rows
      .filter(() => rnd() > 0.2)
      .map((r) => [
        r.id,
        {
          holders: Math.floor(rnd() * 4),
          trustLines: Math.floor(rnd() * 4),
          volume: pick(['0', '0.5', '10', '10.000001', '1e3']),
        },
      ]),
  );
  return { rows, facts };
}

describe('same-ticker ranking at scale', () => {
  it('orders every group exactly as the pairwise definition does, ties included', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { rows, facts } = world(300, seed);
      for (const group of sameIdentityGroups(rows)) {
        expect(rankGroup(group, facts).map((r) => r.id)).toEqual(rankByPairs(group, facts).map((r) => r.id));
      }
    }
  });

  it('points every member at the best-ranked member above it that shares one of its keys', () => {
    const { rows, facts } = world(400, 9);
    const out = decideIdentities(rows, facts, undefined);
    let pointed = 0;
    for (const group of sameIdentityGroups(rows)) {
      const order = rankByPairs(group, facts);
      order.forEach((me, i) => {
        const mine = identityKeys(me);
        const above = order.slice(0, i).find((o) => [...identityKeys(o)].some((k) => mine.has(k)));
        expect(out.get(me.id)!.sameAs?.id ?? null).toBe(above?.id ?? null);
        if (above) pointed++;
      });
    }
    expect(pointed).toBeGreaterThan(300);
  });

  it('decides 10,000 tokens whose names fold into groups of thousands', () => {
    const rows: RankRow[] = Array.from({ length: 10_000 }, (_, n) => ({
      id: n + 1,
      ticker: `B${n.toString(36).toUpperCase().padStart(4, '0')}`,
      name: `Bench Token ${n}`,
      currency: 'X',
      issuerAddress: `r${n}`,
      verifiedBy: null,
      verifiedDomain: null,
      createdAt: new Date(Date.UTC(2025, 0, 1) + n),
      isActive: true,
    }));
    const groups = sameIdentityGroups(rows);
    expect(Math.max(...groups.map((g) => g.length))).toBeGreaterThan(1000);
    const out = decideIdentities(rows, new Map(), undefined);
    // With no facts the earlier issuance leads each group: every other member gives way to it or
    // to one ranked above it, never to a later one.
    for (const r of rows) {
      const same = out.get(r.id)!.sameAs;
      if (same) expect(same.id).toBeLessThan(r.id);
    }
  });
});

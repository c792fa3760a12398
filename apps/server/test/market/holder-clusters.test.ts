import { describe, expect, it } from 'vitest';
import { Decimal } from '@ledgerpad/shared';
import { CLUSTER_SPAN_MS, clusterHolders, type Funding } from '../../src/modules/market/holder-clusters';
import { decideIdentities, rankGroup, type RankRow } from '../../src/modules/tokens/identity-rank';

// The two decisions of issue 35 that are pure, on hand-made inputs: which holders were funded
// together, and which of the tokens sharing a ticker the others give way to.

describe('clusterHolders', () => {
  const h = (account: string, balance = '10') => ({ account, balance });
  const at = (minutes: number) => Date.UTC(2026, 0, 1) + minutes * 60_000;

  it('chains fundings of one funder within the span; a later burst is another group', () => {
    const fundings = new Map<string, Funding>([
      ['a', { funder: 'F', at: at(0) }],
      ['b', { funder: 'F', at: at(30) }],
      ['c', { funder: 'F', at: at(60) }], // 30 min after b: the chain goes on
      ['d', { funder: 'F', at: at(60 * 5) }], // hours later: on its own
      ['e', { funder: 'F', at: at(60 * 5 + 1) }],
      ['x', { funder: 'G', at: at(1) }],
    ]);
    const groups = clusterHolders(
      [h('a'), h('b'), h('c'), h('d'), h('e'), h('x')],
      fundings,
      new Decimal(100),
    );
    expect(groups.map((g) => [g.accounts.sort(), g.funder, g.sharePercent])).toEqual([
      [['a', 'b', 'c'], 'F', '30'],
      [['d', 'e'], 'F', '20'],
    ]);
    expect(CLUSTER_SPAN_MS).toBe(3600_000);
  });

  it('groups a holder funded by another holder, and ignores the platform’s fundings', () => {
    const fundings = new Map<string, Funding>([
      ['a', { funder: 'P', at: at(0) }],
      ['b', { funder: 'P', at: at(1) }],
      ['c', { funder: 'a', at: at(60 * 24) }], // a funded c a day later: same hands
    ]);
    const groups = clusterHolders([h('a'), h('b'), h('c')], fundings, new Decimal(30), new Set(['P']));
    expect(groups.map((g) => g.accounts.sort())).toEqual([['a', 'c']]);
  });
});

describe('rankGroup and decideIdentities', () => {
  const row = (id: number, over: Partial<RankRow> = {}): RankRow => ({
    id,
    ticker: 'ZETA',
    name: `Zeta ${id}`,
    currency: 'ZETA',
    issuerAddress: `r${id}`,
    verifiedBy: null,
    verifiedDomain: null,
    createdAt: new Date(Date.UTC(2025, 0, id)),
    isActive: true,
    ...over,
  });
  const facts = (holders: number, trustLines = holders, volume = '0') => ({ holders, trustLines, volume });

  it('lets ledger facts outweigh the earlier issuance, and never a proof of control alone', () => {
    // 1 issued first with a wallet proof; 2 later with more holders and lines.
    const order = rankGroup(
      [row(1, { verifiedBy: 'wallet' }), row(2)],
      new Map([
        [1, facts(1)],
        [2, facts(4)],
      ]),
    );
    expect(order.map((r) => r.id)).toEqual([2, 1]);
    // Equal facts: the earlier issuance decides.
    expect(rankGroup([row(2), row(1)], new Map()).map((r) => r.id)).toEqual([1, 2]);
  });

  it('puts an admin’s decision, then a vouching domain, before the facts; a hidden listing last', () => {
    const f = new Map([
      [1, facts(9)],
      [2, facts(1)],
      [3, facts(1)],
    ]);
    expect(rankGroup([row(1), row(2, { verifiedDomain: 'zeta.example' })], f).map((r) => r.id)).toEqual([
      2, 1,
    ]);
    expect(
      rankGroup([row(1), row(2, { verifiedDomain: 'x' }), row(3, { verifiedBy: 'admin' })], f).map(
        (r) => r.id,
      ),
    ).toEqual([3, 2, 1]);
    expect(rankGroup([row(1, { isActive: false, verifiedBy: 'admin' }), row(2)], f).map((r) => r.id)).toEqual(
      [2, 1],
    );
  });

  it('marks every member below one it shares a key with, and reserved identities apart', () => {
    const rows = [
      row(1, { name: 'Zeta Protocol' }),
      row(2, { ticker: 'Z3TA', currency: 'Z3T', name: 'Other' }),
      row(3, { ticker: 'ABC', currency: 'ABC', name: 'Zeta Protocol' }),
      row(4, { ticker: 'RUSD', currency: 'RUSD', name: 'Ripple USD' }),
    ];
    const out = decideIdentities(rows, new Map(), 'rRLUSD');
    expect(out.get(1)).toMatchObject({ lookalikeOf: null, sameAs: null });
    expect(out.get(2)).toMatchObject({ lookalikeOf: 'ZETA', sameAs: { id: 1, match: 'ticker' } });
    expect(out.get(3)).toMatchObject({
      lookalikeOf: 'ZETA',
      sameAs: { id: 1, match: 'name', name: 'Zeta Protocol' },
    });
    expect(out.get(4)).toEqual({ lookalikeOf: 'RLUSD', sameAs: null, mayBeVerified: false });
  });
});

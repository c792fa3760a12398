import { describe, expect, it } from 'vitest';
import { getBalanceChanges, type TransactionMetadata } from 'xrpl';
import { Harness } from './helpers';
import { trustLineKey } from '../../src/core/keylets';

function line(h: Harness, a: string, b: string, cur = 'USD'): Record<string, unknown> | undefined {
  return h.node.current().read(trustLineKey(a, b, cur));
}

function changesOf(
  h: Harness,
  hash: string,
): Record<string, Array<{ currency: string; value: string; issuer?: string }>> {
  const meta = h.node.txByHash(hash)?.meta as unknown as TransactionMetadata;
  return Object.fromEntries(getBalanceChanges(meta).map((c) => [c.account, c.balances]));
}

function setup(opts: { defaultRipple?: boolean; transferRate?: number } = {}) {
  const h = new Harness();
  const issuer = h.wallet();
  const alice = h.wallet();
  const bob = h.wallet();
  if (opts.defaultRipple !== false)
    h.expect(issuer, { TransactionType: 'AccountSet', SetFlag: 8 }, 'tesSUCCESS');
  if (opts.transferRate)
    h.expect(issuer, { TransactionType: 'AccountSet', TransferRate: opts.transferRate }, 'tesSUCCESS');
  for (const w of [alice, bob]) {
    h.expect(
      w,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '1000' },
      },
      'tesSUCCESS',
    );
  }
  return { h, issuer, alice, bob };
}

describe('trust lines and issued-currency payments', () => {
  it('reports only the fee as balance change of a TrustSet', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const alice = h.wallet();
    const r = h.expect(
      alice,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '10' },
      },
      'tesSUCCESS',
    );
    expect(changesOf(h, r.hash)).toEqual({
      [alice.classicAddress]: [{ currency: 'XRP', value: '-0.00001' }],
    });
  });

  it('creates a trust line with reserve on the holder side and the issuer NoRipple default', () => {
    const { h, issuer, alice } = setup({ defaultRipple: false });
    const l = line(h, alice.classicAddress, issuer.classicAddress)!;
    const aliceLow = alice.classicAddress === (l.LowLimit as { issuer: string }).issuer;
    expect(l.Flags).toBe(aliceLow ? 0x00010000 | 0x00200000 : 0x00020000 | 0x00100000);
    expect(Number(h.account(alice.classicAddress)!.OwnerCount)).toBe(1);
    expect(Number(h.account(issuer.classicAddress)!.OwnerCount)).toBe(0);
  });

  it('issues, transfers through the issuer and redeems with exact balance changes', () => {
    const { h, issuer, alice, bob } = setup();
    const USD = (v: string) => ({ currency: 'USD', issuer: issuer.classicAddress, value: v });
    const r1 = h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('100') },
      'tesSUCCESS',
    );
    expect(changesOf(h, r1.hash)[alice.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: issuer.classicAddress,
      value: '100',
    });
    const r2 = h.expect(
      alice,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: USD('30.5') },
      'tesSUCCESS',
    );
    const c2 = changesOf(h, r2.hash);
    expect(c2[alice.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: issuer.classicAddress,
      value: '-30.5',
    });
    expect(c2[bob.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: issuer.classicAddress,
      value: '30.5',
    });
    expect(c2[issuer.classicAddress]).toEqual(
      expect.arrayContaining([
        { currency: 'USD', issuer: alice.classicAddress, value: '30.5' },
        { currency: 'USD', issuer: bob.classicAddress, value: '-30.5' },
      ]),
    );
    const r3 = h.expect(
      bob,
      { TransactionType: 'Payment', Destination: issuer.classicAddress, Amount: USD('0.5') },
      'tesSUCCESS',
    );
    expect(changesOf(h, r3.hash)[bob.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: issuer.classicAddress,
      value: '-0.5',
    });
    const bl = line(h, bob.classicAddress, issuer.classicAddress)!;
    const bobLow = (bl.LowLimit as { issuer: string }).issuer === bob.classicAddress;
    expect((bl.Balance as { value: string }).value).toBe(bobLow ? '30' : '-30');
  });

  it('needs DefaultRipple on the issuer to ripple through it (tecPATH_DRY otherwise)', () => {
    const { h, issuer, alice, bob } = setup({ defaultRipple: false });
    const USD = (v: string) => ({ currency: 'USD', issuer: issuer.classicAddress, value: v });
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('10') },
      'tesSUCCESS',
    );
    h.expect(
      alice,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: USD('1') },
      'tecPATH_DRY',
    );
  });

  it('charges the transfer fee to the sender and needs SendMax for it', () => {
    const { h, issuer, alice, bob } = setup({ transferRate: 1_010_000_000 });
    const USD = (v: string) => ({ currency: 'USD', issuer: issuer.classicAddress, value: v });
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('100') },
      'tesSUCCESS',
    );
    h.expect(
      alice,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: USD('10') },
      'tecPATH_PARTIAL',
    );
    const r = h.expect(
      alice,
      {
        TransactionType: 'Payment',
        Destination: bob.classicAddress,
        Amount: USD('10'),
        SendMax: USD('10.1'),
      },
      'tesSUCCESS',
    );
    const c = changesOf(h, r.hash);
    expect(c[alice.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: issuer.classicAddress,
      value: '-10.1',
    });
    expect(c[bob.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: issuer.classicAddress,
      value: '10',
    });
  });

  it('partial payments deliver what they can, honour DeliverMin and report delivered_amount', () => {
    const { h, issuer, alice, bob } = setup();
    const USD = (v: string) => ({ currency: 'USD', issuer: issuer.classicAddress, value: v });
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('5') },
      'tesSUCCESS',
    );
    h.expect(
      alice,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: USD('8') },
      'tecPATH_PARTIAL',
    );
    h.expect(
      alice,
      {
        TransactionType: 'Payment',
        Destination: bob.classicAddress,
        Amount: USD('8'),
        DeliverMin: USD('6'),
        Flags: 0x00020000,
      },
      'tecPATH_PARTIAL',
    );
    const r = h.expect(
      alice,
      {
        TransactionType: 'Payment',
        Destination: bob.classicAddress,
        Amount: USD('8'),
        DeliverMin: USD('4'),
        Flags: 0x00020000,
      },
      'tesSUCCESS',
    );
    const meta = h.node.txByHash(r.hash)!.meta;
    expect(meta.DeliveredAmount).toEqual(USD('5'));
    expect(meta.delivered_amount).toEqual(USD('5'));
    h.expect(
      alice,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: USD('1'), Flags: 0x00020000 },
      'tecPATH_DRY',
    );
  });

  it('respects the receiver limit and needs a trust line', () => {
    const { h, issuer, alice } = setup();
    const USD = (v: string) => ({ currency: 'USD', issuer: issuer.classicAddress, value: v });
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('1001') },
      'tecPATH_PARTIAL',
    );
    const carol = h.wallet();
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: carol.classicAddress, Amount: USD('1') },
      'tecPATH_DRY',
    );
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe', Amount: USD('1') },
      'tecNO_DST',
    );
  });

  it('frozen lines stop rippling but still allow paying back the issuer', () => {
    const { h, issuer, alice, bob } = setup();
    const USD = (v: string) => ({ currency: 'USD', issuer: issuer.classicAddress, value: v });
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('10') },
      'tesSUCCESS',
    );
    h.expect(
      issuer,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: alice.classicAddress, value: '0' },
        Flags: 0x00100000,
      },
      'tesSUCCESS',
    );
    h.expect(
      alice,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: USD('1') },
      'tecPATH_DRY',
    );
    h.expect(
      alice,
      { TransactionType: 'Payment', Destination: issuer.classicAddress, Amount: USD('1') },
      'tesSUCCESS',
    );
    h.expect(
      issuer,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: alice.classicAddress, value: '0' },
        Flags: 0x00200000,
      },
      'tesSUCCESS',
    );
    h.expect(issuer, { TransactionType: 'AccountSet', SetFlag: 7 }, 'tesSUCCESS');
    h.expect(
      alice,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: USD('1') },
      'tecPATH_DRY',
    );
    h.expect(issuer, { TransactionType: 'AccountSet', ClearFlag: 7 }, 'tesSUCCESS');
    h.expect(
      alice,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: USD('1') },
      'tesSUCCESS',
    );
  });

  it('requires authorization when the issuer sets RequireAuth', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const alice = h.wallet();
    h.expect(issuer, { TransactionType: 'AccountSet', SetFlag: 2 }, 'tesSUCCESS');
    h.expect(
      alice,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '100' },
      },
      'tesSUCCESS',
    );
    const USD = (v: string) => ({ currency: 'USD', issuer: issuer.classicAddress, value: v });
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('1') },
      'tecPATH_DRY',
    );
    h.expect(
      alice,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '100' },
        Flags: 0x00010000,
      },
      'tefNO_AUTH_REQUIRED',
    );
    h.expect(
      issuer,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: alice.classicAddress, value: '0' },
        Flags: 0x00010000,
      },
      'tesSUCCESS',
    );
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('1') },
      'tesSUCCESS',
    );
    // RequireAuth cannot be set once the account owns objects.
    h.expect(alice, { TransactionType: 'AccountSet', SetFlag: 2 }, 'tecOWNERS');
  });

  it('deletes a line returned to its default state and gives the reserve back', () => {
    const { h, issuer, alice } = setup();
    const USD = (v: string) => ({ currency: 'USD', issuer: issuer.classicAddress, value: v });
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('3') },
      'tesSUCCESS',
    );
    // A line is only "default" with NoRipple set on the holder side (holder lacks DefaultRipple).
    h.expect(alice, { TransactionType: 'TrustSet', LimitAmount: USD('0'), Flags: 0x00020000 }, 'tesSUCCESS');
    expect(line(h, alice.classicAddress, issuer.classicAddress)).toBeDefined();
    const r = h.expect(
      alice,
      { TransactionType: 'Payment', Destination: issuer.classicAddress, Amount: USD('3') },
      'tesSUCCESS',
    );
    expect(line(h, alice.classicAddress, issuer.classicAddress)).toBeUndefined();
    expect(Number(h.account(alice.classicAddress)!.OwnerCount)).toBe(0);
    const c = changesOf(h, r.hash);
    expect(c[alice.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: issuer.classicAddress,
      value: '-3',
    });
    h.expect(alice, { TransactionType: 'TrustSet', LimitAmount: USD('0') }, 'tecNO_LINE_REDUNDANT');
  });

  it('ripples through an intermediate account along explicit paths unless it set NoRipple on both lines', () => {
    const h = new Harness();
    const alice = h.wallet();
    const carol = h.wallet();
    const bob = h.wallet();
    h.expect(
      carol,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: alice.classicAddress, value: '100' },
      },
      'tesSUCCESS',
    );
    h.expect(
      bob,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: carol.classicAddress, value: '100' },
      },
      'tesSUCCESS',
    );
    const payment = {
      TransactionType: 'Payment',
      Destination: bob.classicAddress,
      Amount: { currency: 'USD', issuer: bob.classicAddress, value: '10' },
      SendMax: { currency: 'USD', issuer: alice.classicAddress, value: '10' },
      Paths: [[{ account: carol.classicAddress }]],
    };
    const r = h.expect(alice, payment, 'tesSUCCESS');
    const c = changesOf(h, r.hash);
    expect(c[alice.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: carol.classicAddress,
      value: '-10',
    });
    expect(c[bob.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: carol.classicAddress,
      value: '10',
    });
    expect(c[carol.classicAddress]).toEqual(
      expect.arrayContaining([
        { currency: 'USD', issuer: alice.classicAddress, value: '10' },
        { currency: 'USD', issuer: bob.classicAddress, value: '-10' },
      ]),
    );
    // Carol already has NoRipple on the line bob opened to her; adding it on alice's line blocks rippling.
    h.expect(
      carol,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: alice.classicAddress, value: '100' },
        Flags: 0x00020000,
      },
      'tesSUCCESS',
    );
    h.expect(alice, payment, 'tecPATH_DRY');
    // Without paths there is no strand at all between alice and bob.
    h.expect(alice, { ...payment, Paths: undefined }, 'tecPATH_DRY');
  });

  it('applies the receiver QualityIn below 1 on the last step and ignores it above 1', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const alice = h.wallet();
    const bob = h.wallet();
    const USD = (v: string) => ({ currency: 'USD', issuer: issuer.classicAddress, value: v });
    h.expect(
      alice,
      { TransactionType: 'TrustSet', LimitAmount: USD('100'), QualityIn: 500_000_000 },
      'tesSUCCESS',
    );
    h.expect(
      bob,
      { TransactionType: 'TrustSet', LimitAmount: USD('100'), QualityIn: 2_000_000_000 },
      'tesSUCCESS',
    );
    // Valuing incoming IOUs at 50% doubles what must be sent, so the implicit SendMax (= Amount) is short.
    h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: alice.classicAddress, Amount: USD('10') },
      'tecPATH_PARTIAL',
    );
    const r1 = h.expect(
      issuer,
      {
        TransactionType: 'Payment',
        Destination: alice.classicAddress,
        Amount: USD('10'),
        SendMax: USD('20'),
      },
      'tesSUCCESS',
    );
    expect(changesOf(h, r1.hash)[alice.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: issuer.classicAddress,
      value: '20',
    });
    const r2 = h.expect(
      issuer,
      { TransactionType: 'Payment', Destination: bob.classicAddress, Amount: USD('10') },
      'tesSUCCESS',
    );
    expect(changesOf(h, r2.hash)[bob.classicAddress]).toContainEqual({
      currency: 'USD',
      issuer: issuer.classicAddress,
      value: '10',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { Harness, genesis } from './helpers';
import { trustLineKey } from '../../src/core/keylets';

const LSF_REQUIRE_DEST = 0x00020000;
const LSF_DISALLOW_XRP = 0x00080000;
const LSF_NO_FREEZE = 0x00200000;
const LSF_GLOBAL_FREEZE = 0x00400000;
const LSF_DEFAULT_RIPPLE = 0x00800000;
const LSF_CLAWBACK = 0x80000000;

describe('AccountSet', () => {
  it('sets and clears flags via SetFlag/ClearFlag and legacy tf flags', () => {
    const h = new Harness();
    const w = h.wallet();
    const flags = () => Number(h.account(w.classicAddress)!.Flags) >>> 0;
    h.expect(w, { TransactionType: 'AccountSet', SetFlag: 8 }, 'tesSUCCESS');
    expect(flags()).toBe(LSF_DEFAULT_RIPPLE);
    h.expect(w, { TransactionType: 'AccountSet', SetFlag: 1 }, 'tesSUCCESS');
    h.expect(w, { TransactionType: 'AccountSet', Flags: 0x00100000 }, 'tesSUCCESS');
    expect(flags()).toBe(LSF_DEFAULT_RIPPLE | LSF_REQUIRE_DEST | LSF_DISALLOW_XRP);
    h.expect(
      genesis,
      { TransactionType: 'Payment', Destination: w.classicAddress, Amount: '1000000' },
      'tecDST_TAG_NEEDED',
    );
    h.expect(
      genesis,
      { TransactionType: 'Payment', Destination: w.classicAddress, Amount: '1000000', DestinationTag: 7 },
      'tesSUCCESS',
    );
    h.expect(w, { TransactionType: 'AccountSet', ClearFlag: 1, Flags: 0x00200000 }, 'tesSUCCESS');
    h.expect(w, { TransactionType: 'AccountSet', ClearFlag: 8 }, 'tesSUCCESS');
    expect(flags()).toBe(0);
    expect(
      h.node.submit(h.signRaw(w, { TransactionType: 'AccountSet', SetFlag: 8, ClearFlag: 8 })).engine_result,
    ).toBe('temINVALID_FLAG');
  });

  it('validates and stores TransferRate, TickSize, Domain and EmailHash', () => {
    const h = new Harness();
    const w = h.wallet();
    const raw = (tx: Record<string, unknown>) =>
      h.node.submit(h.signRaw(w, { TransactionType: 'AccountSet', ...tx })).engine_result;
    expect(raw({ TransferRate: 999_999_999 })).toBe('temBAD_TRANSFER_RATE');
    expect(raw({ TransferRate: 2_000_000_001 })).toBe('temBAD_TRANSFER_RATE');
    expect(raw({ TickSize: 2 })).toBe('temBAD_TICK_SIZE');
    expect(raw({ Domain: 'AB'.repeat(257) })).toBe('telBAD_DOMAIN');
    const domain = Buffer.from('example.com').toString('hex').toUpperCase();
    h.expect(
      w,
      {
        TransactionType: 'AccountSet',
        TransferRate: 1_005_000_000,
        TickSize: 5,
        Domain: domain,
        EmailHash: 'F'.repeat(32),
      },
      'tesSUCCESS',
    );
    let a = h.account(w.classicAddress)!;
    expect(a.TransferRate).toBe(1_005_000_000);
    expect(a.TickSize).toBe(5);
    expect(a.Domain).toBe(domain);
    expect(a.EmailHash).toBe('F'.repeat(32));
    h.expect(
      w,
      {
        TransactionType: 'AccountSet',
        TransferRate: 1_000_000_000,
        TickSize: 0,
        Domain: '',
        EmailHash: '0'.repeat(32),
      },
      'tesSUCCESS',
    );
    a = h.account(w.classicAddress)!;
    expect(a.TransferRate).toBeUndefined();
    expect(a.TickSize).toBeUndefined();
    expect(a.Domain).toBeUndefined();
    expect(a.EmailHash).toBeUndefined();
  });

  it('NoFreeze forbids freezing and keeps GlobalFreeze on; clawback needs an empty owner directory', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const holder = h.wallet();
    h.expect(
      holder,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'EUR', issuer: issuer.classicAddress, value: '10' },
      },
      'tesSUCCESS',
    );
    h.expect(holder, { TransactionType: 'AccountSet', SetFlag: 16 }, 'tecOWNERS');
    h.expect(issuer, { TransactionType: 'AccountSet', SetFlag: 7 }, 'tesSUCCESS');
    h.expect(issuer, { TransactionType: 'AccountSet', SetFlag: 6 }, 'tesSUCCESS');
    expect(
      (Number(h.account(issuer.classicAddress)!.Flags) & (LSF_NO_FREEZE | LSF_GLOBAL_FREEZE)) >>> 0,
    ).toBe(LSF_NO_FREEZE | LSF_GLOBAL_FREEZE);
    h.expect(issuer, { TransactionType: 'AccountSet', ClearFlag: 7 }, 'tesSUCCESS');
    expect(Number(h.account(issuer.classicAddress)!.Flags) & LSF_GLOBAL_FREEZE).toBe(LSF_GLOBAL_FREEZE);
    h.expect(
      issuer,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'EUR', issuer: holder.classicAddress, value: '0' },
        Flags: 0x00100000,
      },
      'tecNO_PERMISSION',
    );
    h.expect(issuer, { TransactionType: 'AccountSet', SetFlag: 16 }, 'tecNO_PERMISSION');
  });
});

describe('TrustSet freezes', () => {
  it('sets a deep freeze only together with or on top of a freeze', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const holder = h.wallet();
    h.expect(
      holder,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '10' },
      },
      'tesSUCCESS',
    );
    const freeze = (flags: number, result: string) =>
      expect(
        h.node.submit(
          h.signRaw(issuer, {
            TransactionType: 'TrustSet',
            LimitAmount: { currency: 'USD', issuer: holder.classicAddress, value: '0' },
            Flags: flags,
          }),
        ).engine_result,
      ).toBe(result);
    freeze(0x00400000, 'tecNO_PERMISSION');
    freeze(0x00100000 | 0x00200000, 'temINVALID_FLAG');
    freeze(0x00100000 | 0x00400000, 'tesSUCCESS');
    const l = h.node.current().read(trustLineKey(holder.classicAddress, issuer.classicAddress, 'USD'))!;
    const issuerHigh = (l.HighLimit as { issuer: string }).issuer === issuer.classicAddress;
    const both = issuerHigh ? 0x00800000 | 0x04000000 : 0x00400000 | 0x02000000;
    expect(Number(l.Flags) & both).toBe(both);
    freeze(0x00200000, 'tecNO_PERMISSION');
    freeze(0x00200000 | 0x00800000, 'tesSUCCESS');
  });
});

describe('TrustSet reserves', () => {
  it('makes the third owned object need the owner reserve', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const poor = h.wallet(1_500_000n);
    const limit = (cur: string) => ({
      TransactionType: 'TrustSet',
      LimitAmount: { currency: cur, issuer: issuer.classicAddress, value: '1' },
    });
    h.expect(poor, limit('AAA'), 'tesSUCCESS');
    h.expect(poor, limit('BBB'), 'tesSUCCESS');
    h.expect(poor, limit('CCC'), 'tecNO_LINE_INSUF_RESERVE');
    expect(h.account(poor.classicAddress)!.OwnerCount).toBe(2);
    // A line the issuer created towards us costs us a reserve only once we set our side.
    h.expect(
      issuer,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'DDD', issuer: poor.classicAddress, value: '5' },
      },
      'tesSUCCESS',
    );
    h.expect(poor, limit('DDD'), 'tecINSUF_RESERVE_LINE');
    h.expect(
      poor,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'EUR', issuer: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe', value: '1' },
      },
      'tecNO_DST',
    );
    expect(
      h.node.submit(
        h.signRaw(poor, {
          TransactionType: 'TrustSet',
          LimitAmount: { currency: 'EUR', issuer: poor.classicAddress, value: '1' },
        }),
      ).engine_result,
    ).toBe('temDST_IS_SRC');
    expect(
      h.node.submit(
        h.signRaw(poor, {
          TransactionType: 'TrustSet',
          LimitAmount: { currency: 'EUR', issuer: issuer.classicAddress, value: '-1' },
        }),
      ).engine_result,
    ).toBe('temBAD_LIMIT');
  });

  it('sets qualities, NoRipple and auth flags and records per-side reserve flags', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const holder = h.wallet();
    const USD = { currency: 'USD', issuer: issuer.classicAddress, value: '100' };
    h.expect(
      holder,
      {
        TransactionType: 'TrustSet',
        LimitAmount: USD,
        QualityIn: 1_100_000_000,
        QualityOut: 900_000_000,
        Flags: 0x00020000,
      },
      'tesSUCCESS',
    );
    const key = trustLineKey(holder.classicAddress, issuer.classicAddress, 'USD');
    const l = h.node.current().read(key)!;
    const holderLow = (l.LowLimit as { issuer: string }).issuer === holder.classicAddress;
    const p = holderLow ? 'Low' : 'High';
    expect(l[`${p}QualityIn`]).toBe(1_100_000_000);
    expect(l[`${p}QualityOut`]).toBe(900_000_000);
    const reserve = holderLow ? 0x00010000 : 0x00020000;
    const noRipple = holderLow ? 0x00100000 : 0x00200000;
    const issuerNoRipple = holderLow ? 0x00200000 : 0x00100000;
    expect(l.Flags).toBe(reserve | noRipple | issuerNoRipple);
    h.expect(
      holder,
      {
        TransactionType: 'TrustSet',
        LimitAmount: USD,
        QualityIn: 0,
        QualityOut: 1_000_000_000,
        Flags: 0x00040000,
      },
      'tesSUCCESS',
    );
    const l2 = h.node.current().read(key)!;
    expect(l2[`${p}QualityIn`]).toBeUndefined();
    expect(l2[`${p}QualityOut`]).toBeUndefined();
    expect(l2.Flags).toBe(reserve | issuerNoRipple);
  });
});

describe('Clawback', () => {
  it('claws back issued currency from a holder', () => {
    const h = new Harness();
    const issuer = h.wallet();
    const holder = h.wallet();
    h.expect(issuer, { TransactionType: 'AccountSet', SetFlag: 16 }, 'tesSUCCESS');
    expect(Number(h.account(issuer.classicAddress)!.Flags) >>> 0).toBe(LSF_CLAWBACK);
    const claw = (value: string) => ({
      TransactionType: 'Clawback',
      Amount: { currency: 'USD', issuer: holder.classicAddress, value },
    });
    h.expect(issuer, claw('1'), 'tecNO_LINE');
    h.expect(
      holder,
      {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: 'USD', issuer: issuer.classicAddress, value: '100' },
      },
      'tesSUCCESS',
    );
    h.expect(issuer, claw('1'), 'tecINSUFFICIENT_FUNDS');
    h.expect(
      issuer,
      {
        TransactionType: 'Payment',
        Destination: holder.classicAddress,
        Amount: { currency: 'USD', issuer: issuer.classicAddress, value: '50' },
      },
      'tesSUCCESS',
    );
    h.expect(issuer, claw('20'), 'tesSUCCESS');
    const l = h.node.current().read(trustLineKey(holder.classicAddress, issuer.classicAddress, 'USD'))!;
    const holderLow = (l.LowLimit as { issuer: string }).issuer === holder.classicAddress;
    expect((l.Balance as { value: string }).value).toBe(holderLow ? '30' : '-30');
    h.expect(issuer, claw('1000'), 'tesSUCCESS');
    expect((h.node.current().read(l.index)!.Balance as { value: string }).value).toBe('0');
    h.expect(
      holder,
      { TransactionType: 'Clawback', Amount: { currency: 'USD', issuer: issuer.classicAddress, value: '1' } },
      'tecNO_PERMISSION',
    );
    expect(h.node.submit(h.signRaw(holder, claw('1'))).engine_result).toBe('temBAD_AMOUNT');
    expect(
      h.node.submit(h.signRaw(issuer, { TransactionType: 'Clawback', Amount: '10' })).engine_result,
    ).toBe('temBAD_AMOUNT');
  });
});

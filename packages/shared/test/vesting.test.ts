import { describe, expect, it } from 'vitest';
import {
  addUtcMonths,
  Decimal,
  deployCost,
  deployRequestSchema,
  rippleTime,
  VESTING_MESSAGES,
  vestingSchema,
  vestingTrancheCount,
  vestingTranches,
  type FeesConfig,
} from '../src';

// Figures worked out by hand:
// 2026-01-01T00:00:00Z = 56 years after 1970 with 14 leap days (1972..2024):
//   (56 × 365 + 14) × 86400 = 20454 × 86400 = 1767225600 s Unix.
// 2026-01-30T12:00:00Z = 1767225600 + 29 × 86400 + 43200 = 1769774400 s Unix
//   = 1769774400 − 946684800 = 823089600 s Ripple.
const START = 823_089_600;
const ripple = (iso: string) => rippleTime.fromUnixMs(Date.parse(iso));

describe('ripple time', () => {
  it('converts with the Ripple epoch (2000-01-01) in both directions', () => {
    expect(ripple('2026-01-30T12:00:00Z')).toBe(START);
    expect(rippleTime.toIso(START)).toBe('2026-01-30T12:00:00.000Z');
    expect(rippleTime.fromUnixMs(946_684_800_999)).toBe(0);
    expect(rippleTime.toUnixMs(1)).toBe(946_684_801_000);
  });

  it('adds calendar months, clamped to the month end', () => {
    expect(new Date(addUtcMonths(Date.parse('2026-01-31T12:00:00Z'), 1)).toISOString()).toBe(
      '2026-02-28T12:00:00.000Z',
    );
    expect(new Date(addUtcMonths(Date.parse('2028-01-31T12:00:00Z'), 1)).toISOString()).toBe(
      '2028-02-29T12:00:00.000Z',
    );
    expect(new Date(addUtcMonths(Date.parse('2026-11-30T08:15:30Z'), 3)).toISOString()).toBe(
      '2027-02-28T08:15:30.000Z',
    );
  });
});

describe('vesting schedule', () => {
  it('defaults: 25% after 24 h, the rest monthly over 6 months', () => {
    const v = vestingSchema.parse({});
    expect(v).toEqual({ enabled: true, cliffPercent: '25', cliffHours: '24', months: 6 });
    // 10% of 1,000,000 = 100,000: 25% = 25,000 at the cliff, 75,000 / 6 = 12,500 a month.
    // Cliff: 2026-01-30T12:00Z + 24 h = 2026-01-31T12:00Z; months after it clamp to each month end.
    expect(vestingTranches('100000', v, START)).toEqual([
      { index: 1, amount: '25000', unlockAt: START + 86_400 },
      { index: 2, amount: '12500', unlockAt: ripple('2026-02-28T12:00:00Z') },
      { index: 3, amount: '12500', unlockAt: ripple('2026-03-31T12:00:00Z') },
      { index: 4, amount: '12500', unlockAt: ripple('2026-04-30T12:00:00Z') },
      { index: 5, amount: '12500', unlockAt: ripple('2026-05-31T12:00:00Z') },
      { index: 6, amount: '12500', unlockAt: ripple('2026-06-30T12:00:00Z') },
      { index: 7, amount: '12500', unlockAt: ripple('2026-07-31T12:00:00Z') },
    ]);
    // 2026-02-28T12:00Z = START + 29 days (Jan 30 → Feb 28).
    expect(ripple('2026-02-28T12:00:00Z')).toBe(START + 29 * 86_400);
  });

  it('rounds down to 15 significant digits and the last tranche takes the remainder', () => {
    const v = vestingSchema.parse({ cliffPercent: '10', cliffHours: '0.01', months: 7 });
    // 1000: cliff 100 after 0.01 h = 36 s; rest 900 / 7 = 128.571428571428571… → 11 places (15 − 4
    // integer digits of 1000): 128.57142857142; six of them 771.42857142852; last 900 − that.
    const t = vestingTranches('1000', v, START);
    expect(t.map((x) => x.amount)).toEqual([
      '100',
      '128.57142857142',
      '128.57142857142',
      '128.57142857142',
      '128.57142857142',
      '128.57142857142',
      '128.57142857142',
      '128.57142857148',
    ]);
    expect(t[0]!.unlockAt).toBe(START + 36);
    expect(t.reduce((s, x) => s.plus(x.amount), new Decimal(0)).toFixed()).toBe('1000');
  });

  it('a 0% cliff has only monthly tranches; a 100% cliff only the cliff', () => {
    const none = vestingTranches('600', vestingSchema.parse({ cliffPercent: '0', months: 3 }), START);
    expect(none.map((x) => [x.index, x.amount])).toEqual([
      [1, '200'],
      [2, '200'],
      [3, '200'],
    ]);
    // Months count from the cliff (24 h after start): Jan 31 → Feb 28, Mar 31, Apr 30.
    expect(none[0]!.unlockAt).toBe(ripple('2026-02-28T12:00:00Z'));
    const all = vestingTranches('600', vestingSchema.parse({ cliffPercent: '100' }), START);
    expect(all).toEqual([{ index: 1, amount: '600', unlockAt: START + 86_400 }]);
    expect(vestingTrancheCount({ cliffPercent: '0', months: 3 })).toBe(3);
    expect(vestingTrancheCount({ cliffPercent: '100', months: 3 })).toBe(1);
    expect(vestingTrancheCount({ cliffPercent: '25', months: 12 })).toBe(13);
  });

  it('refuses out-of-range settings with a sentence', () => {
    const msg = (v: object) => vestingSchema.safeParse(v).error?.issues[0]?.message;
    expect(msg({ cliffPercent: '101' })).toBe(VESTING_MESSAGES.cliffPercent);
    expect(msg({ cliffPercent: '2.555' })).toBe(VESTING_MESSAGES.cliffPercent);
    expect(msg({ cliffHours: '0' })).toBe(VESTING_MESSAGES.cliffHours);
    expect(msg({ cliffHours: '8761' })).toBe(VESTING_MESSAGES.cliffHours);
    expect(msg({ months: 0 })).toBe(VESTING_MESSAGES.months);
    expect(msg({ months: 13 })).toBe(VESTING_MESSAGES.months);
    expect(msg({ months: 2.5 })).toBe(VESTING_MESSAGES.months);
  });

  it('the deploy cost counts one owner reserve per escrow', () => {
    const fees = {
      service_fee: '15',
      issuer_reserve: '1.1',
      hot_wallet_reserve: '2',
      owner_reserve: '0.2',
      network_fee_allowance: '0.001',
    } as FeesConfig;
    const form = { liquidityPairType: 'XRP' as const, liquidityAmount: '50', devAllocation: '10' };
    // 50 + 15 + 1.1 + 2 + 0.2 (trust line) + 0.001 = 68.301; 7 escrows add 7 × 0.2 = 1.4.
    expect(deployCost(form, fees, 2).xrp).toBe('68.301');
    const vesting = vestingSchema.parse({});
    expect(deployCost({ ...form, vesting }, fees, 2).xrp).toBe('69.701');
    expect(deployCost({ ...form, vesting: { ...vesting, enabled: false } }, fees, 2).xrp).toBe('68.301');
  });

  it('the deploy request carries the lock settings', () => {
    const r = deployRequestSchema.parse({
      name: 'Moon Coin',
      ticker: 'MOON',
      description: 'x',
      supply: '1000',
      devAllocation: '5',
      liquidityAmount: '100',
      ammFee: '0.5',
      logoUrl: '/cdn/logos/x.webp',
      walletId: 3,
      vesting: { cliffHours: '48' },
    });
    expect(r.vesting).toEqual({ enabled: true, cliffPercent: '25', cliffHours: '48', months: 6 });
  });
});

import { describe, expect, it } from 'vitest';
import {
  allInAmount,
  allInDrops,
  amountValue,
  availableXrp,
  Decimal,
  decimalToDrops,
  dropsToXrp,
  groupDigits,
  insufficientTokenMessage,
  insufficientXrpMessage,
  maxSpendWithFee,
  normalizeTokenValue,
  parseXrpDrops,
  platformFee,
  platformFeeDrops,
  spendableXrp,
  toLedgerValue,
  truncateDecimals,
  xrpNeeded,
  xrpToDrops,
  type LedgerReserves,
} from '../src/index';

// The money layer on figures worked by hand (the arithmetic is in the comments).

const RESERVES: LedgerReserves = { reserveBase: 1_000_000n, reserveIncrement: 200_000n, baseFee: 10n };

describe('the configured Decimal', () => {
  it('adds 1e80 and 1e-15 exactly (96 significant digits)', () => {
    const sum = new Decimal('1e80').plus('1e-15');
    expect(sum.toFixed()).toBe(`1${'0'.repeat(80)}.${'0'.repeat(14)}1`);
    expect(sum.minus('1e80').toFixed()).toBe('0.000000000000001');
  });
  it('writes plain notation at any magnitude', () => {
    expect(new Decimal('1e-7').toString()).toBe('0.0000001');
    expect(new Decimal('9999999999999999e80').toString()).toBe(`9999999999999999${'0'.repeat(80)}`);
  });
  it('keeps 16-digit mantissas exact through products', () => {
    // (1234567890123456 × 10^-30) × (6543210987654321 × 10^55): the 31-digit integer product × 10^25.
    const p = new Decimal('1.234567890123456e-15').mul('6.543210987654321e70');
    expect(p.toFixed()).toBe(`${1234567890123456n * 6543210987654321n}${'0'.repeat(25)}`);
  });
});

describe('drops and XRP', () => {
  it('converts exactly both ways', () => {
    expect(xrpToDrops('12.5')).toBe(12_500_000n);
    expect(xrpToDrops('0.000001')).toBe(1n);
    expect(dropsToXrp(12_500_000n)).toBe('12.5');
    expect(dropsToXrp('-1')).toBe('-0.000001');
    expect(dropsToXrp(100_000_000_000_000_000n)).toBe('100000000000');
  });
  it('refuses what is not XRP text', () => {
    for (const bad of ['1.0000001', '-1', '1e3', '0x10', '', ' ', 'NaN', '1,5']) {
      expect(() => xrpToDrops(bad), bad).toThrow(RangeError);
      expect(parseXrpDrops(bad), bad).toBeUndefined();
    }
  });
  it('rounds computed XRP to drops the way it is told', () => {
    expect(decimalToDrops('1.0000019')).toBe(1_000_001n);
    expect(decimalToDrops('1.0000011', 'up')).toBe(1_000_002n);
  });
  it('reads ledger amounts', () => {
    expect(amountValue('1500000').toFixed()).toBe('1.5');
    expect(amountValue({ currency: 'USD', issuer: 'r', value: '1e-15' }).toFixed()).toBe('0.000000000000001');
  });
});

describe('texts', () => {
  it('groups digits without touching the decimals', () => {
    expect(groupDigits('1234567.000001')).toBe('1,234,567.000001');
    expect(groupDigits('-1000')).toBe('-1,000');
    expect(groupDigits(new Decimal('1e21'))).toBe('1,000,000,000,000,000,000,000');
  });
  it('rounds down to what the ledger carries', () => {
    expect(toLedgerValue('1.23456789012345678')).toBe('1.23456789012345');
    expect(truncateDecimals('2.9999999')).toBe('2.999999');
    expect(normalizeTokenValue('0010.50')).toBe('10.5');
    expect(() => normalizeTokenValue('12345678901234567')).toThrow(RangeError);
  });
});

describe('what a wallet can spend', () => {
  it('counts reserve, new objects and network fees', () => {
    // 100 XRP, 2 objects: reserve 1 + 2 × 0.2 = 1.4; available 98.6.
    expect(availableXrp(100_000_000n, 2, RESERVES)).toBe(98_600_000n);
    // A buy that opens a trust line and signs three transactions: 98.6 − 0.2 − 30 drops.
    expect(spendableXrp(100_000_000n, 2, RESERVES, { newObjects: 1, transactions: 3 })).toBe(98_399_970n);
    // Minus 1 XRP already committed by a transaction in flight.
    expect(spendableXrp(100_000_000n, 2, RESERVES, {}, 1_000_000n)).toBe(97_600_000n);
    expect(spendableXrp(500_000n, 0, RESERVES)).toBe(0n);
  });
  it('adds everything an action needs', () => {
    // 10 XRP + 0.075 fee + 3 × 10 drops + 0.2 reserve = 10.27503 XRP.
    expect(
      xrpNeeded({ amount: 10_000_000n, platformFee: 75_000n, transactions: 3, newObjects: 1 }, RESERVES),
    ).toBe(10_275_030n);
  });
  it('charges the platform fee rounded down to a drop', () => {
    // 0.75% of 1.000001 XRP = 7500.0075 drops → 7500.
    expect(platformFeeDrops(1_000_001n, '0.75')).toBe(7_500n);
    expect(platformFeeDrops(99_000_000n, '0.75')).toBe(742_500n);
    expect(platformFeeDrops(99_000_000n, '0')).toBe(0n);
  });
  it('is one fee rule for XRP and tokens: the notional × percent, rounded down to what the ledger pays', () => {
    // XRP: 0.75% of 1.000001 = 0.0075000075 → 0.0075 (7500 drops, the drop's fraction dropped).
    expect(platformFee('1.000001', '0.75', 'xrp').toFixed()).toBe('0.0075');
    // A token: 0.75% of 1234.56789012345678 = 9.25925917592592585 → 15 significant digits, down.
    expect(platformFee('1234.56789012345678', '0.75', 'iou').toFixed()).toBe('9.25925917592592');
    expect(platformFee('10', '0', 'iou').toFixed()).toBe('0');
    // platformFeeDrops is the same rule on drops, for every amount and rate tried.
    for (const drops of [1n, 133n, 1_000_001n, 99_000_000n, 123_456_789_012n])
      for (const rate of ['0', '0.1', '0.75', '1.5', '2.25'])
        expect(decimalToDrops(platformFee(dropsToXrp(drops), rate, 'xrp'))).toBe(
          platformFeeDrops(drops, rate),
        );
  });
  it('finds the largest amount whose fee still fits', () => {
    // s = 100 XRP: 100 / 1.0075 = 99.2555831 XRP, but the fee is floored: a = 99.255584 pays
    // floor(744416.88) = 744416 drops, together exactly 100 XRP; one drop more would be 100.000001.
    const a = maxSpendWithFee(100_000_000n, '0.75');
    expect(a).toBe(99_255_584n);
    expect(a + platformFeeDrops(a, '0.75')).toBeLessThanOrEqual(100_000_000n);
    expect(a + 1n + platformFeeDrops(a + 1n, '0.75')).toBeGreaterThan(100_000_000n);
  });
  it('ALL IN is 99.2% of the spendable amount, never more than leaves room for the fee', () => {
    // A 100-XRP wallet without the token's line: 100 − 1 reserve − 0.2 new line − 30 drops = 98.79997.
    const spendable = spendableXrp(100_000_000n, 0, RESERVES, { newObjects: 1, transactions: 3 });
    expect(spendable).toBe(98_799_970n);
    // 99.2% of it: 98.79997 − 0.79039976 = 98.00957024 → 98.009570 XRP; its fee 0.735071 (floor of
    // 0.73507177); together 98.744641 ≤ 98.79997.
    expect(allInDrops(spendable, '0.75')).toBe(98_009_570n);
    // A 1% fee (an admin override) is more than 0.8%: the cap applies. 98.79997 / 1.01 = 97.8217524;
    // 97.821753 pays floor(978217.53) = 978217 drops: together 98.79997 exactly.
    expect(allInDrops(spendable, '1')).toBe(maxSpendWithFee(spendable, '1'));
    expect(allInDrops(spendable, '1')).toBe(97_821_753n);
  });
  it('ALL IN of an RLUSD-quoted buy: 99.2% of the balance, capped by the fee the same way', () => {
    // 100 RLUSD at 0.75%: 99.2 (100 / 1.0075 = 99.2555… is more); its fee 0.744 → 99.944 ≤ 100.
    expect(allInAmount('100', '0.75').toFixed()).toBe('99.2');
    expect(
      allInAmount('100', '0.75')
        .plus(platformFee('99.2', '0.75', 'iou'))
        .lte(100),
    ).toBe(true);
    // At 1%: 100 / 1.01 = 99.00990099…, less than 99.2; truncated to 6 places, 99.009900 + its fee
    // 0.990099 = 99.999999 ≤ 100.
    const a = truncateDecimals(allInAmount('100', '1'), 6);
    expect(a).toBe('99.0099');
    expect(new Decimal(a).plus(platformFee(a, '1', 'iou')).lte(100)).toBe(true);
    expect(allInAmount('0', '1').toFixed()).toBe('0');
  });
});

describe('the insufficient-balance sentence', () => {
  it('names both figures', () => {
    expect(insufficientXrpMessage(98_600_000n, 100_275_030n)).toBe(
      'Insufficient balance: you have 98.6 XRP available, this needs 100.27503 XRP.',
    );
    expect(insufficientXrpMessage(-5n, 10n)).toBe(
      'Insufficient balance: you have 0 XRP available, this needs 0.00001 XRP.',
    );
    expect(insufficientTokenMessage('12.5', '20', 'RLUSD')).toBe(
      'Insufficient balance: you have 12.5 RLUSD available, this needs 20 RLUSD.',
    );
  });
});

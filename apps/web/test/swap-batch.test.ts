import { describe, expect, it } from 'vitest';
import { SWAP_MESSAGES } from '@ledgerpad/shared';
import { batchSummary, fromMicro, randomAmounts, randomRange, toMicro } from '../src/features/swap/batch';

describe('multi-wallet batches', () => {
  it('counts amounts in whole millionths', () => {
    expect(toMicro('1.5')).toBe(1_500_000n);
    expect(toMicro('0.000001')).toBe(1n);
    expect(toMicro('1.0000001')).toBeNull();
    expect(toMicro('abc')).toBeNull();
    expect(fromMicro(1_500_000n)).toBe('1.5');
    expect(fromMicro(2_000_000n)).toBe('2');
    expect(fromMicro(1n)).toBe('0.000001');
  });

  it('refuses a range unless both are positive and min < max', () => {
    for (const [min, max] of [
      ['', '5'],
      ['0', '5'],
      ['5', '5'],
      ['6', '5'],
      ['1', 'x'],
    ])
      expect(randomRange(min!, max!)).toBe(SWAP_MESSAGES.randomRange);
    expect(randomRange('1', '2.5')).toEqual({ min: 1_000_000n, max: 2_500_000n });
  });

  it('draws each amount inside [min, max] with at most 6 decimals, the ends included', () => {
    const r = { min: 1_000_000n, max: 2_000_000n };
    // random() at its extremes gives the ends; 0.5 the middle (1 + 0.5 × 1.000001, floored).
    expect(randomAmounts(r, 1, () => 0)).toEqual(['1']);
    expect(randomAmounts(r, 1, () => 0.9999999999)).toEqual(['2']);
    expect(randomAmounts(r, 1, () => 0.5)).toEqual(['1.5']);
    const many = randomAmounts(r, 200);
    expect(many).toHaveLength(200);
    for (const a of many) {
      const m = toMicro(a)!;
      expect(m >= r.min && m <= r.max).toBe(true);
    }
  });

  it('summarises a batch with the spec’s lines, never sending people to logs (each wallet is listed below)', () => {
    expect(batchSummary('market', 2, 0)).toBe('✅ 2 swap(s) successful!');
    expect(batchSummary('market', 1, 1)).toBe('✅ 1 swap(s) successful! ⚠️ 1 swap(s) failed:');
    expect(batchSummary('limit', 3, 0)).toBe('📌 3 limit order(s) placed.');
    expect(batchSummary('limit', 1, 2)).toBe('📌 1 limit order(s) placed. ⚠️ 2 limit order(s) failed:');
    expect(batchSummary('market', 0, 2)).toBe('⚠️ 2 swap(s) failed:');
  });
});

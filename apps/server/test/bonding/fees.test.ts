import { describe, expect, it } from 'vitest';
import { feeInside } from '../../src/modules/bonding/indexer';

// The fee inside a crossing of a curve offer: a chunk of value V is offered for V + ⌊V·f⌋ (sell) or
// bid V − ⌊V·f⌋ (buy).
const fee = (v: bigint, ppm: bigint) => (v * ppm) / 1_000_000n;

describe('the fee inside a curve offer', () => {
  it('gives back the exact fee of a whole sell chunk, at any value and rate', () => {
    for (const ppm of [7_500n, 10_000n, 1n, 0n, 100_000n])
      for (const v of [1n, 2n, 133n, 111_283n, 112_111n, 85_005_360n, 999_999_999_999n])
        expect(feeInside('sell', v + fee(v, ppm), ppm)).toBe(fee(v, ppm));
  });

  it('gives back a whole buy chunk’s fee, or one more where two values share the bid', () => {
    for (const ppm of [7_500n, 10_000n, 100_000n]) {
      for (const v of [133n, 111_283n, 112_111n, 85_005_359n, 85_005_360n, 999_999_999_999n]) {
        const q = v - fee(v, ppm);
        const shared = v + 1n - fee(v + 1n, ppm) === q; // the floor steps between v and v + 1
        expect(feeInside('buy', q, ppm)).toBe(shared ? fee(v, ppm) + 1n : fee(v, ppm));
      }
    }
    // 85,005,359 and 85,005,360 both bid 76,504,824 at 10%: the larger value is taken.
    expect(feeInside('buy', 76_504_824n, 100_000n)).toBe(8_500_536n);
  });

  it('takes a part of a chunk at its share', () => {
    // 56,476 drops of a 0.75% ask: V = 56,056 is the largest with V + ⌊V·0.0075⌋ = 56,056 + 420 ≤ 56,476.
    expect(feeInside('sell', 56_476n, 7_500n)).toBe(420n);
  });
});

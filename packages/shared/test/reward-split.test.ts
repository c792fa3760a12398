import { describe, expect, it } from 'vitest';
import { BPS_TOTAL, bpsToPercent, percentToBps } from '../src/basis-points';
import {
  REWARD_SPLIT_MESSAGES,
  claimRewardsSchema,
  rewardSplitUpdateSchema,
  splitAmounts,
} from '../src/schemas/rewards';
import { parseReferralCode } from '../src/referral-code';
import { referralClaimSchema } from '../src/schemas/referrals';

// The split rules the dashboard's editor and the route share, and the division of a claim among the
// recipients: floor of each share in micro-units, the remainder to the first recipient.

const A = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const B = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const C = 'rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv';

const messages = (input: unknown) => {
  const r = rewardSplitUpdateSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('reward split schema', () => {
  it('takes up to 5 distinct addresses whose shares add up to exactly 10,000 basis points', () => {
    expect(messages({ recipients: [{ address: A, bps: 10_000 }] })).toEqual([]);
    expect(messages({ recipients: [] })).toEqual([]);
    expect(
      messages({
        recipients: [
          { address: A, bps: 3334 },
          { address: B, bps: 3333 },
          { address: C, bps: 3333 },
        ],
      }),
    ).toEqual([]);
    expect(messages({ recipients: [{ address: A, bps: 9999 }] })).toEqual([REWARD_SPLIT_MESSAGES.sum]);
    expect(
      messages({
        recipients: [
          { address: A, bps: 5000 },
          { address: A, bps: 5000 },
        ],
      }),
    ).toEqual([REWARD_SPLIT_MESSAGES.duplicate]);
    const six = Array.from({ length: 6 }, () => ({ address: A, bps: 1 }));
    expect(messages({ recipients: six })).toContain(REWARD_SPLIT_MESSAGES.tooMany);
    for (const bps of [0, -1, 10_001, 1.5, '5000'])
      expect(messages({ recipients: [{ address: A, bps }] }), String(bps)).toContain(
        REWARD_SPLIT_MESSAGES.share,
      );
    expect(messages({ recipients: [{ address: 'not-an-address', bps: 10_000 }] })).toHaveLength(1);
  });

  it('turns the editor’s percents into basis points and back, 2 decimals at most', () => {
    expect(percentToBps('33.33')).toBe(3333);
    expect(percentToBps('100')).toBe(BPS_TOTAL);
    expect(percentToBps('0.01')).toBe(1);
    expect(percentToBps(' 50 ')).toBe(5000);
    for (const bad of ['0', '0.001', '100.01', '-5', '1e2', '', 'abc', '33.333'])
      expect(percentToBps(bad), bad).toBeNull();
    expect(bpsToPercent(3333)).toBe('33.33');
    expect(bpsToPercent(5000)).toBe('50');
    expect(bpsToPercent(1)).toBe('0.01');
  });

  it('lets a split claim leave out the wallet, and still refuses an empty one', () => {
    const claim = { token: 'RWD', issuer: B, percent: 100 };
    expect(claimRewardsSchema.safeParse(claim).success).toBe(true);
    const empty = claimRewardsSchema.safeParse({ ...claim, wallet: '' });
    expect(empty.success).toBe(false);
  });
});

describe('splitAmounts', () => {
  it('gives each recipient the floor of its share in micro-units and the first what is left', () => {
    // 7 drops over 33.33 / 33.33 / 33.34 %: floors 2, 2, 2 (= 6); the 1 left goes to the first.
    expect(splitAmounts('0.000007', [{ bps: 3333 }, { bps: 3333 }, { bps: 3334 }])).toEqual([
      '0.000003',
      '0.000002',
      '0.000002',
    ]);
    // 0.050833 over 50 / 33.33 / 16.67 %: 25,416 + 16,942 + 8,473 = 50,831 micro-units; 2 left.
    expect(splitAmounts('0.050833', [{ bps: 5000 }, { bps: 3333 }, { bps: 1667 }])).toEqual([
      '0.025418',
      '0.016942',
      '0.008473',
    ]);
    expect(splitAmounts('12.5', [{ bps: 10_000 }])).toEqual(['12.500000']);
    // A share that rounds to nothing is zero (the claim makes no payment of it).
    expect(splitAmounts('0.000001', [{ bps: 9999 }, { bps: 1 }])).toEqual(['0.000001', '0.000000']);
    expect(splitAmounts('1', [])).toEqual([]);
  });

  it('always adds up to the amount, exactly', () => {
    // Deterministic pseudo-random cases (a linear congruential sequence), no floats in the check.
    let x = 12345;
    const next = (n: number) => (x = (x * 1103515245 + 12345) % 2147483648) % n;
    for (let i = 0; i < 500; i++) {
      const micros = BigInt(next(1_000_000_000)) * 1000n + BigInt(next(1000));
      const amount = `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0')}`;
      const n = 1 + next(5);
      const bps = Array.from({ length: n }, () => 1);
      let left = BPS_TOTAL - n;
      for (let k = 0; k < n - 1; k++) {
        const give = next(left + 1);
        bps[k]! += give;
        left -= give;
      }
      bps[n - 1]! += left;
      const parts = splitAmounts(
        amount,
        bps.map((b) => ({ bps: b })),
      ).map((p) => BigInt(p.replace('.', '')));
      expect(
        parts.reduce((a, b) => a + b, 0n),
        amount,
      ).toBe(micros);
      // No part is below its floor, and only the first is above it (by fewer micro-units than parts).
      parts.forEach((p, k) => {
        const floor = (micros * BigInt(bps[k]!)) / 10_000n;
        if (k === 0) expect(p - floor < BigInt(n)).toBe(true);
        else expect(p).toBe(floor);
      });
    }
  });
});

describe('referral codes', () => {
  it('accepts 8 characters of the code alphabet in any case, and nothing else', () => {
    expect(parseReferralCode('abcd2345')).toBe('abcd2345');
    expect(parseReferralCode(' ABCD2345 ')).toBe('abcd2345');
    for (const bad of ['abcd234', 'abcd23456', 'abcd0345', 'abcdl345', "x'; --", undefined, 42, ['abcd2345']])
      expect(parseReferralCode(bad), String(bad)).toBeUndefined();
  });

  it('claims in XRP or RLUSD to a wallet', () => {
    expect(referralClaimSchema.safeParse({ wallet: A, currency: 'XRP' }).success).toBe(true);
    expect(referralClaimSchema.safeParse({ wallet: A, currency: 'USD' }).success).toBe(false);
    expect(referralClaimSchema.safeParse({ currency: 'XRP' }).success).toBe(false);
  });
});

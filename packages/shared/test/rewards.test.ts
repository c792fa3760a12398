import { describe, expect, it } from 'vitest';
import { REWARD_MESSAGES, claimAmount, claimRewardsSchema, unclaimedReward } from '../src/schemas/rewards';

// The claim rule the modal and the route share: percent of (earned − claimed), rounded down to 6
// decimals; percent 10–100 in steps of 10.

const body = {
  wallet: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  token: 'RWD',
  issuer: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
};

describe('claim rule', () => {
  it('pays percent of the unclaimed reward, rounded down to 6 decimals', () => {
    expect(unclaimedReward('0.0425', '0.02125')).toBe('0.02125');
    expect(unclaimedReward('1', '2')).toBe('0');
    expect(claimAmount('0.0425', '0', 50)).toBe('0.021250');
    expect(claimAmount('0.1234567', '0.0000007', 30)).toBe('0.037036');
    expect(claimAmount('0.0000019', '0', 50)).toBe('0.000000');
    expect(claimAmount('123456789.123456789', '0.000000789', 100)).toBe('123456789.123456');
  });

  it('accepts percent 10..100 in steps of 10 only', () => {
    for (const percent of [10, 20, 50, 100, '70'])
      expect(claimRewardsSchema.safeParse({ ...body, percent }).success).toBe(true);
    for (const percent of [0, 5, 15, 110, 50.5, '50.5', -10, null]) {
      const r = claimRewardsSchema.safeParse({ ...body, percent });
      expect(r.success, String(percent)).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(REWARD_MESSAGES.percent);
    }
  });
});

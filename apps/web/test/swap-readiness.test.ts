import { describe, expect, it } from 'vitest';
import { SWAP_MESSAGES } from '@ledgerpad/shared';
import { readiness, type ReadinessInput } from '../src/features/swap/readiness';

// The button names what is missing (issue 39): 'Please select a wallet and token.' read with a
// wallet selected; now the spec's sentence only when both are missing.

const input = (over: Partial<ReadinessInput>): ReadinessInput => ({
  hasWallet: true,
  multi: false,
  targets: 1,
  hasToken: true,
  randomized: false,
  range: { min: '', max: '' },
  amount: '',
  kind: 'market',
  price: '',
  slippage: '0.50',
  short: null,
  needsQuote: true,
  quote: { state: 'none' },
  impactAccepted: false,
  ...over,
});
const reason = (over: Partial<ReadinessInput>) => {
  const r = readiness(input(over));
  return r.sendable ? null : r.reason;
};

describe('what the button asks for first', () => {
  it('a wallet without a token: the token only', () => {
    expect(reason({ hasToken: false })).toBe('Please select a token.');
    expect(reason({ hasToken: false })).not.toBe(SWAP_MESSAGES.selectWalletAndToken);
  });
  it('a token without a wallet: the wallet only; neither: the spec sentence', () => {
    expect(reason({ hasWallet: false })).toBe('Please select a wallet.');
    expect(reason({ hasWallet: false, hasToken: false })).toBe('Please select a wallet and token.');
  });
  it('both: on to the amount', () => {
    expect(reason({})).toBe('Enter an amount');
  });
});

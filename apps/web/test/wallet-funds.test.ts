import { describe, expect, it } from 'vitest';
import type { WalletBalance } from '@ledgerpad/shared';
import { availableDrops, spendableDrops, tokenBalance, walletReserves } from '../src/lib/wallet-funds';

// The web's spendable XRP is the server's (issue 39): balance − reserve − what is committed
// (transactions in flight, platform fees still owed) − the action's own network fees and reserves.
// Before, ALL IN 0.4 s after a trade and a transfer of exactly 'Available' asked for XRP the server
// then refused: the fee still owed was not taken off.

const spendable = (committed: string): NonNullable<WalletBalance['spendable']> => ({
  ownerCount: 0,
  available: '0',
  committed,
  baseReserve: '1',
  ownerReserve: '0.2',
  networkFee: '0.00001',
  tradingFeePercent: '0.75',
});

describe('spendable XRP with what is committed', () => {
  const w = { balance: '101', ledgerReserve: '1', spendable: spendable('0.081085') };

  it('available takes off the fee still owed: 101 − 1 − 0.081085 = 99.918915 XRP', () => {
    expect(availableDrops(w)).toBe(99_918_915n);
    expect(availableDrops({ balance: '101', ledgerReserve: '1' })).toBe(100_000_000n);
  });

  it("an action's figure takes off its network fees too: a transfer (one transaction) 99.918905 XRP", () => {
    const reserves = walletReserves(w)!;
    expect(reserves).toEqual({ reserveBase: 1_000_000n, reserveIncrement: 200_000n, baseFee: 10n });
    expect(spendableDrops(w, reserves, { transactions: 1 })).toBe(99_918_905n);
    // A buy that opens a line: three transactions and a 0.2 XRP reserve: 99.918915 − 0.00003 − 0.2.
    expect(spendableDrops(w, reserves, { transactions: 3, newObjects: 1 })).toBe(99_718_885n);
  });

  it('never below zero', () => {
    expect(availableDrops({ balance: '1.05', ledgerReserve: '1', spendable: spendable('0.1') })).toBe(0n);
  });
});

describe('spendable tokens with the fees still owed in them', () => {
  const RLUSD = '524C555344000000000000000000000000000000';
  const ISSUER = 'rQhWct2fv4Vc4KRjRgMrxa8xPN9Zx9iLKV';
  const token = (value: string, owed?: string) => ({
    currency: 'RLUSD',
    currencyCode: RLUSD,
    issuer: ISSUER,
    realIssuer: ISSUER,
    value,
    ...(owed ? { owed } : {}),
  });

  it("is the line's balance less what the wallet owes in it: 25.5 − 0.19125 = 25.30875 RLUSD", () => {
    expect(tokenBalance({ tokens: [token('25.5', '0.19125')] }, RLUSD, ISSUER)).toBe('25.30875');
    expect(tokenBalance({ tokens: [token('25.5')] }, RLUSD, ISSUER)).toBe('25.5');
  });

  it('never below zero, and 0 without a line', () => {
    expect(tokenBalance({ tokens: [token('0.1', '0.2')] }, RLUSD, ISSUER)).toBe('0');
    expect(tokenBalance({ tokens: [] }, RLUSD, ISSUER)).toBe('0');
  });
});

import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal, formatFull, formatPrice, formatXrp } from '@ledgerpad/shared';
import { LaunchFigures } from '../src/features/deploy/launch-figures';

// The deploy preview's launch figures (issue 37): starting price, market cap, what the creator holds
// (locked, unlocked) and what the first buy costs — expected figures worked out here from XLS-30's
// swap formula with decimal.js, not read back from the function under test.

afterEach(cleanup);

const base = {
  supply: '1000000',
  devAllocation: '10',
  locked: true,
  liquidityAmount: '100',
  pair: 'XRP' as const,
  ammFee: '0.3',
  feePercent: '0.75',
  ticker: 'FIRST',
};

describe('LaunchFigures', () => {
  it('shows the starting price, market cap, holdings and the first buy with its fee', () => {
    render(<LaunchFigures {...base} firstBuyXrp="10" />);
    // 100 XRP against the 900,000 tokens left after the 10% dev allocation.
    const price = new Decimal(100).div(900_000);
    expect(screen.getByTestId('start-price').textContent).toBe(
      `${formatPrice(price.toFixed())} XRP per FIRST`,
    );
    expect(screen.getByTestId('market-cap').textContent).toBe(
      `${formatXrp(price.mul(1_000_000).toFixed())} XRP`,
    );
    expect(screen.getByTestId('start-price').textContent).toBe('0.0001111 XRP per FIRST');
    expect(formatXrp(price.mul(1_000_000).toFixed())).toBe('111.111111');
    // 10,000,000 drops in at the creator's auction-slot fee (0.3% / 10 = 0.03%):
    // out = 900,000 × (1 − 1e8 / (1e8 + 1e7 × 0.9997)), rounded down to 15 digits.
    const a = new Decimal(10_000_000).mul('0.9997');
    const out = new Decimal(900_000)
      .mul(new Decimal(1).minus(new Decimal(1e8).div(new Decimal(1e8).plus(a))))
      .toSignificantDigits(15, Decimal.ROUND_DOWN);
    // out = 81,795.8671600134… (15 digits): at most 6 decimals on screen, rounded down, trailing zero
    // dropped (issue 39: no '149,374.478732276 NEWC'); every digit in the tooltip.
    expect(out.toFixed()).toBe('81795.8671600134');
    expect(screen.getByTestId('first-buy-tokens').textContent).toBe('81,795.86716 FIRST');
    expect(screen.getByTestId('first-buy-tokens').querySelector('[title]')!.getAttribute('title')).toBe(
      `${formatFull(out.toFixed())} FIRST`,
    );
    // 0.75% of 10 XRP = 0.075 XRP.
    expect(screen.getByTestId('first-buy-cost').textContent).toContain(
      '10 XRP + 0.075 XRP platform fee (0.75%) = 10.075 XRP',
    );
    // The 100,000 dev tokens are escrowed; the bought ones are free.
    expect(screen.getByTestId('creator-holds').textContent).toContain(
      '100,000 locked, 81,795.86716 unlocked',
    );
  });

  it('without a first buy: no cost line, the unlocked dev allocation only', () => {
    render(<LaunchFigures {...base} locked={false} firstBuyXrp="" />);
    expect(screen.queryByTestId('first-buy-cost')).toBeNull();
    expect(screen.getByTestId('creator-holds').textContent).toContain('0 locked, 100,000 unlocked');
  });

  it('charges no platform fee when the platform charges none on trades', () => {
    render(<LaunchFigures {...base} feePercent="0" firstBuyXrp="2.5" />);
    expect(screen.getByTestId('first-buy-cost').textContent).toContain(
      '2.5 XRP + 0 XRP platform fee (0%) = 2.5 XRP',
    );
  });
});

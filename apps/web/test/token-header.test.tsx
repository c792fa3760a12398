import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenTabTitle, type TokenView } from '@ledgerpad/shared';
import { TokenHeader } from '../src/features/token/token-header';
import { withProviders } from './support';

// One price (issue 39): the token page's headline is the token's price as the list and the API give
// it (the pool's spot, a curve's next offer); the last trade's average price is beside it, labelled.

afterEach(() => cleanup());

const token = (over: Partial<TokenView> = {}) =>
  ({
    id: 1,
    name: 'Comet',
    ticker: 'COMET',
    currency: 'COMET',
    issuer_address: 'rEXAMPLExxxxxxxxxxxxxxxxxxxxxxxxx',
    links: { Twitter: '', Telegram: '', Website: '' },
    logoUrl: null,
    is_bonding_curve: false,
    bonding_active: false,
    verified: true,
    ...over,
  }) as TokenView;

const header = (
  t: TokenView,
  price: string | null,
  lastTrade: string | null,
  quote: 'XRP' | 'RLUSD' = 'XRP',
) =>
  render(
    withProviders(
      <TokenHeader
        token={t}
        price={price}
        lastTrade={lastTrade}
        quote={quote}
        changes={[]}
        changesLoading={false}
      />,
    ),
  );

describe('TokenHeader', () => {
  it("shows the pool's spot as the price and the last trade beside it as 'Last trade'", () => {
    header(token(), '0.00001587', '0.00001303');
    const price = screen.getByTestId('price');
    expect(price.textContent).toBe('0.0₄1587 XRP');
    expect(price.getAttribute('title')).toBe(
      "0.00001587 XRP: the pool's spot price, as the token list and market cap use it",
    );
    expect(screen.getByText(/^Last trade/).textContent).toBe('Last trade 0.0₄1303 XRP');
    expect(screen.getByTestId('live-price').firstChild!.textContent).toBe('0.0₄1303');
  });

  it("names a curve's next price, the quote asset RLUSD, and 'no market' without one", () => {
    header(token({ is_bonding_curve: true, bonding_active: true }), '0.5', null, 'RLUSD');
    expect(screen.getByTestId('price').getAttribute('title')).toBe(
      "0.5 RLUSD: the curve's next price, as the token list and market cap use it",
    );
    expect(screen.getByText(/^Last trade/).textContent).toBe('Last trade —');
    cleanup();
    header(token(), null, null);
    expect(screen.getByTestId('price').textContent).toBe('no market');
  });
});

describe('the token tab title (issue 39)', () => {
  it("names the token: 'NAME (TICKER) · Ledgerpad', the ticker alone when the name is it", () => {
    expect(tokenTabTitle('Comet Coin', 'COMET')).toBe('Comet Coin (COMET) · Ledgerpad');
    expect(tokenTabTitle('COMET', 'COMET')).toBe('COMET · Ledgerpad');
    expect(tokenTabTitle('  ', 'COMET')).toBe('COMET · Ledgerpad');
  });
});

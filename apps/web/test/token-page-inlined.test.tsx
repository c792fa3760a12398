import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenView } from '@ledgerpad/shared';
import { AppRoutes, loadTokenPage } from '../src/app/routes';
import { resetTokenData, TOKEN_DATA_FRESH_MS, TOKEN_DATA_ID } from '../src/features/token/token-data';
import { stubFetch } from './support';

// Issue 40, the token page's LCP: the server writes the page's first read (the token) into its
// HTML as a JSON block beside the static first screen. The page renders from it at once — no
// skeleton, no request for the token — and only for the page it was written for.

// The chart draws on a canvas, which jsdom has not: it stands in as its panel (its own tests are
// price-chart-label.test.ts and the e2e specs).
vi.mock('../src/features/token/price-chart', () => ({
  PriceChart: () => <section className="panel chart-panel" data-testid="chart" />,
}));

const ISSUER = 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY';
const CURRENCY = '434F4D4554000000000000000000000000000000';
const token = {
  id: 7,
  name: 'Comet Coin',
  ticker: 'COMET',
  currency: CURRENCY,
  issuer_address: ISSUER,
  supply: '1000000',
  description: 'A comet </script> worth watching',
  liquidity_pair: 'XRP',
  logoUrl: null,
  links: { Twitter: '', Telegram: '', Website: '' },
  launch_type: 'amm',
  is_bonding_curve: false,
  bonding_active: false,
  has_graduated_to_amm: true,
  verified: true,
  metadata_by: 'issuer',
} as unknown as TokenView;

let calls: string[];
beforeEach(() => {
  ({ calls } = stubFetch(() => undefined));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.getElementById(TOKEN_DATA_ID)?.remove();
  resetTokenData();
});

/** The block as the server writes it (every `<` as \u003c). */
function embed(data: {
  issuer: string;
  currency: string | null;
  token: TokenView;
  issuerTokens?: TokenView[];
}) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = TOKEN_DATA_ID;
  el.textContent = JSON.stringify(data).replace(/</g, '\\u003c');
  document.head.append(el);
}

const app = (path: string) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </QueryClientProvider>,
  );
const tokenReads = () => calls.filter((c) => c.startsWith(`/api/tokens/issuer/${ISSUER}`));

describe('the token page from its inlined first read', () => {
  it('renders the token in its first render, without the skeleton and without fetching it', async () => {
    embed({ issuer: ISSUER, currency: CURRENCY, token });
    // As boot.tsx does when the HTML carries the token page's first screen.
    await loadTokenPage();
    app(`/token/${ISSUER}/${CURRENCY}`);
    // The first commit already has the page: the header and the description (the LCP element).
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('COMET');
    expect(screen.getByText('A comet </script> worth watching').className).toBe('token-description');
    expect(screen.queryByLabelText('Loading')).toBeNull();
    // The page's other reads go out; the token's own does not.
    await waitFor(() => expect(calls.some((c) => c.startsWith(`/api/tokens/${ISSUER}/stats`))).toBe(true));
    expect(tokenReads()).toEqual([]);
  });

  it('on /token/{issuer} uses both inlined reads (the token, the issuer’s one-token list)', async () => {
    embed({ issuer: ISSUER, currency: null, token, issuerTokens: [token] });
    await loadTokenPage();
    app(`/token/${ISSUER}`);
    expect(screen.getByText('A comet </script> worth watching')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.startsWith(`/api/tokens/${ISSUER}/stats`))).toBe(true));
    expect(tokenReads()).toEqual([]);
  });

  it("fetches as usual for another token's page, or once the page is no longer fresh", async () => {
    ({ calls } = stubFetch((path) =>
      path.startsWith(`/api/tokens/issuer/${ISSUER}`) ? { body: token } : undefined,
    ));
    embed({ issuer: ISSUER, currency: 'OTHER', token });
    await loadTokenPage();
    app(`/token/${ISSUER}/${CURRENCY}`);
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    expect(await screen.findByText('A comet </script> worth watching')).toBeTruthy();
    expect(tokenReads()).toEqual([`/api/tokens/issuer/${ISSUER}?currency=${CURRENCY}`]);
    cleanup();

    // The right page, but read more than TOKEN_DATA_FRESH_MS ago: fetched.
    resetTokenData();
    document.getElementById(TOKEN_DATA_ID)?.remove();
    embed({ issuer: ISSUER, currency: CURRENCY, token });
    vi.useFakeTimers({ toFake: ['Date'] });
    app(`/token/${ISSUER}/${CURRENCY}`);
    expect(screen.queryByLabelText('Loading')).toBeNull();
    cleanup();
    calls.length = 0;
    vi.setSystemTime(Date.now() + TOKEN_DATA_FRESH_MS + 1);
    app(`/token/${ISSUER}/${CURRENCY}`);
    expect(screen.getByLabelText('Loading')).toBeTruthy();
    await screen.findByText('A comet </script> worth watching');
    expect(tokenReads()).toEqual([`/api/tokens/issuer/${ISSUER}?currency=${CURRENCY}`]);
  });
});

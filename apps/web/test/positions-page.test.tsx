import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  POSITIONS_MESSAGES,
  POSITIONS_REFRESH_MS,
  tickerToCurrency,
  type PositionView,
  type User,
} from '@ledgerpad/shared';
import { PositionsPage } from '../src/features/positions/positions-page';
import { stubFetch, type FetchAnswer } from './support';

// The positions page (spec 001 §2 Positions) against stubbed API answers: the spec's columns, rows
// grouped by wallet with XRP first, profit green and loss red, the XRP-only and error messages, a
// token row opening /swap with the wallet and token, and the 5 s refresh.

const USER: User = {
  id: 9,
  username: 'holder',
  first_name: null,
  photo_url: null,
  email: null,
  telegram_id: null,
  google_id: null,
  created_at: '2026-01-01T00:00:00Z',
};
const W1 = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const W2 = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const ISSUER = 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf';
const MOON = tickerToCurrency('MOON');

const withTokens = (): PositionView[] => [
  {
    wallet: W1,
    walletName: 'Trading',
    xrpBalance: '1234.5',
    tokens: [
      {
        tokenCode: MOON,
        ticker: 'MOON',
        issuer: ISSUER,
        balance: '1000',
        valueInXRP: '20.5',
        realisableXRP: '20.1',
        realizedPNL: '4.410181',
        unrealizedPNL: '-1.25',
        totalPNL: '3.160181',
      },
    ],
  },
  { wallet: W2, walletName: 'Savings', xrpBalance: '10', tokens: [] },
];

let answer: () => FetchAnswer;
let calls: string[];

beforeEach(() => {
  answer = () => ({ body: { positions: withTokens() } });
  ({ calls } = stubFetch((path) => {
    if (path === '/api/session') return { body: { user: USER } };
    if (path === `/api/positions/${USER.id}`) return answer();
    return undefined;
  }));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function SwapProbe() {
  return <output data-testid="swap-state">{JSON.stringify(useLocation().state)}</output>;
}

function mount() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/positions']}>
        <Routes>
          <Route path="/positions" element={<PositionsPage />} />
          <Route path="/swap" element={<SwapProbe />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const COLUMNS = [
  'Token',
  'Balance',
  'Value (XRP)',
  'Realized PNL (net of fees)',
  'Unrealized PNL (net of fees)',
  'Total PNL (net of fees)',
];

describe('positions page', () => {
  it('groups rows by wallet, XRP first, with the spec’s columns and signed, coloured PNL', async () => {
    mount();
    const tables = await screen.findAllByRole('table');
    expect(tables).toHaveLength(2);
    const trading = screen.getByRole('region', { name: 'Positions of Trading' });
    const table = within(trading).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(COLUMNS);
    const [, xrp, moon] = within(table).getAllByRole('row');
    expect(within(xrp!).getByRole('rowheader').textContent).toBe('XRP');
    expect(within(xrp!).getAllByRole('cell')[0]!.textContent).toBe('1,234.5');
    expect(within(moon!).getByRole('rowheader').textContent).toContain('MOON');
    const [, value, realized, unrealized, total] = within(moon!).getAllByRole('cell');
    // What a sale would return, spot beside it; 20.1 is within 90% of 20.5: no depth mark.
    expect(value!.textContent).toBe('20.1spot 20.5');
    expect(within(value!).queryByText('exceeds pool depth')).toBeNull();
    expect(realized!.textContent).toBe('+4.410181');
    expect(realized!.className).toContain('positive');
    expect(unrealized!.textContent).toBe('−1.25');
    expect(unrealized!.className).toContain('negative');
    expect(total!.className).toContain('positive');
    // The second wallet has its XRP row only.
    const savings = screen.getByRole('region', { name: 'Positions of Savings' });
    expect(within(savings).getAllByRole('row')).toHaveLength(2);
    expect(screen.queryByText(/hold only XRP/)).toBeNull();
  });

  it("the platform's own RLUSD is not marked unverified; an unlisted token is (issue 39)", async () => {
    const RLUSD_ISSUER = 'rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De';
    const RLUSD_HEX = '524C555344000000000000000000000000000000';
    answer = () => ({
      body: {
        positions: [
          {
            ...withTokens()[0]!,
            tokens: [
              ...withTokens()[0]!.tokens,
              {
                tokenCode: RLUSD_HEX,
                ticker: 'RLUSD',
                issuer: RLUSD_ISSUER,
                balance: '25',
                valueInXRP: '11',
                realisableXRP: '10.9',
                realizedPNL: '0',
                unrealizedPNL: '0',
                totalPNL: '0',
              },
            ],
          },
        ],
      },
    });
    vi.unstubAllGlobals();
    stubFetch((path) => {
      if (path === '/api/session') return { body: { user: USER } };
      if (path === `/api/positions/${USER.id}`) return answer();
      if (path === '/api/config/rlusd') return { body: { issuer: RLUSD_ISSUER, currency: RLUSD_HEX } };
      return undefined;
    });
    mount();
    const trading = await screen.findByRole('region', { name: 'Positions of Trading' });
    const rows = within(trading).getAllByRole('row');
    const rlusd = rows.find((r) => r.textContent!.includes('RLUSD'))!;
    const moon = rows.find((r) => r.textContent!.includes('MOON'))!;
    await waitFor(() => expect(moon.textContent).toContain('Unverified'));
    await waitFor(() => expect(rlusd.textContent).not.toContain('Unverified'));
  });

  it('shows a kept LP position with its pool share, what it holds and its value (issue 37)', async () => {
    answer = () => ({
      body: {
        positions: [
          {
            wallet: W2,
            walletName: 'MOON liquidity',
            xrpBalance: '1.2',
            tokens: [],
            liquidity: [
              {
                lpCurrency: '03ABCDEF0123456789ABCDEF0123456789ABCDEF',
                ammAccount: W1,
                ticker: 'MOON',
                tokenCode: MOON,
                issuer: ISSUER,
                quote: 'XRP',
                lpBalance: '9486832.98',
                sharePercent: '100',
                pooledQuote: '90',
                pooledTokens: '1000000',
                valueInXRP: '180',
              },
            ],
          },
        ],
      },
    });
    mount();
    const table = await screen.findByRole('table', { name: 'Pool shares of MOON liquidity' });
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getByRole('rowheader').textContent).toContain('MOON/XRP');
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['9.486M', '100%', '90 XRP + 1M MOON', '180']);
    expect(screen.queryByText(/hold only XRP/)).toBeNull();
  });

  it('marks a holding whose sale would return under 90% of spot: larger than its pool (issue 39)', async () => {
    const whale = (realisableXRP: string): PositionView[] => [
      {
        wallet: W1,
        walletName: 'Trading',
        xrpBalance: '5',
        tokens: [
          {
            tokenCode: MOON,
            ticker: 'MOON',
            issuer: ISSUER,
            balance: '104500000',
            valueInXRP: '291.87',
            realisableXRP,
            realizedPNL: '0',
            unrealizedPNL: '-3.5',
            totalPNL: '-3.5',
          },
        ],
      },
    ];
    // 0.9 × 291.87 = 262.683: 262.682999 is below it, 262.683 is not.
    answer = () => ({ body: { positions: whale('262.682999') } });
    mount();
    const row = await screen.findByRole('row', { name: 'Trade MOON on the Swap page' });
    const [, value] = within(row).getAllByRole('cell');
    expect(value!.textContent).toBe('262.682999spot 291.87exceeds pool depth');
    cleanup();
    answer = () => ({ body: { positions: whale('262.683') } });
    mount();
    const again = await screen.findByRole('row', { name: 'Trade MOON on the Swap page' });
    expect(within(again).queryByText('exceeds pool depth')).toBeNull();
  });

  it('keeps the value, spot and depth mark in one column beside the phone card’s label', async () => {
    answer = () => ({
      body: {
        positions: [
          {
            ...withTokens()[0]!,
            tokens: [{ ...withTokens()[0]!.tokens[0]!, valueInXRP: '291.87', realisableXRP: '73.9' }],
          },
        ],
      },
    });
    mount();
    const row = await screen.findByRole('row', { name: 'Trade MOON on the Swap page' });
    const [, value] = within(row).getAllByRole('cell');
    // One child beside the phone card's label (the value's lines stack inside it), so the flex line
    // holds the label and one column, never three items side by side.
    expect(value!.children).toHaveLength(1);
    expect(value!.firstElementChild!.className).toBe('positions-value');
    expect(value!.textContent).toContain('exceeds pool depth');
  });

  it('opens /swap with the wallet, issuer and token code from a token row', async () => {
    mount();
    const row = await screen.findByRole('row', { name: 'Trade MOON on the Swap page' });
    fireEvent.click(row);
    const state = await screen.findByTestId('swap-state');
    expect(JSON.parse(state.textContent!)).toEqual({
      walletAddress: W1,
      issuerAddress: ISSUER,
      tokenCode: MOON,
    });
  });

  it('says the wallets hold only XRP when no wallet has a token', async () => {
    answer = () => ({ body: { positions: [{ ...withTokens()[1]!, tokens: [] }] } });
    mount();
    const note = await screen.findByText(/Your wallets hold only XRP\./);
    expect(note.textContent).toBe(POSITIONS_MESSAGES.onlyXrp);
  });

  it('shows the spec’s message when positions cannot be fetched', async () => {
    answer = () => ({ status: 500, body: { error: 'internal', message: 'Internal server error' } });
    mount();
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to fetch positions.');
  });

  it('refreshes every 5 s', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    mount();
    await screen.findAllByRole('table');
    const count = () => calls.filter((c) => c === `/api/positions/${USER.id}`).length;
    const first = count();
    expect(first).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(POSITIONS_REFRESH_MS));
    expect(count()).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(POSITIONS_REFRESH_MS));
    expect(count()).toBe(3);
  });
});

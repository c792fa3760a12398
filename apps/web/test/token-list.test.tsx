import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatPrice, formatUsd, type PriceRecord, type TokenView } from '@ledgerpad/shared';
import { TokenList } from '../src/features/token-list/token-list';
import { LANDING_DATA_ID, resetLandingData } from '../src/lib/landing-data';
import { setMobileViewport, stubFetch, withProviders } from './support';

// The home page's token list, rendered for real: rows from /api/tokens, figures from /api/prices and
// /api/holders, search, sorting, pagination and row navigation (spec 000 §2, §4, §5, §9).

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-20T12:00:00Z');
const NAMES = [
  'Alpha',
  'Bravo',
  'Charlie',
  'Delta',
  'Echo',
  'Foxtrot',
  'Golf',
  'Hotel',
  'India',
  'Juliet',
  'Kilo',
  'Lima',
];
// Valid-looking classic addresses, distinct per token.
const issuer = (i: number) => `r${'ABCDEFGHJKLMNPQRSTUVWXYZ'[i]}${'x'.repeat(24)}${i}`;

function token(i: number): TokenView {
  const name = NAMES[i]!;
  return {
    id: i + 1,
    name: `${name} Token`,
    ticker: name.slice(0, 3).toUpperCase() + String(i),
    currency: name.slice(0, 3).toUpperCase(),
    issuer_address: issuer(i),
    supply: '1000000',
    description: '',
    liquidity_pair: 'XRP',
    local_image_path: null,
    logoUrl: null,
    telegramFileId: null,
    twitterLink: null,
    telegramLink: null,
    websiteLink: null,
    links: { Twitter: 'N/A', Telegram: '', Website: i === 0 ? 'https://alpha.example' : 'N/A' },
    launch_type: 'amm',
    is_bonding_curve: false,
    bonding_active: false,
    has_graduated_to_amm: false,
    is_new: false,
    is_blackholed: false,
    require_auth: false,
    is_market_listed: true,
    is_active: true,
    total_reward: '0',
    reward_currency: 'XRP',
    total_claimed: '0',
    // Token i was created i × 5 hours before NOW: index 0 is the newest.
    created_at: new Date(NOW - i * 5 * HOUR).toISOString(),
    // Token 0 was listed by someone who proved nothing (its link is the lister's); token 1 looks
    // like token 2; the rest are verified.
    verified: i > 1,
    verified_by: i > 1 ? 'deploy' : null,
    lookalike_of: i === 1 ? 'THI' : null,
    metadata_by: i === 0 ? 'lister' : 'issuer',
  };
}

const TOKENS = NAMES.map((_, i) => token(i));
/** Prices rise with the index; token 3's market cap is in the billions (a long figure). */
const price = (i: number): PriceRecord => ({
  tokenCode: TOKENS[i]!.currency,
  issuer: TOKENS[i]!.issuer_address,
  priceInXRP: String((i + 1) / 1000),
  priceInUSD: String((i + 1) / 500),
  supply: '1000000',
  marketCapInUSD: i === 3 ? '1234567890123.45' : String((i + 1) * 2000),
  liquidityPair: 'XRP',
});

let prices: unknown[];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  prices = TOKENS.map((_, i) => price(i));
  stubFetch((path) => {
    if (path.startsWith('/api/tokens')) return { body: TOKENS };
    if (path === '/api/prices') return { body: prices };
    if (path === '/api/holders')
      return { body: TOKENS.map((t, i) => ({ issuer_address: t.issuer_address, holders_count: i * 3 })) };
    if (path === '/api/blackhole-status/bulk') return { body: { [issuer(2)]: true } };
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const tickers = () => screen.getAllByTestId('token-row').map((r) => r.querySelector('.ticker')!.textContent);
const renderList = async () => {
  render(withProviders(<TokenList />));
  await screen.findAllByTestId('token-row');
};

describe('token list', () => {
  it('shows 10 rows per page, newest first, with Prev/Next and Page X / Y', async () => {
    await renderList();
    expect(tickers()).toEqual(TOKENS.slice(0, 10).map((t) => t.ticker));
    expect(screen.getByText('Page 1 / 2')).toBeTruthy();
    const prev = screen.getByRole('button', { name: 'Prev' }) as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(tickers()).toEqual(TOKENS.slice(10).map((t) => t.ticker));
    expect(screen.getByText('Page 2 / 2')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('formats prices to 4 significant digits and market caps as compact dollars, full figures in tooltips', async () => {
    await renderList();
    const row = (i: number) => screen.getAllByTestId('token-row')[i]!;
    await vi.waitFor(() =>
      expect(within(row(0)).getByTestId('price').textContent).toBe(formatPrice('0.001')),
    );
    expect(within(row(0)).getByTestId('price').textContent).toBe('0.001');
    expect(within(row(0)).getByTestId('price').getAttribute('title')).toBe('0.001 XRP');
    expect(within(row(0)).getByTestId('market-cap').textContent).toBe(formatUsd('2000'));
    expect(within(row(0)).getByTestId('market-cap').textContent).toBe('$2K');
    // Token 3: $1,234,567,890,123.45 reads $1.23T, the whole figure in its tooltip.
    expect(within(row(3)).getByTestId('market-cap').textContent).toBe('$1.23T');
    expect(within(row(3)).getByTestId('market-cap').getAttribute('title')).toBe('$1,234,567,890,123.45');
    expect(within(row(3)).getByTestId('market-cap').className).not.toMatch(/small|tiny/);
    expect(within(row(2)).getByTestId('holders').textContent).toBe('6');
    expect(within(row(2)).getByRole('img', { name: 'blackholed' })).toBeTruthy();
    // Age: hours under a day with the fire mark, days from one day.
    expect(within(row(1)).getByTestId('age').firstChild!.textContent).toBe('5h');
    expect(within(row(1)).getByRole('img', { name: 'new' })).toBeTruthy();
    expect(within(row(5)).getByTestId('age').textContent).toBe('1d');
    expect(within(row(5)).queryByRole('img', { name: 'new' })).toBeNull();
    // Only real links: "N/A" and empty values are not links.
    expect(within(row(0)).getByRole('link', { name: 'Website' }).getAttribute('href')).toBe(
      'https://alpha.example/',
    );
    expect(within(row(1)).queryByRole('link', { name: 'Website' })).toBeNull();
  });

  it('keeps the last good price when a later one is zero or not a number', async () => {
    // Timers run on their own (for the queries) and can be pushed ahead to the next stats round.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(NOW);
    await renderList();
    const first = () => within(screen.getAllByTestId('token-row')[0]!).getByTestId('price').textContent;
    await vi.waitFor(() => expect(first()).toBe('0.001'));
    prices = [
      { ...price(0), priceInXRP: '0' },
      { ...price(1), priceInXRP: 'abc' },
    ];
    // The next stats round (5 s later) brings the bad prices; the rows keep what they had.
    await act(() => vi.advanceTimersByTimeAsync(5_300));
    expect(first()).toBe('0.001');
    expect(within(screen.getAllByTestId('token-row')[1]!).getByTestId('price').textContent).toBe(
      formatPrice('0.002'),
    );
  });

  it('sorts a new column ascending first and flips it on the next click', async () => {
    await renderList();
    const header = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });
    fireEvent.click(header('Ticker'));
    const sorted = [...TOKENS].map((t) => t.ticker).sort((a, b) => a.localeCompare(b));
    expect(tickers()).toEqual(sorted.slice(0, 10));
    expect(header('Ticker').closest('th')!.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(header('Ticker'));
    expect(tickers()).toEqual([...sorted].reverse().slice(0, 10));
    expect(header('Ticker').closest('th')!.getAttribute('aria-sort')).toBe('descending');
    // Age ascending is oldest first.
    fireEvent.click(header('Age'));
    expect(tickers()[0]).toBe(TOKENS[11]!.ticker);
  });

  it("shows 24h change, 24h volume and liquidity, each sortable both ways; 'no market' without a pool (issue 39)", async () => {
    // Volumes fall with the index (token 0 traded most), liquidity rises; token 11 has no market.
    prices = TOKENS.slice(0, 11).map((_, i) => ({
      ...price(i),
      change24h: i === 0 ? '-3.25' : i === 1 ? '+196.60' : i === 2 ? '+0.50' : null,
      volume24h: String((11 - i) * 100),
      volume24hUSD: String((11 - i) * 200),
      liquidity: String((i + 1) * 1000),
      liquidityUSD: String((i + 1) * 2000),
    }));
    await renderList();
    const header = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });
    const row = (i: number) => screen.getAllByTestId('token-row')[i]!;
    await vi.waitFor(() => expect(within(row(0)).getByTestId('volume-24h').textContent).toBe('$2.2K'));
    expect(within(row(0)).getByTestId('volume-24h').getAttribute('title')).toBe('$2,200.00');
    expect(within(row(0)).getByTestId('liquidity').textContent).toBe('$2K');
    expect(within(row(1)).getByTestId('change-24h').textContent).toBe('+196.60%');
    expect(within(row(1)).getByTestId('change-24h').className).toContain('up');
    expect(within(row(0)).getByTestId('change-24h').className).toContain('down');

    // 24h change: ascending, the tokens without a change last; flipped, still last.
    fireEvent.click(header('24h'));
    expect(header('24h').closest('th')!.getAttribute('aria-sort')).toBe('ascending');
    expect(tickers().slice(0, 3)).toEqual([0, 2, 1].map((i) => TOKENS[i]!.ticker));
    fireEvent.click(header('24h'));
    expect(header('24h').closest('th')!.getAttribute('aria-sort')).toBe('descending');
    expect(tickers().slice(0, 3)).toEqual([1, 2, 0].map((i) => TOKENS[i]!.ticker));

    // Volume: ascending is the least traded first; the token with no market sorts last both ways.
    fireEvent.click(header('Vol 24h'));
    expect(header('Vol 24h').closest('th')!.getAttribute('aria-sort')).toBe('ascending');
    expect(header('24h').closest('th')!.getAttribute('aria-sort')).toBeNull();
    expect(tickers()[0]).toBe(TOKENS[10]!.ticker);
    fireEvent.click(header('Vol 24h'));
    expect(header('Vol 24h').closest('th')!.getAttribute('aria-sort')).toBe('descending');
    expect(tickers()[0]).toBe(TOKENS[0]!.ticker);

    fireEvent.click(header('Liquidity'));
    expect(tickers()[0]).toBe(TOKENS[0]!.ticker);
    fireEvent.click(header('Liquidity'));
    expect(header('Liquidity').closest('th')!.getAttribute('aria-sort')).toBe('descending');
    expect(tickers()[0]).toBe(TOKENS[10]!.ticker);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    // The token with no pool: 'no market', not '0.000000 XRP' and '$0'.
    const last = screen.getAllByTestId('token-row').at(-1)!;
    expect(last.querySelector('.ticker')!.textContent).toBe(TOKENS[11]!.ticker);
    expect(within(last).getByTestId('no-market').textContent).toBe('no market');
    expect(within(last).queryByTestId('price')).toBeNull();
    expect(within(last).getByTestId('volume-24h').textContent).toBe('—');
    expect(within(last).getByTestId('liquidity').textContent).toBe('—');
  });

  it('shows volume and liquidity in the pair unit when no USD price is known', async () => {
    prices = [{ ...price(0), volume24h: '1234.5', volume24hUSD: null, liquidity: '200', liquidityUSD: '0' }];
    await renderList();
    const row = screen.getAllByTestId('token-row')[0]!;
    await vi.waitFor(() => expect(within(row).getByTestId('volume-24h').textContent).toBe('1.234K XRP'));
    expect(within(row).getByTestId('volume-24h').getAttribute('title')).toBe('1,234.5 XRP');
    expect(within(row).getByTestId('liquidity').textContent).toBe('200 XRP');
  });

  it('sorts volume and liquidity by their XRP figures when no USD price is known', async () => {
    prices = TOKENS.slice(0, 3).map((_, i) => ({
      ...price(i),
      volume24h: String([5, 50, 0.5][i]),
      volume24hUSD: null,
      liquidity: String([300, 20, 100][i]),
      liquidityUSD: '0',
    }));
    await renderList();
    const header = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });
    await vi.waitFor(() =>
      expect(within(screen.getAllByTestId('token-row')[0]!).getByTestId('volume-24h').textContent).toBe(
        '5 XRP',
      ),
    );
    fireEvent.click(header('Vol 24h'));
    fireEvent.click(header('Vol 24h'));
    expect(tickers().slice(0, 3)).toEqual([1, 0, 2].map((i) => TOKENS[i]!.ticker));
    fireEvent.click(header('Liquidity'));
    expect(tickers().slice(0, 3)).toEqual([1, 2, 0].map((i) => TOKENS[i]!.ticker));
  });

  it('searches name, ticker and issuer case-insensitively and resets to page 1', async () => {
    await renderList();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Page 2 / 2')).toBeTruthy();
    const search = screen.getByPlaceholderText('Search tokens by name, ticker, or issuer...');
    fireEvent.change(search, { target: { value: 'cHaRlIe' } });
    expect(tickers()).toEqual([TOKENS[2]!.ticker]);
    expect(screen.getByText('Page 1 / 1')).toBeTruthy();
    fireEvent.change(search, { target: { value: issuer(7).toLowerCase() } });
    expect(tickers()).toEqual([TOKENS[7]!.ticker]);
    fireEvent.change(search, { target: { value: TOKENS[4]!.ticker.toLowerCase() } });
    expect(tickers()).toEqual([TOKENS[4]!.ticker]);
    fireEvent.change(search, { target: { value: 'zzz-nothing' } });
    expect(screen.getByText('No tokens found.')).toBeTruthy();
    expect(screen.getByText('Page 1 / 1')).toBeTruthy();
  });

  it('marks unverified tokens, lookalikes and links the lister wrote', async () => {
    await renderList();
    const row = (i: number) => screen.getAllByTestId('token-row')[i]!;
    expect(within(row(0)).getByTestId('identity-badge').textContent).toBe('Unverified');
    expect(within(row(0)).getByTestId('lister-links-note').textContent).toBe(
      'added by the lister, not the issuer',
    );
    expect(within(row(1)).getByTestId('identity-badge').textContent).toBe('Unverified');
    expect(within(row(1)).getByTestId('lookalike-warning').textContent).toBe('⚠ looks like THI');
    // Verified rows carry no mark in the dense list, and their links no note.
    expect(within(row(2)).queryByTestId('identity-badge')).toBeNull();
    expect(within(row(2)).queryByTestId('lister-links-note')).toBeNull();
  });

  it('marks a squatter’s ZETA “same ticker as ZETA”, linking the real one, and searches put it below (issue 35)', async () => {
    // The squatter's ZETA is listed first (newest), with a proof of its own issuer; ledger facts
    // made the real one the one it gives way to.
    const real = {
      ...token(1),
      lookalike_of: null,
      id: 101,
      ticker: 'ZETA',
      name: 'Zeta Protocol',
      currency: 'ZETA',
      issuer_address: issuer(20),
    };
    const squat = {
      ...token(0),
      id: 102,
      ticker: 'ZETA',
      name: 'Zeta Protocol',
      currency: 'ZETA',
      issuer_address: issuer(21),
      verified: true,
      verified_by: 'wallet' as const,
      metadata_by: 'issuer' as const,
      lookalike_of: 'ZETA',
      same_as: {
        match: 'ticker' as const,
        ticker: 'ZETA',
        name: 'Zeta Protocol',
        issuer_address: issuer(20),
        currency: 'ZETA',
      },
      created_at: new Date(NOW).toISOString(),
    };
    stubFetch((path) => {
      if (path.startsWith('/api/tokens')) return { body: [squat, real] };
      if (path === '/api/prices') return { body: [] };
      if (path === '/api/holders') return { body: [] };
      if (path === '/api/blackhole-status/bulk') return { body: {} };
      return undefined;
    });
    await renderList();
    // Newest first without a search: the squatter's row comes first, with its mark.
    const first = screen.getAllByTestId('token-row')[0]!;
    expect(within(first).getByTestId('lookalike-warning').textContent).toBe('⚠ same ticker as ZETA');
    expect(within(first).getByTestId('same-as-link').getAttribute('href')).toBe(`/token/${issuer(20)}/ZETA`);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search tokens' }), { target: { value: 'zeta' } });
    const rows = screen.getAllByTestId('token-row');
    expect(rows.map((r) => within(r).queryByTestId('lookalike-warning')?.textContent ?? null)).toEqual([
      null,
      '⚠ same ticker as ZETA',
    ]);
    // The fold: however it is typed.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search tokens' }), {
      target: { value: 'Z3TA Pr0tocol' },
    });
    expect(screen.getAllByTestId('token-row')).toHaveLength(2);
  });

  it('gives an issuer’s two tokens their own holders and their own pages (issue 35)', async () => {
    const safe = { ...token(2), id: 201, ticker: 'SAFE', currency: 'SAFE', issuer_address: issuer(22) };
    const rugg = { ...token(3), id: 202, ticker: 'RUGG', currency: 'RUGG', issuer_address: issuer(22) };
    stubFetch((path) => {
      if (path.startsWith('/api/tokens')) return { body: [safe, rugg] };
      if (path === '/api/prices') return { body: [] };
      if (path === '/api/holders')
        return {
          body: [
            { issuer_address: issuer(22), currency: 'SAFE', holders_count: 12 },
            { issuer_address: issuer(22), currency: 'RUGG', holders_count: 1 },
          ],
        };
      if (path === '/api/blackhole-status/bulk') return { body: {} };
      return undefined;
    });
    await renderList();
    await vi.waitFor(() =>
      expect(screen.getAllByTestId('holders').map((h) => h.textContent)).toEqual(['12', '1']),
    );
    fireEvent.click(screen.getAllByTestId('token-row')[1]!);
    expect(screen.getByTestId('location').textContent).toBe(`/token/${issuer(22)}/RUGG`);
  });

  it('opens /token/{issuer} when a row is clicked', async () => {
    await renderList();
    fireEvent.click(screen.getAllByTestId('token-row')[3]!);
    expect(screen.getByTestId('location').textContent).toBe(`/token/${issuer(3)}`);
  });

  it('becomes cards on a phone: ticker, price with its unit, MC and 24h change, sortable from a menu', async () => {
    prices = TOKENS.map((_, i) => ({
      ...price(i),
      change24h: i === 0 ? '-3.25' : i === 1 ? '+12.50' : null,
    }));
    setMobileViewport(true);
    try {
      render(withProviders(<TokenList />));
      await screen.findAllByTestId('token-row');
      // No table on a phone: nothing to scroll sideways.
      expect(screen.queryByRole('table')).toBeNull();
      const list = screen.getByRole('list', { name: 'Tokens' });
      const cards = within(list).getAllByRole('listitem');
      expect(cards).toHaveLength(10);
      await vi.waitFor(() => expect(within(cards[0]!).getByTestId('price').textContent).toBe('0.001 XRP'));
      expect(within(cards[0]!).getByRole('link', { name: TOKENS[0]!.ticker })).toBeTruthy();
      expect(within(cards[0]!).getByTestId('market-cap').textContent).toBe('$2K');
      expect(within(cards[0]!).getByTestId('change-24h').textContent).toBe('-3.25%');
      expect(within(cards[0]!).getByTestId('change-24h').className).toContain('down');
      expect(within(cards[1]!).getByTestId('change-24h').textContent).toBe('+12.50%');
      expect(within(cards[1]!).getByTestId('change-24h').className).toContain('up');
      expect(within(cards[2]!).getByTestId('change-24h').textContent).toBe('—');
      // Volume and liquidity on the card too (issue 39); these records carry neither: '—'.
      expect(within(cards[0]!).getByTestId('volume-24h').textContent).toBe('—');
      expect(within(cards[0]!).getByTestId('liquidity').textContent).toBe('—');
      // The sort menu stands in for the header row: by market cap, biggest first, then flipped.
      fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'marketCap' } });
      expect(tickers()[0]).toBe(TOKENS[3]!.ticker);
      fireEvent.click(screen.getByRole('button', { name: /switch to ascending/ }));
      expect(tickers()[0]).toBe(TOKENS[0]!.ticker);
      fireEvent.click(screen.getAllByTestId('token-row')[0]!);
      expect(screen.getByTestId('location').textContent).toBe(`/token/${issuer(0)}`);
    } finally {
      setMobileViewport(false);
    }
  });

  it('marks a token with escrows on the ledger: share locked, until-date in the tooltip and the accessible text', async () => {
    // 75,000 of 1,000,000 in 3 escrows = 7.5%; the mark is worded by the shared helpers.
    const locked: TokenView = {
      ...TOKENS[1]!,
      ledger_lock: {
        percent: '7.5',
        amount: '75000',
        escrows: 3,
        firstUnlock: '2026-11-21T12:00:00.000Z',
        until: '2027-05-21T12:00:00.000Z',
      },
    };
    const title =
      '7.5% of the supply locked on the ledger in 3 escrows until 2027-05-21 (first unlock 2026-11-21)';
    stubFetch((path) => {
      if (path.startsWith('/api/tokens')) return { body: TOKENS.map((t, i) => (i === 1 ? locked : t)) };
      if (path === '/api/prices') return { body: prices };
      return undefined;
    });
    for (const mobile of [false, true]) {
      setMobileViewport(mobile);
      try {
        render(withProviders(<TokenList />));
        const rows = await screen.findAllByTestId('token-row');
        const mark = within(rows[1]!).getByTestId('lock-mark');
        expect(mark.getAttribute('title')).toBe(title);
        // Seen: the short label; read aloud: the whole sentence, once.
        expect(within(mark).getByText('7.5% locked').getAttribute('aria-hidden')).toBe('true');
        expect(within(mark).getByText(title)).toBeTruthy();
        // No escrow, no mark.
        expect(within(rows[0]!).queryByTestId('lock-mark')).toBeNull();
        expect(screen.getAllByTestId('lock-mark')).toHaveLength(1);
      } finally {
        setMobileViewport(false);
        cleanup();
      }
    }
  });

  it("marks a deploy's dev allocation that is not in escrow 'unlocked', in amber, table and cards", async () => {
    const unlocked: TokenView = { ...TOKENS[2]!, dev_unlocked: { percent: '10' } };
    const title = 'Dev allocation 10% — unlocked: not in escrow on the ledger, the deployer can sell it';
    stubFetch((path) => {
      if (path.startsWith('/api/tokens')) return { body: TOKENS.map((t, i) => (i === 2 ? unlocked : t)) };
      if (path === '/api/prices') return { body: prices };
      return undefined;
    });
    for (const mobile of [false, true]) {
      setMobileViewport(mobile);
      try {
        render(withProviders(<TokenList />));
        const rows = await screen.findAllByTestId('token-row');
        const row = rows.find((r) => within(r).queryByText(TOKENS[2]!.ticker))!;
        const mark = within(row).getByTestId('unlocked-mark');
        expect(mark.className).toContain('unlocked-mark');
        expect(mark.getAttribute('title')).toBe(title);
        expect(within(mark).getByText('unlocked').getAttribute('aria-hidden')).toBe('true');
        expect(within(mark).getByText(title)).toBeTruthy();
        // Only that token: no allocation known, or locked, no mark.
        expect(screen.getAllByTestId('unlocked-mark')).toHaveLength(1);
      } finally {
        setMobileViewport(false);
        cleanup();
      }
    }
  });

  it("marks a token whose pool's LP is burned 'LP burned', or the share burned, table and cards", async () => {
    const burned: TokenView[] = TOKENS.map((t, i) =>
      i === 0
        ? { ...t, lp_burned: { percent: '100' } }
        : i === 1
          ? { ...t, lp_burned: { percent: '40.5' } }
          : t,
    );
    stubFetch((path) => {
      if (path.startsWith('/api/tokens')) return { body: burned };
      if (path === '/api/prices') return { body: prices };
      return undefined;
    });
    for (const mobile of [false, true]) {
      setMobileViewport(mobile);
      try {
        render(withProviders(<TokenList />));
        await screen.findAllByTestId('token-row');
        const marks = screen.getAllByTestId('lp-burned-mark');
        expect(marks.map((m) => within(m).getAllByText(/LP/)[0]!.textContent).sort()).toEqual([
          'LP 40.5% burned',
          'LP burned',
        ]);
        const all = marks.find((m) => within(m).queryByText('LP burned'))!;
        expect(all.getAttribute('title')).toBe(
          '100% of the pool’s LP tokens are held by accounts that can never sign: that part of the pool can never be withdrawn.',
        );
      } finally {
        setMobileViewport(false);
        cleanup();
      }
    }
  });

  it('refetches the list on the 10 s price cadence: a token launched meanwhile appears without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(NOW);
    let listed = TOKENS.slice(1);
    stubFetch((path) => {
      if (path.startsWith('/api/tokens')) return { body: listed };
      if (path === '/api/prices') return { body: prices };
      if (path === '/api/holders') return { body: [] };
      if (path === '/api/blackhole-status/bulk') return { body: {} };
      return undefined;
    });
    render(withProviders(<TokenList />));
    await screen.findAllByTestId('token-row');
    expect(tickers()).not.toContain(TOKENS[0]!.ticker);
    listed = TOKENS;
    await act(() => vi.advanceTimersByTimeAsync(10_100));
    await vi.waitFor(() => expect(tickers()[0]).toBe(TOKENS[0]!.ticker));
  });
});

describe('token list on a fresh load of / (reads embedded in the page by the server)', () => {
  beforeEach(() => resetLandingData());
  afterEach(() => {
    document.getElementById(LANDING_DATA_ID)?.remove();
    resetLandingData();
  });

  it('renders rows and prices with the first render, then refreshes as usual', async () => {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = LANDING_DATA_ID;
    block.textContent = JSON.stringify({ tokens: TOKENS, prices, holders: [] });
    document.head.append(block);
    const { calls } = stubFetch((path) => {
      if (path.startsWith('/api/tokens')) return { body: TOKENS };
      if (path === '/api/prices') return { body: prices };
      return undefined;
    });
    render(withProviders(<TokenList />));
    // Synchronously: no fetch has answered yet.
    expect(tickers()).toEqual(TOKENS.slice(0, 10).map((t) => t.ticker));
    expect(within(screen.getAllByTestId('token-row')[0]!).getByTestId('price').textContent).toBe('0.001');
    // The embedded list is stale at once: the usual read follows.
    await vi.waitFor(() => expect(calls.some((c) => c.startsWith('/api/tokens'))).toBe(true));
  });

  it('is not used once the page is no longer fresh', async () => {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = LANDING_DATA_ID;
    block.textContent = JSON.stringify({ tokens: TOKENS.slice(0, 1), prices: [], holders: [] });
    document.head.append(block);
    render(withProviders(<TokenList />));
    expect(screen.getAllByTestId('token-row')).toHaveLength(1);
    cleanup();
    vi.setSystemTime(NOW + 11_000);
    render(withProviders(<TokenList />));
    await screen.findAllByTestId('token-row');
    expect(tickers()).toEqual(TOKENS.slice(0, 10).map((t) => t.ticker));
  });
});

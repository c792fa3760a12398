import { describe, expect, it } from 'vitest';
import {
  blackholeFlags,
  CARD_WIDGET_DEFAULTS,
  DEFAULT_TOKEN_SORT,
  figureFontClass,
  firstStatsDelay,
  homeOnrampConfig,
  initialStatsPoll,
  isRateLimited,
  mergePrices,
  nextStatsPoll,
  nextTokenSort,
  ONRAMP_MESSAGES,
  onrampConfigError,
  onrampEvent,
  onrampLayout,
  onrampWidgetUrl,
  pageLabel,
  paginate,
  priceRecordKey,
  RATE_LIMIT_RETRY_CAP_MS,
  RESTRICTED_JURISDICTIONS,
  RATE_LIMIT_RETRY_START_MS,
  searchTokenRows,
  sortTokenRows,
  STATS_FIRST_REFRESH_MS,
  STATS_REFRESH_MS,
  tokenAge,
  tokenLinks,
  toTokenRow,
  type PriceRecord,
  type TokenListToken,
  type TokenRow,
} from '../src/index';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-01-10T12:00:00Z');

describe('figureFontClass', () => {
  it('picks the font class by text length: tiny above 12, small above 9', () => {
    expect(figureFontClass('123456789')).toBe('');
    expect(figureFontClass('1234567890')).toBe('small');
    expect(figureFontClass('123456789012')).toBe('small');
    expect(figureFontClass('1234567890123')).toBe('tiny');
  });
});

describe('tokenAge', () => {
  it("shows hours under a day (flagged new) and 'Nd' from one day", () => {
    expect(tokenAge(new Date(NOW - 5 * HOUR - 1), NOW)).toEqual({ text: '5h', days: 0, isNew: true });
    expect(tokenAge(new Date(NOW - DAY + 1), NOW)).toEqual({ text: '23h', days: 0, isNew: true });
    expect(tokenAge(new Date(NOW - DAY), NOW)).toEqual({ text: '1d', days: 1, isNew: false });
    expect(tokenAge(new Date(NOW - 9 * DAY - 3 * HOUR).toISOString(), NOW).text).toBe('9d');
    // A clock a little ahead of the server never shows a negative age.
    expect(tokenAge(new Date(NOW + 60_000), NOW).text).toBe('0h');
  });
});

const token = (i: number, over: Partial<TokenListToken> = {}): TokenListToken => ({
  id: i,
  name: `Token ${i}`,
  ticker: `TK${i}`,
  currency: `TK${i}`,
  issuer_address: `rIssuer${i}`,
  created_at: new Date(NOW - i * HOUR).toISOString(),
  local_image_path: null,
  logoUrl: null,
  ...over,
});

const price = (t: TokenListToken, xrp: string, over: Partial<PriceRecord> = {}): PriceRecord => ({
  tokenCode: t.currency,
  issuer: t.issuer_address,
  priceInXRP: xrp,
  priceInUSD: String(Number(xrp) * 2),
  supply: '1000',
  marketCapInUSD: String(Number(xrp) * 2000),
  liquidityPair: 'XRP',
  ...over,
});

const noStats = {
  prices: new Map<string, PriceRecord>(),
  holders: new Map<string, number>(),
  blackholed: {},
};

describe('mergePrices', () => {
  const a = token(1);
  it('accepts numeric prices above zero and keeps the previous value otherwise', () => {
    const first = mergePrices(new Map(), [price(a, '0.5')]);
    expect(first.get(priceRecordKey('TK1', 'rIssuer1'))?.priceInXRP).toBe('0.5');
    for (const bad of ['0', '-1', 'abc', '']) {
      expect(mergePrices(first, [price(a, bad)])).toBe(first);
    }
    expect(mergePrices(first, null)).toBe(first);
    expect(mergePrices(first, { error: 'x' })).toBe(first);
    expect(mergePrices(first, [price(a, '0.75')]).get('TK1|rIssuer1')?.priceInXRP).toBe('0.75');
  });
  it('judges an RLUSD-paired record by its USD price', () => {
    const rec = price(a, '0', { liquidityPair: 'RLUSD', priceInUSD: '1.25' });
    expect(mergePrices(new Map(), [rec]).get('TK1|rIssuer1')?.priceInUSD).toBe('1.25');
  });
});

describe('toTokenRow', () => {
  it('derives price (USD for RLUSD pairs), market cap, holders, age and the blackholed flag', () => {
    const x = token(1);
    const r = token(2, { liquidity_pair: 'RLUSD' });
    const prices = mergePrices(new Map(), [
      price(x, '0.5'),
      price(r, '0', { liquidityPair: 'RLUSD', priceInUSD: '3', marketCapInUSD: '3000000' }),
    ]);
    const stats = { prices, holders: new Map([['rIssuer1', 7]]), blackholed: { rIssuer2: true } };
    const rx = toTokenRow(x, stats, NOW);
    expect(rx).toMatchObject({ price: '0.5', priceFormatted: '0.5', pair: 'XRP', holdersCount: 7 });
    // The tooltip's full figures, with the unit.
    expect(rx).toMatchObject({ priceFull: '0.5 XRP', priceUsd: '1', marketCapFull: '$1,000.00' });
    expect(rx).toMatchObject({
      marketCapFormatted: '$1K',
      ageFormatted: '1h',
      isNew: true,
      isBlackholed: false,
    });
    expect(rx.priceFont).toBe('');
    const rr = toTokenRow(r, stats, NOW);
    expect(rr).toMatchObject({ price: '3', pair: 'RLUSD', marketCapFormatted: '$3M', isBlackholed: true });
    expect(rr.priceFull).toBe('3 RLUSD');
    expect(rr.holdersCount).toBeNull();
    const none = toTokenRow(token(3), noStats, NOW);
    expect(none).toMatchObject({
      price: null,
      priceUsd: null,
      priceFormatted: '0.000000',
      marketCapFormatted: '$0',
    });
  });
});

describe('search, sort, paginate', () => {
  const tokens = [
    token(1, { name: 'Alpha Dog', ticker: 'ADOG' }),
    token(2, { name: 'beta', ticker: 'BETA', issuer_address: 'rXYZabc' }),
    token(3, { name: 'Gamma', ticker: 'GDOG' }),
  ];
  const prices = mergePrices(new Map(), [price(tokens[0]!, '0.3'), price(tokens[2]!, '0.1')]);
  const rows = tokens.map((t) =>
    toTokenRow(
      t,
      {
        prices,
        holders: new Map([
          ['rIssuer1', 5],
          ['rXYZabc', 9],
        ]),
        blackholed: {},
      },
      NOW,
    ),
  );
  const tickers = (list: TokenRow[]) => list.map((r) => r.token.ticker);

  it('matches a case-insensitive substring of name, ticker or issuer', () => {
    expect(tickers(searchTokenRows(rows, 'dog'))).toEqual(['ADOG', 'GDOG']);
    expect(tickers(searchTokenRows(rows, 'BETA'))).toEqual(['BETA']);
    expect(tickers(searchTokenRows(rows, 'xyzA'))).toEqual(['BETA']);
    expect(tickers(searchTokenRows(rows, '  '))).toEqual(['ADOG', 'BETA', 'GDOG']);
    expect(searchTokenRows(rows, 'nothing')).toEqual([]);
  });

  it('sorts newest first by default; a new column starts ascending, the same one flips', () => {
    expect(tickers(sortTokenRows(rows, DEFAULT_TOKEN_SORT))).toEqual(['ADOG', 'BETA', 'GDOG']);
    const byTicker = nextTokenSort(DEFAULT_TOKEN_SORT, 'ticker');
    expect(byTicker).toEqual({ key: 'ticker', direction: 'asc' });
    expect(nextTokenSort(byTicker, 'ticker')).toEqual({ key: 'ticker', direction: 'desc' });
    expect(nextTokenSort({ key: 'created_at', direction: 'desc' }, 'created_at').direction).toBe('asc');
    expect(tickers(sortTokenRows(rows, { key: 'ticker', direction: 'desc' }))).toEqual([
      'GDOG',
      'BETA',
      'ADOG',
    ]);
    expect(tickers(sortTokenRows(rows, { key: 'created_at', direction: 'asc' }))).toEqual([
      'GDOG',
      'BETA',
      'ADOG',
    ]);
  });

  it('sorts figures numerically with missing ones last in both directions', () => {
    expect(tickers(sortTokenRows(rows, { key: 'price', direction: 'asc' }))).toEqual([
      'GDOG',
      'ADOG',
      'BETA',
    ]);
    expect(tickers(sortTokenRows(rows, { key: 'price', direction: 'desc' }))).toEqual([
      'ADOG',
      'GDOG',
      'BETA',
    ]);
    expect(tickers(sortTokenRows(rows, { key: 'holders', direction: 'desc' }))).toEqual([
      'BETA',
      'ADOG',
      'GDOG',
    ]);
    expect(tickers(sortTokenRows(rows, { key: 'marketCap', direction: 'asc' }))).toEqual([
      'GDOG',
      'ADOG',
      'BETA',
    ]);
  });

  it('sorts the Price column by one unit (USD), never XRP against USD figures', () => {
    const x = token(7);
    const r = token(8, { liquidity_pair: 'RLUSD' });
    const mixed = mergePrices(new Map(), [
      // Shown as 0.5 XRP, worth $1.10.
      price(x, '0.5', { priceInUSD: '1.1' }),
      // Shown as 0.8 USD: higher as a bare number, cheaper in fact.
      price(r, '0.3636', { liquidityPair: 'RLUSD', priceInUSD: '0.8' }),
    ]);
    const two = [x, r].map((t) => toTokenRow(t, { ...noStats, prices: mixed }, NOW));
    expect(two.map((row) => `${row.priceFormatted} ${row.pair}`)).toEqual(['0.5 XRP', '0.8 RLUSD']);
    expect(tickers(sortTokenRows(two, { key: 'price', direction: 'asc' }))).toEqual(['TK8', 'TK7']);
    expect(tickers(sortTokenRows(two, { key: 'price', direction: 'desc' }))).toEqual(['TK7', 'TK8']);
  });

  it('pages by 10 with at least one page, clamping the page number', () => {
    const many = Array.from({ length: 23 }, (_, i) => i);
    expect(paginate(many, 1)).toMatchObject({ page: 1, pages: 3, rows: many.slice(0, 10) });
    expect(paginate(many, 3).rows).toEqual([20, 21, 22]);
    expect(paginate(many, 9).page).toBe(3);
    expect(paginate(many, 0).page).toBe(1);
    expect(pageLabel(paginate([], 1))).toBe('Page 1 / 1');
    expect(pageLabel(paginate(many.slice(0, 10), 1))).toBe('Page 1 / 1');
    expect(pageLabel(paginate(many.slice(0, 11), 2))).toBe('Page 2 / 2');
  });
});

describe('stats polling backoff', () => {
  it('starts after 100 ms and refreshes every 5 s', () => {
    expect(firstStatsDelay()).toBe(STATS_FIRST_REFRESH_MS);
    expect(STATS_FIRST_REFRESH_MS).toBe(100);
    expect(nextStatsPoll(initialStatsPoll(), 'ok').delayMs).toBe(STATS_REFRESH_MS);
  });
  it('waits 5 s on a 429, doubling to a 60 s cap, and resets on success', () => {
    let state = initialStatsPoll();
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const step = nextStatsPoll(state, 'rate-limited');
      state = step.state;
      delays.push(step.delayMs);
    }
    const expected = [0, 1, 2, 3, 4, 5].map((i) =>
      Math.min(RATE_LIMIT_RETRY_START_MS * 2 ** i, RATE_LIMIT_RETRY_CAP_MS),
    );
    expect(delays).toEqual(expected);
    expect(delays.at(-1)).toBe(60_000);
    // A plain failure keeps the current delay; a success resets it.
    expect(nextStatsPoll(state, 'failed')).toEqual({ state, delayMs: RATE_LIMIT_RETRY_CAP_MS });
    const ok = nextStatsPoll(state, 'ok');
    expect(ok).toEqual({ state: { retryMs: null }, delayMs: STATS_REFRESH_MS });
    expect(nextStatsPoll(ok.state, 'rate-limited').delayMs).toBe(RATE_LIMIT_RETRY_START_MS);
  });
  it("recognises 429 and 'Too Many Requests'", () => {
    expect(isRateLimited({ status: 429, message: 'x' })).toBe(true);
    expect(isRateLimited(new Error('Too Many Requests'))).toBe(true);
    expect(isRateLimited({ status: 500, message: 'Server error' })).toBe(false);
    expect(isRateLimited(undefined)).toBe(false);
  });
});

describe('card on-ramp widget', () => {
  it('requires an API key, then a container that exists', () => {
    expect(onrampConfigError({ apiKey: '' })).toBe(ONRAMP_MESSAGES.apiKey);
    expect(onrampConfigError({ apiKey: null })).toBe('Please enter your API Key');
    expect(onrampConfigError({ apiKey: 'k', containerId: 'nope' }, () => false)).toBe(
      'Please enter a valid containerId',
    );
    expect(onrampConfigError({ apiKey: 'k', containerId: 'here' }, (id) => id === 'here')).toBeNull();
    expect(onrampConfigError({ apiKey: 'k' })).toBeNull();
  });
  it('defaults to theme 1461db and 480 × 650; the home instance is XRP on xrpl, 450 × 600, with the email', () => {
    expect(onrampLayout({})).toEqual({ themeColor: '1461db', width: '480px', height: '650px' });
    expect(CARD_WIDGET_DEFAULTS.themeColor).toBe('1461db');
    const home = homeOnrampConfig({ apiKey: 'pk_test', environment: 'STAGING' }, 'a@b.example');
    expect(home).toMatchObject({ cryptoCurrencyCode: 'XRP', network: 'xrpl', email: 'a@b.example' });
    expect(onrampLayout(home)).toEqual({ themeColor: '1461db', width: '450px', height: '600px' });
    const url = new URL(onrampWidgetUrl(home));
    expect(url.origin).toBe('https://global-stg.transak.com');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      apiKey: 'pk_test',
      themeColor: '1461db',
      cryptoCurrencyCode: 'XRP',
      network: 'xrpl',
      email: 'a@b.example',
      userData: JSON.stringify({ email: 'a@b.example' }),
    });
    expect(new URL(onrampWidgetUrl({ ...home, environment: 'PRODUCTION' })).origin).toBe(
      'https://global.transak.com',
    );
    expect(homeOnrampConfig({ apiKey: 'k', environment: 'STAGING' }, null).email).toBeUndefined();
  });
  it('maps every posted event and ignores anything else', () => {
    const ids = [
      ['TRANSAK_WIDGET_INITIALISED', 'initialised'],
      ['TRANSAK_ORDER_CREATED', 'orderCreated'],
      ['TRANSAK_ORDER_SUCCESSFUL', 'orderSuccessful'],
      ['TRANSAK_ORDER_CANCELLED', 'orderCancelled'],
      ['TRANSAK_ORDER_FAILED', 'orderFailed'],
      ['TRANSAK_WALLET_REDIRECTION', 'walletRedirection'],
      ['TRANSAK_WIDGET_CLOSE', 'widgetClose'],
      ['TRANSAK_USER_INFO_RECEIVED', 'userInfoReceived'],
    ] as const;
    for (const [id, name] of ids)
      expect(onrampEvent({ event_id: id, data: { n: 1 } })).toEqual({ name, data: { n: 1 } });
    expect(onrampEvent({ event_id: 'OTHER' })).toBeNull();
    expect(onrampEvent('TRANSAK_WIDGET_CLOSE')).toBeNull();
    expect(onrampEvent(null)).toBeNull();
  });
});

describe('blackholeFlags', () => {
  it('keeps boolean flags only', () => {
    expect(blackholeFlags({ rA: true, rB: false, rC: 'yes', rD: 1 })).toEqual({ rA: true, rB: false });
    expect(blackholeFlags(null)).toEqual({});
    expect(blackholeFlags([true])).toEqual({});
  });
});

describe('tokenLinks', () => {
  it('drops "N/A", empty and non-http values', () => {
    expect(
      tokenLinks({
        Twitter: '"N/A"',
        Website: 'https://example.com/x',
        Telegram: 'javascript:alert(1)',
      }),
    ).toEqual([{ label: 'Website', url: 'https://example.com/x' }]);
    expect(tokenLinks({ Twitter: 'N/A', Website: '', Telegram: 'https://t.me/abc' })).toEqual([
      { label: 'Telegram', url: 'https://t.me/abc' },
    ]);
    expect(tokenLinks(null)).toEqual([]);
  });
});

describe('legal constants', () => {
  it('names exactly the nine restricted jurisdictions the terms count', () => {
    // The spec gives their number only: nine.
    expect(RESTRICTED_JURISDICTIONS).toHaveLength(9);
    expect(new Set(RESTRICTED_JURISDICTIONS).size).toBe(9);
  });
});

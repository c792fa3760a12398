import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from '../../server/test/helpers/wait';
import {
  RLUSD_CURRENCY_HEX,
  SWAP_MESSAGES,
  type FeesConfig,
  type QuoteView,
  type SwapResult,
  type User,
  type WalletBalance,
} from '@ledgerpad/shared';
import { SwapPage, SwapPanel } from '../src/features/swap/swap-page';
import { stubFetch, withProviders, type FetchAnswer } from './support';

// The swap box against stubbed API answers (the server's payload shapes): what it discloses before
// the click, worked out by hand from the quote; how loudly it warns; what its button says when it
// cannot send; and what it sends (one Idempotency-Key per action, nothing when it must not).

const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const RLUSD_ISSUER = 'rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De';
const A = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const B = 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf';
const C = 'r4nmQNH4Fhjfh6cHDbvVSsBv7KySbj4cBf';
const USER: User = {
  id: 7,
  username: 'trader',
  first_name: null,
  photo_url: null,
  email: null,
  telegram_id: null,
  google_id: null,
  created_at: '2026-01-01T00:00:00Z',
  isAdmin: false,
};
const FEES: FeesConfig = {
  service_fee: '15',
  issuer_reserve: '1.1',
  hot_wallet_reserve: '2',
  airdrop_fee_xrp: '2',
  owner_reserve: '0.2',
  network_fee_allowance: '0.001',
  trading_fee_percent: '0.75',
  base_reserve: '1',
  base_fee: '0.00001',
  bonding: {} as FeesConfig['bonding'],
};

const wallet = (address: string, name: string | null, balance: string, extra: Partial<WalletBalance> = {}) =>
  ({
    id: address.length,
    wallet_address: address,
    wallet_name: name,
    balance,
    status: 'Activated',
    ledgerReserve: '1',
    tokens: [],
    trustlines: [],
    ...extra,
  }) as WalletBalance;

let wallets: WalletBalance[];
let quote: (body: Record<string, unknown>) => FetchAnswer;
let swap: (body: Record<string, unknown>) => FetchAnswer;
let batchQuote: (body: Record<string, unknown>) => FetchAnswer;
let pair: 'XRP' | 'RLUSD';
let savedSlippage: string;
let fetchMock: ReturnType<typeof stubFetch>['fn'];

const calls = (path: string) =>
  fetchMock.mock.calls.filter(([input]) => new URL(String(input), 'http://localhost').pathname === path);
const sentHeaders = (path: string) =>
  calls(path).map(([, init]) => (init?.headers ?? {}) as Record<string, string>);
const sentBodies = (path: string) =>
  calls(path).map(([, init]) => JSON.parse(String(init?.body)) as Record<string, unknown>);

beforeEach(() => {
  localStorage.clear();
  pair = 'XRP';
  savedSlippage = '0.50';
  wallets = [wallet(A, 'Main', '101')];
  quote = () => undefined;
  swap = () => undefined;
  batchQuote = () => undefined;
  ({ fn: fetchMock } = stubFetch((path, body) => {
    const b = (body ?? {}) as Record<string, unknown>;
    if (path === '/api/session') return { body: { user: USER } };
    if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
    if (path === '/api/wallets/balances') return { body: wallets };
    if (path === '/api/config/fees') return { body: FEES };
    if (path === '/api/config/rlusd') return { body: { issuer: RLUSD_ISSUER, currency: RLUSD_CURRENCY_HEX } };
    if (path.startsWith('/api/user/slippage/')) return { body: { slippage: savedSlippage } };
    if (path === '/api/user/slippage') return { body: b };
    if (path.startsWith(`/api/tokens/${ISSUER}/stats`))
      return {
        body: {
          issuer: ISSUER,
          currency: 'TKN',
          liquidityPair: pair,
          priceInXRP: '0.0081',
          priceInUSD: '0.0178',
          marketCapInUSD: '8432',
          liquidityUSD: '1000',
          supply: '1000000',
          holders: 3,
          ledger: 10,
        },
      };
    if (path === '/api/amm-info') return quote(b);
    if (path === '/api/swap/batch/quote') return batchQuote(b);
    if (path === '/api/swap') return swap(b);
    return undefined;
  }));
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const open = async (path = `/swap?issuer=${ISSUER}&currency=TKN`) => {
  render(withProviders(<SwapPage />, path));
  await screen.findByLabelText('Wallet');
};
const amountField = () => screen.getByLabelText(/^Amount \(/) as HTMLInputElement;
const submitButton = () =>
  screen.getByRole('button', {
    name: /^(Buy|Sell|Swap|Confirm|Insufficient|Estimating|Enter|Price impact|Please)/,
  }) as HTMLButtonElement;
const row = (testId: string) => screen.getByTestId(testId).textContent;

/** A quote as the server answers it (the figures each test works out by hand). */
const quoteView = (over: Partial<QuoteView>): QuoteView => ({
  status: 'success',
  tokenAmountRounded: '0',
  spend: '0',
  receive: '0',
  quote: 'XRP',
  effectivePrice: '1',
  spotPrice: '1',
  priceImpactPercent: '0.00',
  fee: '0',
  partial: false,
  feePercent: '0.75',
  feeInPrice: '0',
  networkFee: '0.00003',
  reserve: '0',
  opensTrustLine: false,
  ...over,
});

describe('the disclosure, worked out by hand', () => {
  it('a pool + book buy: you pay amount + fee + network fees + the trust line reserve; minimum at 0.50%; both rates', async () => {
    wallets = [wallet(A, 'Main', '201')];
    // 100 XRP: 40 XRP take a resting ask of 5,000 TKN at 0.008, the other 60 XRP go through the
    // pool for 7,345.678901 TKN: 12,345.678901 TKN for 100 XRP in all.
    quote = () => ({
      body: quoteView({
        spend: '100',
        receive: '12345.678901',
        tokenAmountRounded: '12345.678901',
        effectivePrice: '0.00810000007290000066', // 100 / 12,345.678901
        spotPrice: '0.0079',
        priceImpactPercent: '2.53',
        fee: '0.75',
        opensTrustLine: true,
        reserve: '0.2',
      }),
    });
    await open();
    fireEvent.change(amountField(), { target: { value: '100' } });
    await screen.findByTestId('disclosure');
    // 100 + 0.75 + 0.00003 = 100.75003 XRP, to the drop; the 0.2 XRP reserve is locked, not paid:
    // its own line (issue 39). The balance check still counts it.
    expect(row('you-pay')).toBe('100.75003 XRP');
    expect(screen.getByText('Reserve locked')).toBeTruthy();
    expect(row('pay-amount')).toBe('100 XRP');
    expect(row('platform-fee')).toBe('0.75 XRP');
    expect(screen.getByText('Platform fee (0.75%)')).toBeTruthy();
    expect(row('network-fee')).toBe('0.00003 XRP');
    expect(row('reserve')).toContain('0.2 XRP');
    expect(row('you-receive')).toBe('≈ 12,345.678901 TKN');
    // 12,345.678901 × (1 − 0.005) = 12,345.678901 − 61.728394505 = 12,283.950506495, which a ledger
    // amount carries whole (14 significant digits) and the screen shows at 6 decimals, rounded down;
    // the whole floor is in the tooltip.
    expect(row('minimum-received')).toBe('12,283.950506 TKN');
    expect(screen.getByTestId('minimum-received').querySelector('[title]')?.getAttribute('title')).toBe(
      '12,283.950506495 TKN',
    );
    expect(screen.getByText('Minimum received (0.50% slippage)')).toBeTruthy();
    // 100 / 12,345.678901 = 0.0081000… XRP per TKN; 123.45678901 TKN per XRP, 4 significant digits.
    expect(row('rate')).toContain('1 TKN = 0.0081 XRP');
    expect(row('rate')).toContain('1 XRP = 123.5 TKN');
    expect(row('price-impact')).toBe('2.53%');
    // Below 5%: no warning, the button says what it does.
    expect(screen.queryByRole('note')).toBeNull();
    expect(submitButton().textContent).toBe('Buy');
    expect(submitButton().disabled).toBe(false);
  });

  it('a curve step: the fee is inside the price, on its own line, and not charged again', async () => {
    // 5 XRP on the curve: the asks are value + ⌊value × 0.75%⌋, so 5 XRP holds 4.962779 XRP of value
    // and 0.037221 XRP of fee; nothing else is charged. Network fees: the line and the trade.
    quote = () => ({
      body: quoteView({
        spend: '5',
        receive: '4821766.3',
        effectivePrice: '0.00000103696',
        spotPrice: '0.00000102',
        priceImpactPercent: '1.66',
        fee: '0',
        feeInPrice: '0.037221',
        curveFeePercent: '0.75',
        networkFee: '0.00002',
        reserve: '0.2',
        opensTrustLine: true,
      }),
    });
    await open();
    fireEvent.change(amountField(), { target: { value: '5' } });
    await screen.findByTestId('disclosure');
    expect(row('curve-fee')).toContain('0.037221 XRP');
    expect(screen.getByText("Platform fee (0.75%), in the curve's price")).toBeTruthy();
    // No second fee line with 0: the fee is shown once, where it is paid.
    expect(screen.queryByTestId('platform-fee')).toBeNull();
    // 5 + 0.00002 = 5.00002 XRP paid; 0.2 XRP locked.
    expect(row('you-pay')).toBe('5.00002 XRP');
    expect(row('reserve')).toContain('0.2 XRP');
    expect(row('you-receive')).toBe('≈ 4,821,766.3 TKN');
    // 4,821,766.3 × 0.995 = 4,797,657.4685.
    expect(row('minimum-received')).toBe('4,797,657.4685 TKN');
    // Prices this small read with the subscript zero count.
    expect(row('rate')).toContain('1 TKN = 0.0₅1037 XRP');
  });

  it("a curve buy has a price impact against the curve's next price, and the same warnings (issue 39)", async () => {
    // 900 XRP up the curve averages 0.0₅1228 XRP per token where the next chunk asks 0.0₅102:
    // (0.00001228 − 0.0000102) / 0.0000102 = 20.39%: above 15%, its own confirmation step.
    quote = () => ({
      body: quoteView({
        spend: '900',
        receive: '73289902.28',
        effectivePrice: '0.00001228',
        spotPrice: '0.0000102',
        priceImpactPercent: '20.39',
        impactAgainst: 'curve',
        fee: '0',
        feeInPrice: '6.699',
        curveFeePercent: '0.75',
      }),
    });
    wallets = [wallet(A, 'Main', '1001')];
    await open();
    fireEvent.change(amountField(), { target: { value: '900' } });
    await screen.findByTestId('disclosure');
    expect(row('price-impact')).toBe("20.39% against the curve's next price");
    expect(screen.getByTestId('price-impact').closest('.disclosure-row')!.className).toContain(
      'impact-confirm',
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'High price impact: 20.39%. You will be asked to confirm.',
    );
  });

  it('XRP ⇄ RLUSD, RLUSD → XRP: pays RLUSD plus XRP network fees; the fee comes out of the XRP received', async () => {
    wallets = [
      wallet(A, 'Main', '101', {
        tokens: [
          {
            currency: 'RLUSD',
            currencyCode: RLUSD_CURRENCY_HEX,
            issuer: RLUSD_ISSUER,
            realIssuer: RLUSD_ISSUER,
            value: '25',
          },
        ],
        trustlines: [{ currency: 'RLUSD', currencyCode: RLUSD_CURRENCY_HEX, issuer: RLUSD_ISSUER }],
      }),
    ];
    // 10 RLUSD → 4.545454 XRP at 2.2 RLUSD per XRP; the fee 0.75% of 4.545454 = 0.034090 XRP (down
    // to the drop); network fees of the trade and the fee payment, 0.00002 XRP.
    quote = (b) => {
      expect(b).toMatchObject({
        tradeType: 'SELL',
        amountToken: '10',
        baseAsset: 'XRP',
        issuer: RLUSD_ISSUER,
      });
      return {
        body: quoteView({
          spend: '10',
          receive: '4.545454',
          effectivePrice: '0.4545454',
          spotPrice: '0.4545454545',
          priceImpactPercent: '0.00',
          fee: '0.03409',
          networkFee: '0.00002',
        }),
      };
    };
    await open('/swap');
    fireEvent.click(await screen.findByRole('button', { name: 'XRP ⇄ RLUSD' }));
    fireEvent.click(screen.getByRole('button', { name: 'RLUSD → XRP' }));
    expect(screen.getByTestId('rlusd-amount-balance').textContent).toBe('Balance: 25 RLUSD');
    fireEvent.change(screen.getByLabelText('Amount (RLUSD)'), { target: { value: '10' } });
    await screen.findByTestId('disclosure');
    expect(row('you-pay')).toBe('10 RLUSD + 0.00002 XRP');
    expect(row('platform-fee')).toBe('0.03409 XRP from what you receive');
    expect(row('you-receive')).toBe('≈ 4.545454 XRP');
    // 4.545454 − 0.03409 − 0.00002 = 4.511344 XRP kept, net of the platform fee and network fees.
    expect(screen.getByText('After the platform fee and network fees')).toBeTruthy();
    expect(row('receive-after-fee')).toBe('≈ 4.511344 XRP');
    // 4.545454 × 0.995 = 4.52272673 → the ledger's floor is whole drops, rounded down: 4.522726.
    expect(row('minimum-floor')).toBe('4.522726 XRP');
    // Net (issue 39): the fee on the floor, 0.75% of 4.522726 = 0.03392 XRP (to the drop), and the
    // network fees come out of it: 4.522726 − 0.03392 − 0.00002 = 4.488786 XRP.
    expect(screen.getByText('Minimum received after fees (0.50% slippage)')).toBeTruthy();
    expect(row('minimum-received')).toBe('4.488786 XRP');
    expect(row('rate')).toContain('1 RLUSD = 0.4545 XRP');
    expect(row('rate')).toContain('1 XRP = 2.2 RLUSD');
    expect(submitButton().textContent).toBe('Swap');
  });
});

describe('warnings scale with harm', () => {
  const withImpact = (impact: string) => {
    quote = () => ({
      body: quoteView({
        spend: '10',
        receive: '1000',
        effectivePrice: '0.01',
        priceImpactPercent: impact,
        fee: '0.075',
      }),
    });
    swap = () => ({
      body: {
        status: 'success',
        swappedAmount: '1000.000000',
        spent: '10',
        received: '1000',
        quote: 'XRP',
        hash: 'H'.repeat(64),
        fee: '0.075',
        message: '✅ 1 swap(s) successful!',
      } satisfies SwapResult,
    });
  };
  const typeAmount = async () => {
    fireEvent.change(amountField(), { target: { value: '10' } });
    await screen.findByTestId('disclosure');
  };

  it('5% and below: nothing; above 5%: amber', async () => {
    withImpact('5.00');
    await open();
    await typeAmount();
    expect(screen.queryByRole('note')).toBeNull();
    cleanup();
    withImpact('5.01');
    await open();
    await typeAmount();
    expect(screen.getByRole('note').textContent).toBe(
      'Price impact 5.01%: this trade moves the price noticeably.',
    );
    expect(screen.getByTestId('price-impact').closest('.disclosure-row')!.className).toContain('impact-warn');
    expect(submitButton().textContent).toBe('Buy');
  });

  it('above 15%: a click opens its own confirmation step naming the impact; only a deliberate click there sends', async () => {
    withImpact('18.23');
    await open();
    await typeAmount();
    expect(screen.getByRole('alert').textContent).toBe(
      'High price impact: 18.23%. You will be asked to confirm.',
    );
    fireEvent.click(submitButton());
    const dialog = await screen.findByRole('alertdialog', { name: 'High price impact' });
    expect(dialog.textContent).toContain('This trade moves the price by 18.23%');
    const confirm = within(dialog).getByRole('button', { name: 'Confirm: buy at 18.23% price impact' });
    // Just appeared: not ready for a click (the second click of a double click lands here).
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(confirm);
    expect(calls('/api/swap')).toHaveLength(0);
    await waitFor(() => expect((confirm as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(confirm);
    await waitFor(() => expect(calls('/api/swap')).toHaveLength(1));
    expect(await screen.findByText('✅ 1 swap(s) successful!')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('leaving the confirmation step sends nothing, and the next click asks again', async () => {
    withImpact('18.23');
    await open();
    await typeAmount();
    fireEvent.click(submitButton());
    await screen.findByRole('alertdialog', { name: 'High price impact' });
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls('/api/swap')).toHaveLength(0);
    fireEvent.click(submitButton());
    expect(await screen.findByRole('alertdialog', { name: 'High price impact' })).toBeTruthy();
    expect(calls('/api/swap')).toHaveLength(0);
  });

  it("above 50%: disabled with the reason until 'I understand' is ticked", async () => {
    withImpact('62.10');
    await open();
    await typeAmount();
    expect(submitButton().textContent).toBe('Price impact too high');
    expect(submitButton().disabled).toBe(true);
    expect(screen.getByTestId('submit-detail').textContent).toBe(
      "This trade would move the price by 62.10%. Tick 'I understand' to trade anyway.",
    );
    fireEvent.click(submitButton());
    expect(calls('/api/swap')).toHaveLength(0);
    fireEvent.click(screen.getByLabelText(/I understand: this trade moves the price by 62.10%/));
    expect(submitButton().textContent).toBe('Buy');
    fireEvent.click(submitButton());
    await waitFor(() => expect(calls('/api/swap')).toHaveLength(1));
  });
});

describe('the button says why it cannot send', () => {
  it("more than the wallet can pay: 'Insufficient XRP balance' with both figures, no quote, nothing sent", async () => {
    await open();
    // 101 XRP less the 1 XRP reserve leaves 100 available; 100 itself also needs the fee.
    fireEvent.change(amountField(), { target: { value: '100' } });
    expect(submitButton().textContent).toBe('Insufficient XRP balance');
    expect(submitButton().disabled).toBe(true);
    // 100 + 0.75 fee + 3 network fees of 0.00001 + the new line's 0.2 reserve = 100.95003.
    expect(screen.getByTestId('submit-detail').textContent).toBe(
      'Insufficient balance: you have 100 XRP available, this needs 100.95003 XRP.',
    );
    fireEvent.click(submitButton());
    await act(() => sleep(400));
    expect(calls('/api/amm-info')).toHaveLength(0);
    expect(calls('/api/swap')).toHaveLength(0);
  });

  it("ALL IN, 'Available' and the balance check take off the fee still owed, as the server does (issue 39)", async () => {
    // A trade a moment ago: its 0.081085 XRP platform fee is owed until the fee job pays it.
    wallets = [
      wallet(A, 'Main', '101', {
        spendable: {
          ownerCount: 0,
          available: '99.918915',
          committed: '0.081085',
          baseReserve: '1',
          ownerReserve: '0.2',
          networkFee: '0.00001',
          tradingFeePercent: '0.75',
        },
      }),
    ];
    await open();
    // 101 − 1 reserve − 0.081085 owed = 99.918915 XRP available.
    expect(screen.getByText('Available: 99.918915 XRP')).toBeTruthy();
    // ALL IN: 99.2% of 99.918915 − 3 × 0.00001 − 0.2 (the new line) = 99.718885 → 98.921133 XRP
    // (99,718,885 × 0.992 = 98,921,133.92 drops, down), under the fee's cap 99,718,885 / 1.0075.
    fireEvent.click(screen.getByRole('button', { name: 'ALL IN' }));
    expect(amountField().value).toBe('98.921133');
    // 99.05 fits the balance but not with the fee owed: 99.05 + 0.742875 + 0.00003 + 0.2 = 99.992905.
    fireEvent.change(amountField(), { target: { value: '99.05' } });
    expect(submitButton().textContent).toBe('Insufficient XRP balance');
    expect(screen.getByTestId('submit-detail').textContent).toBe(
      'Insufficient balance: you have 99.918915 XRP available, this needs 99.992905 XRP.',
    );
  });

  it('a sell above the holding says which token is short', async () => {
    wallets = [
      wallet(A, 'Main', '101', {
        tokens: [{ currency: 'TKN', currencyCode: 'TKN', issuer: ISSUER, realIssuer: ISSUER, value: '50' }],
        trustlines: [{ currency: 'TKN', currencyCode: 'TKN', issuer: ISSUER }],
      }),
    ];
    await open();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Sell' }), { button: 0 });
    fireEvent.click(await screen.findByRole('button', { name: /^TKN/ }));
    fireEvent.change(amountField(), { target: { value: '50.5' } });
    expect(submitButton().textContent).toBe('Insufficient TKN balance');
    expect(screen.getByTestId('submit-detail').textContent).toBe(
      'Insufficient balance: you have 50 TKN available, this needs 50.5 TKN.',
    );
  });

  it("a sell's result is net: the platform fee and the network fees come out of what it received (issue 39)", async () => {
    wallets = [
      wallet(A, 'Main', '101', {
        tokens: [{ currency: 'TKN', currencyCode: 'TKN', issuer: ISSUER, realIssuer: ISSUER, value: '5000' }],
        trustlines: [{ currency: 'TKN', currencyCode: 'TKN', issuer: ISSUER }],
      }),
    ];
    quote = () => ({
      body: quoteView({
        spend: '1000',
        receive: '10.810075',
        effectivePrice: '0.010810075',
        fee: '0.081075',
        networkFee: '0.00002',
      }),
    });
    swap = () => ({
      body: {
        status: 'success',
        swappedAmount: '10.810075',
        spent: '1000',
        received: '10.810075',
        quote: 'XRP',
        hash: 'H'.repeat(64),
        fee: '0.081075',
        message: '✅ 1 swap(s) successful!',
      } satisfies SwapResult,
    });
    await open();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Sell' }), { button: 0 });
    fireEvent.click(await screen.findByRole('button', { name: /^TKN/ }));
    fireEvent.change(amountField(), { target: { value: '1000' } });
    await screen.findByTestId('disclosure');
    // Before the click the floor is net too, and says so: 10.810075 × 0.995 = 10.756024 XRP (to the
    // drop, down) signed; its 0.75% fee 0.08067 XRP (0.0806701… down to the drop) and the 0.00002 XRP
    // network fees come out of it: 10.756024 − 0.08067 − 0.00002 = 10.675334 XRP.
    expect(row('receive-after-fee')).toBe('≈ 10.72898 XRP');
    expect(screen.getByText('After the platform fee and network fees')).toBeTruthy();
    expect(screen.getByText('Minimum received after fees (0.50% slippage)')).toBeTruthy();
    expect(row('minimum-received')).toBe('10.675334 XRP');
    expect(row('minimum-floor')).toBe('10.756024 XRP');
    fireEvent.click(submitButton());
    // 10.810075 − 0.081075 − 0.00002 = 10.72898 XRP kept.
    expect((await screen.findByTestId('you-received')).textContent).toBe(
      'You received 10.72898 XRP after the platform fee and network fees',
    );
  });

  it('a stale validation message clears as the input becomes valid; a pasted 7th decimal is dropped, the rest kept', async () => {
    quote = () => ({ body: quoteView({ spend: '1.123456', receive: '100', effectivePrice: '0.01123456' }) });
    await open();
    expect(submitButton().textContent).toBe('Enter an amount');
    fireEvent.change(amountField(), { target: { value: '0' } });
    expect(submitButton().textContent).toBe(SWAP_MESSAGES.invalidAmount);
    // Pasting '1.1234567' keeps '1.123456' (the field takes 6 decimals), not an empty field.
    fireEvent.change(amountField(), { target: { value: '1.1234567' } });
    expect(amountField().value).toBe('1.123456');
    expect(screen.queryByText(SWAP_MESSAGES.invalidAmount)).toBeNull();
    await screen.findByTestId('disclosure');
    expect(submitButton().textContent).toBe('Buy');
  });

  it("never rewrites input: '-5' and '1e3' stay as typed, read invalid and are never quoted (issue 39)", async () => {
    quote = () => ({ body: quoteView({ spend: '2.5', receive: '100', effectivePrice: '0.025' }) });
    await open();
    for (const typed of ['-5', '1e3', '5 XRP', '1.2.3']) {
      fireEvent.change(amountField(), { target: { value: typed } });
      expect(amountField().value).toBe(typed);
      expect(amountField().getAttribute('aria-invalid')).toBe('true');
      expect(screen.getByTestId('swap-amount-text-error').textContent).toMatch(/^Not an amount/);
      expect(submitButton().textContent).toBe(SWAP_MESSAGES.invalidAmount);
      expect(submitButton().disabled).toBe(true);
    }
    // A comma is the decimal point: the same amount, not a rewrite into another one.
    fireEvent.change(amountField(), { target: { value: '2,5' } });
    expect(amountField().value).toBe('2.5');
    expect(amountField().getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByTestId('swap-amount-text-error')).toBeNull();
    await screen.findByTestId('disclosure');
    // One quote, for 2.5: none for any of the invalid texts.
    expect(sentBodies('/api/amm-info').map((b) => b.amountXrp)).toEqual(['2.5']);
  });
});

describe('what is sent', () => {
  const okSwap = (b: Record<string, unknown>): FetchAnswer => ({
    body: {
      status: 'success',
      swappedAmount: '100.000000',
      spent: String(b.amount),
      received: '100',
      quote: 'XRP',
      hash: 'H'.repeat(64),
      fee: '0.0075',
      message: '✅ 1 swap(s) successful!',
    } satisfies SwapResult,
  });

  it('one Idempotency-Key per action: the same on a retry after an unknown outcome, a new one after an answer', async () => {
    quote = () => ({
      body: quoteView({ spend: '1', receive: '100', effectivePrice: '0.01', fee: '0.0075' }),
    });
    let answers = 0;
    swap = (b) =>
      ++answers === 1
        ? { status: 503, body: { message: 'The XRP Ledger is not reachable right now. Please try again.' } }
        : okSwap(b);
    await open();
    fireEvent.change(amountField(), { target: { value: '1' } });
    await screen.findByTestId('disclosure');
    // A double click sends once.
    fireEvent.click(submitButton());
    fireEvent.click(submitButton());
    const error = await screen.findByRole('alert');
    expect(error.textContent).toBe('The XRP Ledger is not reachable right now. Please try again.');
    expect(calls('/api/swap')).toHaveLength(1);
    // The error stays (it does not fade): the retry of the same order carries the same key.
    await screen.findByRole('button', { name: 'Buy' });
    fireEvent.click(submitButton());
    await screen.findByText('✅ 1 swap(s) successful!');
    const [first, retry] = sentHeaders('/api/swap');
    expect(first!['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry!['idempotency-key']).toBe(first!['idempotency-key']);
    // The estimate the user saw goes with it: the ledger enforces the slippage against it.
    expect(sentBodies('/api/swap')[1]).toMatchObject({ amount: '1', expected: '100', slippage: '0.50' });
    expect(screen.getByTestId('you-received').textContent).toBe('You received 100 TKN');
    // The next order is a new action with a new key.
    fireEvent.change(amountField(), { target: { value: '1' } });
    await screen.findByTestId('disclosure');
    fireEvent.click(submitButton());
    await waitFor(() => expect(calls('/api/swap')).toHaveLength(3));
    expect(sentHeaders('/api/swap')[2]!['idempotency-key']).not.toBe(first!['idempotency-key']);
  });

  it("a multi-wallet buy names each wallet's outcome, styled by the worst, and never says 'Check logs'", async () => {
    wallets = [wallet(A, 'Main', '101'), wallet(B, null, '101'), wallet(C, 'Sniper', '101')];
    // Each wallet's own quote after the ones before it (issue 39): 100, 98 and 96.1 TKN; the second
    // opens its trust line.
    const receives = ['100', '98', '96.1'];
    batchQuote = (b) => {
      expect(b).toMatchObject({ type: 'BUY', slippage: '0.50', issuer: ISSUER, token: 'TKN' });
      return {
        body: {
          status: 'success',
          wallets: (b.orders as Array<{ walletAddress: string; amount: string }>).map((o, i) => ({
            walletAddress: o.walletAddress,
            amount: o.amount,
            quote: quoteView({
              spend: o.amount,
              receive: receives[i]!,
              effectivePrice: '0.02',
              fee: '0.015',
              ...(i === 1 ? { opensTrustLine: true, reserve: '0.2', networkFee: '0.00004' } : {}),
            }),
          })),
        },
      };
    };
    swap = (b) =>
      b.walletAddress === B
        ? {
            status: 400,
            body: {
              error: 'bad_request',
              message:
                'The price moved beyond your slippage tolerance: nothing was traded (only the network fee was paid).',
            },
          }
        : okSwap(b);
    await open();
    fireEvent.click(screen.getByLabelText('Multi-wallet mode'));
    const ticks = within(screen.getByRole('list', { name: 'Wallets to trade from' })).getAllByRole(
      'checkbox',
    );
    ticks.forEach((t) => fireEvent.click(t));
    fireEvent.change(amountField(), { target: { value: '2' } });
    // Each wallet's own figures before the click: amount, fee, trust line, estimate and the minimum
    // its trade signs (× 0.995: 99.5, 97.51, 95.6195).
    await screen.findByTestId('batch-disclosure');
    const rows = screen.getAllByTestId('batch-wallet');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByTestId('batch-amount').textContent).toBe('2 XRP');
    expect(within(rows[0]!).getByTestId('batch-fee').textContent).toBe('0.015 XRP');
    expect(within(rows[0]!).queryByTestId('batch-trust-line')).toBeNull();
    expect(within(rows[1]!).getByTestId('batch-trust-line').textContent).toBe(
      'reserve 0.2 XRP locked, not spent',
    );
    expect(rows.map((r) => within(r).getByTestId('batch-minimum').textContent)).toEqual([
      '99.5 TKN',
      '97.51 TKN',
      '95.6195 TKN',
    ]);
    expect(rows[2]!.textContent).toContain('Sniper');
    fireEvent.click(screen.getByRole('button', { name: 'Buy (3 wallets)' }));
    const result = await screen.findByTestId('trade-results');
    expect(result.querySelector('.trade-results-summary')!.textContent).toBe(
      '✅ 2 swap(s) successful! ⚠️ 1 swap(s) failed:',
    );
    const lines = within(result)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(lines).toEqual([
      'Main (rHb9CJ…tyTh): spent 2 XRP, received 100 TKN',
      'rGWrZy…QYpf: The price moved beyond your slippage tolerance: nothing was traded (only the network fee was paid).',
      'Sniper (r4nmQN…4cBf): spent 2 XRP, received 100 TKN',
    ]);
    expect(result.textContent).not.toContain('Check logs');
    // The amount the screen clears after sending is not the user's change: the result stays.
    await act(() => sleep(100));
    expect(screen.getByTestId('trade-results')).toBe(result);
    expect((screen.getByLabelText('Amount (XRP)') as HTMLInputElement).value).toBe('');
    expect(result.closest('[role]')!.getAttribute('role')).toBe('alert');
    // Each wallet its own key; one after another in the quoted order, each with the estimate shown.
    const keys = sentHeaders('/api/swap').map((h) => h['idempotency-key']);
    expect(new Set(keys).size).toBe(3);
    expect(sentBodies('/api/swap').map((b) => [b.walletAddress, b.expected])).toEqual([
      [A, '100'],
      [B, '98'],
      [C, '96.1'],
    ]);
  });

  it('a randomized buy draws its amounts before the click, shows each wallet, and sends those amounts (issue 39)', async () => {
    wallets = [wallet(A, 'Main', '101'), wallet(B, 'Second', '101')];
    batchQuote = (b) => ({
      body: {
        status: 'success',
        wallets: (b.orders as Array<{ walletAddress: string; amount: string }>).map((o) => ({
          walletAddress: o.walletAddress,
          amount: o.amount,
          quote: quoteView({ spend: o.amount, receive: '50', effectivePrice: '0.05', fee: '0.01' }),
        })),
      },
    });
    swap = (b) => okSwap(b);
    await open();
    fireEvent.click(screen.getByLabelText('Multi-wallet mode'));
    within(screen.getByRole('list', { name: 'Wallets to trade from' }))
      .getAllByRole('checkbox')
      .forEach((t) => fireEvent.click(t));
    fireEvent.click(screen.getByLabelText('Randomized buys'));
    fireEvent.change(screen.getByLabelText('Min (XRP)'), { target: { value: '1' } });
    fireEvent.change(screen.getByLabelText('Max (XRP)'), { target: { value: '3' } });
    await screen.findByTestId('batch-disclosure');
    const shown = screen.getAllByTestId('batch-amount').map((el) => el.textContent!.replace(' XRP', ''));
    expect(shown).toHaveLength(2);
    for (const a of shown) expect(Number(a) >= 1 && Number(a) <= 3).toBe(true);
    // Each wallet's own fee and minimum before the click too: 50 TKN × 0.995 = 49.75 TKN signed.
    expect(screen.getAllByTestId('batch-fee').map((el) => el.textContent)).toEqual(['0.01 XRP', '0.01 XRP']);
    expect(screen.getAllByTestId('batch-minimum').map((el) => el.textContent)).toEqual([
      '49.75 TKN',
      '49.75 TKN',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Buy (2 wallets)' }));
    await screen.findByTestId('trade-results');
    expect(sentBodies('/api/swap').map((b) => b.amount)).toEqual(shown);
  });

  it('starts from the saved slippage and saves a typed one on blur', async () => {
    savedSlippage = '0.75';
    await open();
    const field = screen.getByLabelText('Slippage (%)') as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('0.75'));
    fireEvent.change(field, { target: { value: '1.255' } });
    expect(field.value).toBe('1.25');
    fireEvent.blur(field);
    await waitFor(() => expect(sentBodies('/api/user/slippage')).toEqual([{ slippage: '1.25' }]));
  });
});

describe('on the token page (issue 39: trade where you look)', () => {
  it('is the same box with its token fixed: Buy and Sell, market and limit, no picker, no liquidity or RLUSD mode', async () => {
    quote = () => ({
      body: quoteView({ spend: '1', receive: '100', effectivePrice: '0.01', fee: '0.0075' }),
    });
    swap = (b) => ({
      body: {
        status: 'success',
        swappedAmount: '100.000000',
        spent: String(b.amount),
        received: '100',
        quote: 'XRP',
        hash: 'H'.repeat(64),
        fee: '0.0075',
        message: '✅ 1 swap(s) successful!',
      } satisfies SwapResult,
    });
    render(withProviders(<SwapPanel lockedToken={{ issuer: ISSUER, code: 'TKN', ticker: 'TKN' }} />));
    await screen.findByLabelText('Wallet');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Buy', 'Sell']);
    const modes = within(screen.getByRole('group', { name: 'Order mode' })).getAllByRole('button');
    expect(modes.map((m) => m.textContent)).toEqual(['Market', 'Limit']);
    expect(screen.queryByLabelText(/^Token/)).toBeNull();
    // The same disclosure and guards as /swap, for this token.
    fireEvent.change(amountField(), { target: { value: '1' } });
    await screen.findByTestId('disclosure');
    expect(screen.getByTestId('swap-price').textContent).toBe('Price 0.0081 XRP');
    fireEvent.click(submitButton());
    await screen.findByText('✅ 1 swap(s) successful!');
    expect(sentBodies('/api/swap')[0]).toMatchObject({
      issuer: ISSUER,
      token: 'TKN',
      amount: '1',
      type: 'BUY',
    });
  });
});

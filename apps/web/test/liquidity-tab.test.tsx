import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIQUIDITY_MESSAGES, type WalletBalance } from '@ledgerpad/shared';
import { LiquidityTab } from '../src/features/swap/liquidity-tab';
import { clickWhenReady, stubFetch, withProviders, type FetchAnswer } from './support';

// The Liquidity tab of /swap against stubbed API answers: the LP balance (0.00 when it cannot be
// read), the both-assets ratio field, the LP presets (100% = 99.99%) and cap, the screen's own
// refusals (nothing sent), the vote's percent × 1000 and its messages, and the failure lines.

const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const WALLET: WalletBalance = {
  id: 1,
  wallet_address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  wallet_name: 'Main',
  balance: '21.2',
  status: 'Activated',
  // Base reserve 1 + two lines × 0.2: 19.8 XRP available.
  ledgerReserve: '1.4',
  tokens: [{ currency: 'LIQ', currencyCode: 'LIQ', issuer: ISSUER, realIssuer: ISSUER, value: '30000' }],
  trustlines: [{ currency: 'LIQ', currencyCode: 'LIQ', issuer: ISSUER }],
};
const FEES = {
  owner_reserve: '0.2',
  base_reserve: '1',
  base_fee: '0.00001',
  trading_fee_percent: '0.75',
};
const TOKEN = { issuer: ISSUER, code: 'LIQ', ticker: 'LIQ' };

let balance: FetchAnswer;
let position: FetchAnswer;
let auction: FetchAnswer;
let writes: Record<string, FetchAnswer>;
let sent: Array<{ path: string; body: unknown }>;

const POSITION = {
  status: 'success',
  quote: 'XRP',
  lpBalance: '100',
  lpTotal: '14142',
  share: '0.707113',
  current: { base: '0.71', token: '1414.2', value: '1.42' },
  deposited: { base: '0.7', token: '1440' },
  holdValue: '1.42',
  pnl: '-0.004',
  feesEarned: '0.002',
  impermanentLoss: '-0.006',
  history: [
    {
      hash: 'A'.repeat(64),
      ledgerIndex: 40,
      time: null,
      kind: 'deposit',
      base: '0.7',
      token: '1440',
      lp: '100',
    },
  ],
};
const SLOT = {
  status: 'success',
  holder: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
  expiresAt: '2026-11-25T10:00:00.000Z',
  interval: 3,
  tradingFee: 300,
  discountedFee: 30,
  price: '2.345678',
  refund: '1.6',
  lpCurrency: '03' + 'B'.repeat(38),
};

beforeEach(() => {
  sent = [];
  balance = { body: { status: 'success', balance: '100' } };
  position = { body: POSITION };
  auction = { body: SLOT };
  writes = {};
  stubFetch((path, body) => {
    if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
    if (path === '/api/config/fees') return { body: FEES };
    if (path === '/api/lp-token-balance') return balance;
    if (path === '/api/lp-position') return position;
    if (path === '/api/amm-auction') return auction;
    if (path === '/api/get-lp-price')
      return {
        body: {
          status: 'success',
          lpPerBase: '70.7',
          lpPerToken: '0.0353',
          lpTotal: '14142',
          pool: { base: '100', token: '200000' },
          tradingFee: 300,
          ...((body as { amountLp?: string }).amountLp
            ? {
                expected: { double: { base: '0.5', token: '1000' }, singleBase: '0.99', singleToken: '1990' },
              }
            : {}),
          ...((body as { depositBase?: string }).depositBase
            ? {
                deposit: {
                  singleBase: '351.123456789',
                  ...((body as { depositToken?: string }).depositToken
                    ? { double: { lpTokens: '707.1', used: { base: '5', token: '10000' } } }
                    : {}),
                },
              }
            : {}),
        },
      };
    sent.push({ path, body });
    return writes[path];
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderTab = () => render(withProviders(<LiquidityTab wallet={WALLET} token={TOKEN} />));
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('Liquidity tab', () => {
  it('shows 0.00 when the LP balance cannot be read', async () => {
    balance = { status: 500, body: { message: 'Internal server error' } };
    renderTab();
    await waitFor(() => expect(screen.getByTestId('lp-balance').textContent).toContain('0.00'));
  });

  it('fills the other side of a both-assets deposit from the pool ratio, and clears it with the input', async () => {
    renderTab();
    click('Both Assets');
    const xrp = screen.getByRole('textbox', { name: 'Amount (XRP)' });
    const tok = screen.getByRole('textbox', { name: 'Amount (LIQ)' });
    await waitFor(() => expect(sent).toEqual([]));
    fireEvent.change(xrp, { target: { value: '0.1234567' } });
    expect((xrp as HTMLInputElement).value).toBe('0.123456'); // a pasted 7th decimal goes, the rest stays
    fireEvent.change(xrp, { target: { value: '5' } });
    await waitFor(() => expect((tok as HTMLInputElement).value).toBe('10000'));
    fireEvent.change(tok, { target: { value: '333' } });
    await waitFor(() => expect((xrp as HTMLInputElement).value).toBe('0.1665'));
    fireEvent.change(tok, { target: { value: '' } });
    await waitFor(() => expect((xrp as HTMLInputElement).value).toBe(''));
    // The button itself says what is missing, and sends nothing.
    expect(button(LIQUIDITY_MESSAGES.enterBoth).disabled).toBe(true);
    click(LIQUIDITY_MESSAGES.enterBoth);
    expect(sent).toEqual([]);
  });

  it('asks for the single-asset amount by its ticker and shows the failure line', async () => {
    renderTab();
    click('LIQ');
    expect(button('Please enter the amount of LIQ to add.').disabled).toBe(true);
    expect(sent).toEqual([]);
    writes['/api/add-liquidity'] = {
      status: 400,
      body: { error: 'bad_request', message: 'Failed to add liquidity: tecUNFUNDED_AMM' },
    };
    fireEvent.change(screen.getByRole('textbox', { name: 'Amount (LIQ)' }), { target: { value: '12' } });
    click('Add Liquidity');
    await waitFor(() =>
      expect(screen.getByTestId('liquidity-status').textContent).toBe(
        '❌ Failed to add liquidity: tecUNFUNDED_AMM',
      ),
    );
    expect(sent[0]!.body).toMatchObject({
      mode: 'single-asset',
      selectedAsset: { currency: 'LIQ', issuer: ISSUER },
      amountToken: '12',
      amountXrp: '',
    });
  });

  it('removes with the presets (100% = 99.99%) capped at the balance, and shows the expected withdrawal', async () => {
    renderTab();
    click('Remove');
    await waitFor(() => expect(screen.getByTestId('lp-balance').textContent).toContain('100'));
    expect(button(LIQUIDITY_MESSAGES.enterLp).disabled).toBe(true);
    expect(sent).toEqual([]);
    const lp = screen.getByRole('textbox', { name: 'LP tokens to withdraw' }) as HTMLInputElement;
    click('100%');
    expect(lp.value).toBe('99.99');
    fireEvent.change(lp, { target: { value: '150' } });
    expect(lp.value).toBe('100');
    click('50%');
    expect(lp.value).toBe('50');
    await waitFor(() =>
      expect(screen.getByTestId('expected-withdrawal').textContent).toBe(
        'Expected Withdrawal: 0.5 XRP + 1,000 LIQ',
      ),
    );
    click('Single-Asset (Fee Applies)');
    expect(lp.value).toBe('');
    expect(screen.getByRole('note').textContent).toContain(
      'incur a fee because they change the pool balance',
    );
    writes['/api/remove-liquidity'] = {
      body: {
        status: 'success',
        message: LIQUIDITY_MESSAGES.removed,
        hash: 'A',
        lpTokens: '25',
        withdrawn: {},
      },
    };
    click('25%');
    fireEvent.change(screen.getByLabelText('Limit price (LP tokens per XRP, optional)'), {
      target: { value: '30' },
    });
    click('Remove Liquidity');
    expect((await screen.findByText(LIQUIDITY_MESSAGES.removed)).getAttribute('role')).toBe('status');
    expect(sent[0]!.body).toMatchObject({
      amountLp: '25',
      mode: 'single',
      selectedAsset: { currency: 'XRP' },
      limitPrice: '30',
    });
  });

  it('a single-asset withdrawal whose limit the expected payout cannot meet is not sent (issue 39)', async () => {
    renderTab();
    click('Remove');
    await waitFor(() => expect(screen.getByTestId('lp-balance').textContent).toContain('100'));
    click('Single-Asset (Fee Applies)');
    click('25%');
    // 25 LP at 20 LP per XRP asks for at least 25 ÷ 20 = 1.25 XRP; the pool is expected to pay 0.99.
    fireEvent.change(screen.getByLabelText('Limit price (LP tokens per XRP, optional)'), {
      target: { value: '20' },
    });
    await waitFor(() => expect(button('Limit price cannot be met').disabled).toBe(true));
    expect(screen.getByTestId('liquidity-submit-detail').textContent).toBe(
      'This withdrawal is expected to pay 0.99 XRP, less than the 1.25 XRP your limit price asks for (LP tokens ÷ limit price): the ledger would refuse it. Nothing will be sent: lower the limit price or withdraw in another mode.',
    );
    // At 30 LP per XRP it asks for 0.8333… XRP: it can be met, and the button is back.
    fireEvent.change(screen.getByLabelText('Limit price (LP tokens per XRP, optional)'), {
      target: { value: '30' },
    });
    expect(button('Remove Liquidity').disabled).toBe(false);
    expect(sent.filter((x) => x.path === '/api/remove-liquidity')).toEqual([]);
  });

  it('votes with the percent × 1000; other values are cleared and empty is refused', async () => {
    renderTab();
    click('Vote on Fee');
    const fee = screen.getByLabelText('Proposed trading fee (%)') as HTMLInputElement;
    fireEvent.change(fee, { target: { value: '2' } });
    expect(fee.value).toBe('');
    expect(button(LIQUIDITY_MESSAGES.fillAll).disabled).toBe(true);
    expect(sent).toEqual([]);
    writes['/api/amm-vote'] = {
      body: {
        status: 'success',
        hash: 'A',
        tradingFee: 301,
        voteWeightPercent: '0.07',
        message: LIQUIDITY_MESSAGES.voteRecorded('0.07', '0.301'),
      },
    };
    fireEvent.change(fee, { target: { value: '0.25' } });
    click('Submit Vote');
    // The pool's fee after the vote is stated, not only the fee voted for (issue 39).
    await waitFor(() =>
      expect(screen.getByTestId('liquidity-status').textContent).toBe(
        '✅ Vote submitted successfully for fee: 0.25%. Your vote (weight 0.07%) is recorded; the pool fee is now 0.301%.',
      ),
    );
    expect(sent[0]).toMatchObject({
      path: '/api/amm-vote',
      body: { tradingFee: 250, wallet: WALLET.wallet_address },
    });
  });

  it('shows both balances, Max for each side, and the LP tokens the deposit will issue before adding', async () => {
    renderTab();
    expect(screen.getByTestId('liquidity-balances').textContent).toBe(
      'In this wallet: 19.8 XRP available · 30,000 LIQ',
    );
    // Max XRP: 19.8 available less the deposit's network fee (0.00001) and the reserve of the LP
    // line a first deposit opens (0.2): 19.59999 XRP.
    await waitFor(() => expect(screen.getByTestId('lp-balance').textContent).toContain('100'));
    balance = { body: { status: 'success', balance: '0' } };
    cleanup();
    renderTab();
    await waitFor(() => expect(screen.getByTestId('lp-balance').textContent).toContain('0.00'));
    // Max waits for the ledger's fee and reserve figures.
    await waitFor(() => expect(button('Max XRP').disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Max XRP' }));
    const xrp = screen.getByRole('textbox', { name: 'Amount (XRP)' }) as HTMLInputElement;
    await waitFor(() => expect(xrp.value).toBe('19.59999'));
    await waitFor(() =>
      expect(screen.getByTestId('lp-to-receive').textContent).toBe(
        // 351.123456789 on screen at 6 decimals, rounded down (issue 39's one format).
        'LP tokens you will receive: ≈ 351.123456 LP-LIQ',
      ),
    );
    expect(button('Add Liquidity').disabled).toBe(false);
    // Both assets: the pool takes what fits its ratio, and says how much of each.
    click('Both Assets');
    fireEvent.change(screen.getByRole('textbox', { name: 'Amount (XRP)' }), { target: { value: '5' } });
    await waitFor(() =>
      expect(screen.getByTestId('lp-to-receive').textContent).toBe(
        'LP tokens you will receive: ≈ 707.1 LP-LIQ (the pool takes 5 XRP + 10,000 LIQ at its ratio)',
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Max LIQ' }));
    expect((screen.getByRole('textbox', { name: 'Amount (LIQ)' }) as HTMLInputElement).value).toBe('30000');
    expect(sent.filter((x) => x.path === '/api/add-liquidity')).toEqual([]);
  });

  it('refuses an amount above the balance on the button itself, before anything is sent', async () => {
    renderTab();
    await waitFor(() => expect(screen.getByTestId('lp-balance').textContent).toContain('100'));
    await waitFor(() => expect(button('Max XRP').disabled).toBe(false));
    fireEvent.change(screen.getByRole('textbox', { name: 'Amount (XRP)' }), { target: { value: '19.8' } });
    // 19.8 available, but the deposit also pays its network fee (the LP line exists: no reserve).
    expect(button('Insufficient XRP balance').disabled).toBe(true);
    expect(screen.getByTestId('liquidity-submit-detail').textContent).toBe(
      'Insufficient balance: you have 19.8 XRP available, this needs 19.80001 XRP.',
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Amount (XRP)' }), {
      target: { value: '19.79999' },
    });
    expect(button('Add Liquidity').disabled).toBe(false);
    click('LIQ');
    fireEvent.change(screen.getByRole('textbox', { name: 'Amount (LIQ)' }), { target: { value: '30000.5' } });
    expect(button('Insufficient LIQ balance').disabled).toBe(true);
    expect(screen.getByTestId('liquidity-submit-detail').textContent).toBe(
      'Insufficient balance: you have 30000 LIQ available, this needs 30000.5 LIQ.',
    );
    click('Insufficient LIQ balance');
    expect(sent.filter((x) => x.path === '/api/add-liquidity')).toEqual([]);
  });

  it('shows the wallet’s position: share, value, fees earned, impermanent loss and the history', async () => {
    render(withProviders(<LiquidityTab wallet={WALLET} token={TOKEN} />));
    const panel = await screen.findByTestId('lp-position');
    await waitFor(() => expect(screen.getByTestId('lp-share').textContent).toBe('0.707113%'));
    expect(screen.getByTestId('lp-value').textContent).toBe('1.42 XRP');
    expect(screen.getByTestId('lp-pnl').textContent).toBe('−0.004 XRP');
    expect(screen.getByTestId('lp-pnl').className).toBe('negative');
    expect(panel.textContent).toContain('+0.002 XRP');
    expect(panel.textContent).toContain('−0.006 XRP');
    expect(panel.textContent).toContain('History (1)');
    expect(sent).toEqual([]);
  });

  it('says so when the wallet holds no LP tokens, without reading a position', async () => {
    balance = { body: { status: 'success', balance: '0' } };
    render(withProviders(<LiquidityTab wallet={WALLET} token={TOKEN} />));
    await screen.findByText('This wallet holds no LP tokens of this pool.');
  });

  it('shows the auction slot’s price first, then bids at most that price', async () => {
    writes['/api/amm-bid'] = {
      body: {
        status: 'success',
        hash: 'B'.repeat(64),
        paid: '2.34',
        slot: { ...SLOT, holder: WALLET.wallet_address },
      },
    };
    render(withProviders(<LiquidityTab wallet={WALLET} token={TOKEN} />));
    fireEvent.click(screen.getByRole('button', { name: 'Vote on Fee' }));
    await waitFor(() => expect(screen.getByTestId('slot-price').textContent).toBe('2.345678 LP'));
    expect(screen.getByTestId('slot-holder').textContent).toBe('rPT1Sj…pAYe');
    fireEvent.click(screen.getByRole('button', { name: 'Bid for the slot' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Bid for the auction slot' });
    expect(dialog.textContent).toContain('2.345678 LP-LIQ');
    await clickWhenReady(screen.getByRole('button', { name: 'Bid' }));
    await screen.findByText(LIQUIDITY_MESSAGES.bidSuccess);
    expect(sent).toEqual([
      {
        path: '/api/amm-bid',
        body: {
          wallet: WALLET.wallet_address,
          issuer: ISSUER,
          token: 'LIQ',
          baseAsset: 'XRP',
          maxPrice: '2.345678',
        },
      },
    ]);
  });

  it('refuses a bid the LP balance cannot pay, before anything is sent', async () => {
    balance = { body: { status: 'success', balance: '1' } };
    render(withProviders(<LiquidityTab wallet={WALLET} token={TOKEN} />));
    fireEvent.click(screen.getByRole('button', { name: 'Vote on Fee' }));
    const button = await screen.findByRole('button', { name: 'Bid for the slot' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    expect(screen.getByText(LIQUIDITY_MESSAGES.bidTooLow)).toBeTruthy();
    expect(sent).toEqual([]);
  });
});

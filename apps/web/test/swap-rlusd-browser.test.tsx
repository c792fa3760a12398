import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentFlags } from 'xrpl';
import {
  RLUSD_CURRENCY_HEX,
  type FeesConfig,
  type QuoteView,
  type SigningIntent,
  type SwapResult,
  type User,
  type WalletBalance,
} from '@ledgerpad/shared';
import { SwapPage } from '../src/features/swap/swap-page';
import type * as Lock from '../src/lib/signer/lock';
import { stubFetch, withProviders } from './support';

// The swap box's XRP ⇄ RLUSD form with a browser wallet: the form posts /api/swap with RLUSD as the
// token and `baseAsset: 'XRP'`, the server's answer is an intent, lib/signer (runSigned and
// signIntent, the real ones) has the wallet's own key sign each of its transactions and posts the
// blobs to /api/intents/{id}/submit under the action's second Idempotency-Key; the submit's answer
// is the result shown. Stood in for: the vault's unlock (vault.test.ts) and xrpl.js's signature
// itself (jsdom's typed arrays are not the ones xrpl.js's curves accept; the real signature in a
// browser is the e2e test's, self-custody.spec.ts). The server's side of the same flow, signed by
// a real xrpl.js Wallet: apps/server/test/self-custody/swap-rlusd.test.ts.

const SEED = 'sEdTdqPXgy1zJyNhBVKyDaqSZ2f5PFc'; // a test seed made for this file; holds nothing
const signed = vi.hoisted(() => ({
  calls: [] as Array<{ secret: unknown; address: string; txs: unknown[] }>,
}));
vi.mock('../src/lib/signer/lock', async (actual) => ({
  ...(await actual<typeof Lock>()),
  requestUnlock: async () => undefined,
  withSecret: async <T,>(_address: string, read: (secret: { kind: 'seed'; seed: string }) => T) =>
    read({ kind: 'seed', seed: 'sEdTdqPXgy1zJyNhBVKyDaqSZ2f5PFc' }),
}));
vi.mock('../src/lib/signer/keys', () => ({
  signAll: (secret: unknown, address: string, txs: unknown[]) => {
    signed.calls.push({ secret, address, txs });
    return txs.map((_, i) => `${'AB'.repeat(40)}0${i}`);
  },
}));

const RLUSD_ISSUER = 'rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De';
const FEE_WALLET = 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf';
const INTENT_ID = '6f1d2f8e-3c4b-4a5d-9e6f-7a8b9c0d1e2f';
const browser = { classicAddress: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh' };
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
const pocket = {
  id: 3,
  wallet_address: browser.classicAddress,
  wallet_name: 'Pocket',
  kind: 'browser',
  wallet_app: null,
  balance: '101',
  status: 'Activated',
  ledgerReserve: '1',
  tokens: [],
  trustlines: [],
} as unknown as WalletBalance;

// 3 XRP → 6.6 RLUSD; the fee 0.75% of 3 XRP = 0.0225 XRP; three network fees (line, trade, fee).
const QUOTE: QuoteView = {
  status: 'success',
  tokenAmountRounded: '6.6',
  spend: '3',
  receive: '6.6',
  quote: 'XRP',
  effectivePrice: '0.4545454545',
  spotPrice: '0.45',
  priceImpactPercent: '0.10',
  fee: '0.0225',
  partial: false,
  feePercent: '0.75',
  feeInPrice: '0',
  networkFee: '0.00003',
  reserve: '0.2',
  opensTrustLine: true,
};
const base = { Account: browser.classicAddress, Fee: '10', Flags: 0, LastLedgerSequence: 120 };
const INTENT: SigningIntent = {
  id: INTENT_ID,
  purpose: 'swap',
  walletId: 3,
  account: browser.classicAddress,
  mode: 'sequence',
  lastLedgerSequence: 120,
  expiresAt: '2026-01-01T00:05:00Z',
  txs: [
    {
      ...base,
      TransactionType: 'TrustSet',
      Sequence: 5,
      LimitAmount: { currency: RLUSD_CURRENCY_HEX, issuer: RLUSD_ISSUER, value: '1000000000' },
    },
    {
      ...base,
      TransactionType: 'Payment',
      Sequence: 6,
      Flags: PaymentFlags.tfPartialPayment,
      Destination: browser.classicAddress,
      Amount: { currency: RLUSD_CURRENCY_HEX, issuer: RLUSD_ISSUER, value: '1000000000' },
      SendMax: '3000000',
      DeliverMin: { currency: RLUSD_CURRENCY_HEX, issuer: RLUSD_ISSUER, value: '6.534' },
    },
    { ...base, TransactionType: 'Payment', Sequence: 7, Destination: FEE_WALLET, Amount: '22500' },
  ],
};
const RESULT: SwapResult = {
  status: 'success',
  swappedAmount: '6.6',
  spent: '3',
  received: '6.6',
  quote: 'XRP',
  hash: 'A'.repeat(64),
  fee: '0.0225',
  message: '✅ Swapped 3.000000 XRP → 6.600000 RLUSD',
};

let fetchMock: ReturnType<typeof stubFetch>['fn'];
const sent = (path: string) =>
  fetchMock.mock.calls
    .filter(([input]) => new URL(String(input), 'http://localhost').pathname === path)
    .map(([, init]) => ({
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
      key: ((init?.headers ?? {}) as Record<string, string>)['idempotency-key'],
    }));

beforeEach(() => {
  signed.calls = [];
  ({ fn: fetchMock } = stubFetch((path) => {
    if (path === '/api/session') return { body: { user: USER } };
    if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
    if (path === '/api/wallets/balances') return { body: [pocket] };
    if (path === '/api/wallets') return { body: [pocket] };
    if (path === '/api/config/fees') return { body: FEES };
    if (path === '/api/config/rlusd') return { body: { issuer: RLUSD_ISSUER, currency: RLUSD_CURRENCY_HEX } };
    if (path.startsWith('/api/user/slippage/')) return { body: { slippage: '1' } };
    if (path === '/api/amm-info') return { body: QUOTE };
    if (path === '/api/swap') return { body: { status: 'sign', intent: INTENT } };
    if (path === `/api/intents/${INTENT_ID}/submit`) return { body: RESULT };
    return undefined;
  }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('XRP ⇄ RLUSD from a browser wallet', () => {
  it('posts the form as RLUSD against XRP, signs the intent in the browser and shows the answer', async () => {
    render(withProviders(<SwapPage />, '/swap'));
    await screen.findByLabelText('Wallet');
    fireEvent.click(await screen.findByRole('button', { name: 'XRP ⇄ RLUSD' }));
    fireEvent.change(screen.getByLabelText('Amount (XRP)'), { target: { value: '3' } });
    await screen.findByTestId('disclosure');
    // The disclosure the wallet signs for: 3 + 0.0225 + 0.00003 XRP.
    expect(screen.getByTestId('you-pay').textContent).toBe('3.02253 XRP');
    fireEvent.click(screen.getByRole('button', { name: 'Swap' }));
    await screen.findByText(RESULT.message);

    const [swap] = sent('/api/swap');
    expect(swap!.body).toMatchObject({
      walletAddress: browser.classicAddress,
      issuer: RLUSD_ISSUER,
      token: RLUSD_CURRENCY_HEX,
      amount: '3',
      type: 'BUY',
      baseAsset: 'XRP',
      expected: '6.6',
    });
    expect(swap!.key).toMatch(/^[0-9a-f-]{36}$/);
    const submits = sent(`/api/intents/${INTENT_ID}/submit`);
    expect(submits).toHaveLength(1);
    // The submission has its own Idempotency-Key (the same on a retry of this action).
    expect(submits[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(submits[0]!.key).not.toBe(swap!.key);
    // The wallet's own secret signed exactly the prepared transactions, in order, once; their blobs
    // went to the server as signed.
    expect(signed.calls).toEqual([
      { secret: { kind: 'seed', seed: SEED }, address: browser.classicAddress, txs: INTENT.txs },
    ]);
    expect(submits[0]!.body.blobs).toEqual([0, 1, 2].map((i) => `${'AB'.repeat(40)}0${i}`));
    // The seed went nowhere.
    for (const [input, init] of fetchMock.mock.calls)
      expect(`${String(input)} ${String(init?.body ?? '')}`).not.toContain(SEED);
  });
});

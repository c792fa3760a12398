import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REWARD_SPLIT_MESSAGES, type TokenView } from '@ledgerpad/shared';
import { ClaimRewardsModal } from '../src/features/dashboard/claim-rewards-modal';
import { RewardSplitPanel } from '../src/features/dashboard/reward-split-panel';
import { ReferralsPage } from '../src/features/referrals/referrals-page';
import { captureReferral, forgetReferral, pendingReferral, withReferral } from '../src/lib/referral-link';
import { stubFetch, withProviders, type FetchAnswer } from './support';

// The dashboard's reward split editor (5 rows at most, percents sent as basis points, the shared
// schema's messages), the claim modal of a split token, the referral link kept until sign-up, and the
// referrals page with its claim — against stubbed API answers in the server's shapes.

const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const A = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const B = 'rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv';
const TOKEN = {
  id: 7,
  name: 'Split Token',
  ticker: 'SPL',
  currency: 'SPL',
  issuer_address: ISSUER,
  total_reward: '0',
  reward_currency: 'XRP',
  total_claimed: '0',
} as TokenView;

let posts: Array<{ path: string; body: unknown }>;
let split: { token_id: number; recipients: Array<{ address: string; bps: number }>; history: unknown[] };
let answers: Record<string, (body: unknown) => FetchAnswer>;

beforeEach(() => {
  posts = [];
  split = { token_id: 7, recipients: [], history: [] };
  answers = {};
  stubFetch((path, body) => {
    if (body !== undefined) posts.push({ path, body });
    if (answers[path]) return answers[path]!(body);
    if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
    if (path === '/api/rewards/splits/7') {
      if (body !== undefined) split = { ...split, recipients: (body as typeof split).recipients };
      return { body: split };
    }
    if (path === '/api/wallets')
      return { body: { wallets: [{ id: 1, wallet_address: A, wallet_name: 'Main', created_at: '' }] } };
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const addressInput = (i: number) => screen.getByRole('combobox', { name: `Address ${i}` });
const shareInputs = () => screen.getAllByRole('textbox', { name: 'Share %' });

describe('reward split editor', () => {
  it('sends the percents as basis points', async () => {
    render(withProviders(<RewardSplitPanel token={TOKEN} />));
    await waitFor(() => expect(addressInput(1)).toBeTruthy());
    fireEvent.change(addressInput(1), { target: { value: A } });
    fireEvent.change(shareInputs()[0]!, { target: { value: '66.67' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add recipient' }));
    fireEvent.change(addressInput(2), { target: { value: B } });
    fireEvent.change(shareInputs()[1]!, { target: { value: '33.33' } });
    expect(screen.getByText('Total 100%')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save split' }));
    await waitFor(() =>
      expect(posts.filter((p) => p.path === '/api/rewards/splits/7').map((p) => p.body)).toEqual([
        {
          recipients: [
            { address: A, bps: 6667 },
            { address: B, bps: 3333 },
          ],
        },
      ]),
    );
    // Saved: the editor shows the saved split, and offers to remove it.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove split' })).toBeTruthy());
    // Many renders of a form: room for a loaded 2-core machine (2 s alone, 5 s seen under load).
  }, 15_000);

  it('holds at 5 recipients', async () => {
    render(withProviders(<RewardSplitPanel token={TOKEN} />));
    await waitFor(() => expect(addressInput(1)).toBeTruthy());
    const add = () => screen.getByRole('button', { name: 'Add recipient' }) as HTMLButtonElement;
    for (let i = 0; i < 4; i++) fireEvent.click(add());
    expect(shareInputs()).toHaveLength(5);
    expect(add().disabled).toBe(true);
  });

  it('refuses shares that do not add up to 100% or have more than 2 decimals, sending nothing', async () => {
    render(withProviders(<RewardSplitPanel token={TOKEN} />));
    await waitFor(() => expect(addressInput(1)).toBeTruthy());
    fireEvent.change(addressInput(1), { target: { value: A } });
    fireEvent.change(shareInputs()[0]!, { target: { value: '90' } });
    expect(screen.getByText('Total 90% (must be 100%)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save split' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(REWARD_SPLIT_MESSAGES.sum));
    fireEvent.change(shareInputs()[0]!, { target: { value: '33.333' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save split' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(REWARD_SPLIT_MESSAGES.share));
    expect(posts.filter((p) => p.path === '/api/rewards/splits/7')).toEqual([]);
  });

  it('shows the server’s refusal of an address', async () => {
    const message = REWARD_SPLIT_MESSAGES.unknownAccount(B);
    answers['/api/rewards/splits/7'] = (body) =>
      body === undefined ? { body: split } : { status: 400, body: { message } };
    render(withProviders(<RewardSplitPanel token={TOKEN} />));
    await waitFor(() => expect(addressInput(1)).toBeTruthy());
    fireEvent.change(addressInput(1), { target: { value: B } });
    fireEvent.click(screen.getByRole('button', { name: 'Save split' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(message));
  });
});

describe('claim of a split token', () => {
  it('shows each recipient’s part (the remainder to the first) and claims without a wallet', async () => {
    split.recipients = [
      { address: A, bps: 3333 },
      { address: B, bps: 6667 },
    ];
    answers['/api/rewards/summary'] = () => ({
      body: [{ id: 7, total_reward: '0.000007', reward_currency: 'XRP' }],
    });
    answers['/api/rewards/claim-totals'] = () => ({ body: [{ token_id: 7, total_claimed: '0' }] });
    answers['/api/claim-rewards'] = () => ({
      body: {
        claimed: '0.000007',
        to: A,
        currency: 'XRP',
        hash: 'A'.repeat(64),
        payouts: [
          { address: A, amount: '0.000003', hash: 'A'.repeat(64), status: 'paid' },
          { address: B, amount: '0.000004', hash: 'B'.repeat(64), status: 'paid' },
        ],
      },
    });
    render(withProviders(<ClaimRewardsModal token={TOKEN} onClose={() => {}} />));
    // 7 drops: floor(7 × 33.33%) = 2, floor(7 × 66.67%) = 4; the 1 left goes to the first.
    await waitFor(() =>
      expect(screen.getByTestId('split-parts').textContent).toBe(
        'rHb9CJ…tyTh 33.33% · 0.000003 XRPrDsbeo…CdBv 66.67% · 0.000004 XRP',
      ),
    );
    expect(screen.queryByRole('combobox', { name: 'Wallet' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /^Claim/ }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/paid to:/));
    expect(posts.find((p) => p.path === '/api/claim-rewards')?.body).toEqual({
      token: 'SPL',
      issuer: ISSUER,
      percent: 100,
    });
  });
});

describe('referral link', () => {
  it('remembers a followed code until sign-up, and takes it out of the address bar', () => {
    window.history.replaceState(null, '', '/?ref=ABCD2345&x=1#top');
    captureReferral();
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/?x=1#top');
    expect(pendingReferral()).toBe('abcd2345');
    expect(withReferral('/api/auth/demo')).toBe('/api/auth/demo?ref=abcd2345');
    forgetReferral();
    expect(withReferral('/api/auth/demo')).toBe('/api/auth/demo');
  });

  it('ignores a malformed code and forgets one older than 30 days', () => {
    window.history.replaceState(null, '', '/?ref=%3Cscript%3E');
    captureReferral();
    expect(window.location.search).toBe('');
    expect(pendingReferral()).toBeUndefined();
    localStorage.setItem(
      'ledgerpad_ref',
      JSON.stringify({ code: 'abcd2345', at: Date.now() - 31 * 24 * 3600 * 1000 }),
    );
    expect(pendingReferral()).toBeUndefined();
  });
});

describe('referrals page', () => {
  it('shows the link with a copy button and claims the claimable XRP to a chosen wallet', async () => {
    answers['/api/referrals/me'] = () => ({
      body: {
        code: 'abcd2345',
        link_path: '/?ref=abcd2345',
        referred: 3,
        active: 2,
        share_percent: '20',
        months: 12,
        balances: [
          { currency: 'XRP', earned: '0.0305', claimed: '0', claimable: '0.030500' },
          {
            currency: 'RLUSD',
            earned: '110652.147013286',
            claimed: '110652.147013286',
            claimable: '0.000000',
          },
        ],
      },
    });
    answers['/api/referrals/claims'] = () => ({ body: [] });
    answers['/api/referrals/earnings'] = () => ({ body: [] });
    answers['/api/referrals/claim'] = () => ({
      body: { claimed: '0.030500', to: A, currency: 'XRP', hash: 'C'.repeat(64) },
    });
    render(withProviders(<ReferralsPage />));
    const link = (await screen.findByRole('textbox', { name: 'Referral link' })) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/?ref=abcd2345`);
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(screen.getByTestId('ref-referred').textContent).toBe('3');
    expect((screen.getByRole('button', { name: 'Claim RLUSD' }) as HTMLButtonElement).disabled).toBe(true);
    // One number format (issue 39): RLUSD at 6 decimals at most, rounded down, never all 15 digits.
    expect(screen.getAllByText('110,652.147013 RLUSD')).toHaveLength(2);
    expect(screen.getByTestId('ref-claimable-RLUSD').textContent).toBe('0 RLUSD');
    fireEvent.click(screen.getByRole('button', { name: 'Claim XRP' }));
    await screen.findByRole('option', { name: /Main/ });
    expect(screen.getByTestId('ref-claim-amount').textContent).toBe('0.0305 XRP');
    fireEvent.change(screen.getByRole('combobox', { name: 'Wallet' }), { target: { value: A } });
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/Claimed 0\.0305 XRP/));
    expect(posts.find((p) => p.path === '/api/referrals/claim')?.body).toEqual({
      wallet: A,
      currency: 'XRP',
    });
  });
});

import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REWARD_MESSAGES, type TokenView } from '@ledgerpad/shared';
import { CLAIM_SUCCESS_AUTO_CLOSE_MS } from '@ledgerpad/shared';
import { ClaimRewardsModal } from '../src/features/dashboard/claim-rewards-modal';
import { withProviders, type FetchAnswer } from './support';

// The claim-rewards modal (spec 001 §6 "Claim rewards") against stubbed API answers: the totals,
// the amount (percent of unclaimed, rounded down to 6 decimals), the button disabled with nothing
// unclaimed and while claiming, the success view closing after 3 s, and the failure text.

const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const WALLET = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';

const TOKEN = {
  id: 7,
  name: 'Reward Token',
  ticker: 'RWD',
  currency: 'RWD',
  issuer_address: ISSUER,
  total_reward: '0',
  reward_currency: 'XRP',
  total_claimed: '0',
} as TokenView;

let summary: FetchAnswer;
let totals: FetchAnswer;
let claimAnswer: () => Promise<FetchAnswer>;
let claimBodies: unknown[];

beforeEach(() => {
  claimBodies = [];
  summary = { body: [{ id: 7, total_reward: '0.1234567', reward_currency: 'XRP' }] };
  totals = { body: [{ token_id: 7, total_claimed: '0.0000007' }] };
  claimAnswer = async () => ({
    body: { claimed: '0.061728', to: WALLET, currency: 'XRP', hash: 'A'.repeat(64) },
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      let a: FetchAnswer;
      if (path === '/api/rewards/summary') a = summary;
      else if (path === '/api/rewards/claim-totals') a = totals;
      else if (path === '/api/csrf-token') a = { body: { token: 'csrf' } };
      else if (path === '/api/wallets')
        a = { body: { wallets: [{ id: 1, wallet_address: WALLET, wallet_name: 'Main', created_at: '' }] } };
      else if (path === '/api/claim-rewards') {
        claimBodies.push(JSON.parse(String(init?.body)));
        a = await claimAnswer();
      }
      const answer = a ?? { status: 404, body: { message: 'Not Found' } };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const claimButton = () => screen.getByRole('button', { name: /^Claim/ });
const setPercent = (p: number) =>
  fireEvent.change(screen.getByRole('slider'), { target: { value: String(p) } });

async function ready() {
  await waitFor(() => expect(screen.getByTestId('reward-unclaimed').textContent).toBe('0.123456 XRP'));
  await waitFor(() => expect(screen.getByRole('option', { name: /Main/ })).toBeTruthy());
}

describe('claim rewards modal', () => {
  it('shows earned, claimed and unclaimed, and the percent of unclaimed rounded down to 6 decimals', async () => {
    render(withProviders(<ClaimRewardsModal token={TOKEN} onClose={() => {}} />));
    await ready();
    expect(screen.getByTestId('reward-total').textContent).toBe('0.1234567 XRP');
    expect(screen.getByTestId('reward-claimed').textContent).toBe('0.0000007 XRP');
    // Unclaimed 0.123456: 100% → 0.123456; 50% → 0.061728; 30% → 0.0370368 → 0.037036; 10% → 0.012345(6).
    expect(screen.getByTestId('claim-amount').textContent).toBe('0.123456 XRP');
    setPercent(50);
    expect(screen.getByTestId('claim-amount').textContent).toBe('0.061728 XRP');
    setPercent(30);
    expect(screen.getByTestId('claim-amount').textContent).toBe('0.037036 XRP');
    setPercent(10);
    expect(screen.getByTestId('claim-amount').textContent).toBe('0.012345 XRP');
    const slider = screen.getByRole('slider') as HTMLInputElement;
    expect([slider.min, slider.max, slider.step]).toEqual(['10', '100', '10']);
  });

  it('disables Claim when nothing is unclaimed; a 404 on the rewards endpoints falls back to the token row', async () => {
    summary = undefined;
    totals = undefined;
    render(
      withProviders(
        <ClaimRewardsModal token={{ ...TOKEN, total_reward: '2', total_claimed: '2' }} onClose={() => {}} />,
      ),
    );
    await waitFor(() => expect(screen.getByRole('option', { name: /Main/ })).toBeTruthy());
    expect(screen.getByTestId('reward-unclaimed').textContent).toBe('0 XRP');
    expect(screen.getByTestId('claim-amount').textContent).toBe('0.000000 XRP');
    expect((claimButton() as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText(/Not Found/)).toBeNull();
  });

  it('claims to the chosen wallet: Claiming... while busy, then the success view that closes after 3 s', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const inner = claimAnswer;
    claimAnswer = async () => {
      await gate;
      return inner();
    };
    const onClose = vi.fn();
    render(withProviders(<ClaimRewardsModal token={TOKEN} onClose={onClose} />));
    await ready();
    fireEvent.change(screen.getByRole('combobox', { name: 'Wallet' }), { target: { value: WALLET } });
    setPercent(50);
    fireEvent.click(claimButton());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Claiming...' })).toBeTruthy());
    expect((screen.getByRole('button', { name: 'Claiming...' }) as HTMLButtonElement).disabled).toBe(true);
    expect(claimBodies).toEqual([{ wallet: WALLET, token: 'RWD', issuer: ISSUER, percent: 50 }]);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    release();
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(/Claimed 0\.061728 XRP to rHb9CJ/),
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CLAIM_SUCCESS_AUTO_CLOSE_MS - 200);
    });
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(400);
    });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('requires a wallet, and shows the failure text when the claim fails', async () => {
    claimAnswer = async () => ({ status: 400, body: { message: REWARD_MESSAGES.claimFailed } });
    render(withProviders(<ClaimRewardsModal token={TOKEN} onClose={() => {}} />));
    await ready();
    fireEvent.click(claimButton());
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(REWARD_MESSAGES.selectWallet),
    );
    expect(claimBodies).toEqual([]);
    fireEvent.change(screen.getByRole('combobox', { name: 'Wallet' }), { target: { value: WALLET } });
    fireEvent.click(claimButton());
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(REWARD_MESSAGES.claimFailed));
    expect((claimButton() as HTMLButtonElement).disabled).toBe(false);
  });
});

import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AIRDROP_MESSAGES, type Airdrop } from '@ledgerpad/shared';
import { AirdropCard, AirdropsPage } from '../src/features/airdrops/airdrops-page';
import { CreateAirdropPage } from '../src/features/airdrops/create-airdrop-page';
import { checkBalance, countdown, leftover, perClaim, recipients } from '../src/features/airdrops/rules';
import { stubFetch, withProviders, type FetchAnswer } from './support';

// The airdrop board (spec 001 §2, §4) against stubbed API answers, and the pure rules of the create
// form: recipients, the random range, leftovers and the balance check.

const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const WALLET = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
// The real clock (on a whole minute): the board pages read Date.now(), so a fixed date would expire.
const NOW = Math.floor(Date.now() / 60_000) * 60_000;

const AIRDROP: Airdrop = {
  id: 3,
  project_name: 'Moon Project',
  tagline: 'To the moon',
  logo_url: '',
  description: '',
  issuer_address: ISSUER,
  token_code: 'MON',
  fixed_amount: '100',
  min_amount: null,
  max_amount: null,
  max_claims: 10,
  claimed_count: 4,
  total_token_amount: '1000',
  expiry: new Date(NOW + (2 * 1440 + 3 * 60 + 4) * 60_000).toISOString(),
  has_claimed: false,
  website_url: 'https://moon.example',
  twitter_url: null,
  status: 'active',
};

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('airdrop rules', () => {
  it('fixed: max recipients floor(total / fixed), and the leftover', () => {
    expect(recipients({ perUserType: 'fixed', total: '1000', fixedAmount: '30' })).toEqual({ max: 33 });
    expect(leftover('1000', '30')).toBe('10');
    expect(leftover('1000', '100')).toBeUndefined();
    expect(recipients({ perUserType: 'fixed', total: '1000', fixedAmount: '' })).toBeUndefined();
    expect(recipients({ perUserType: 'fixed', total: 'abc', fixedAmount: '1' })).toBeUndefined();
  });

  it('random: floor(total / min), estimated range floor(total / max)..floor(total / min)', () => {
    expect(recipients({ perUserType: 'random', total: '1000', randomMin: '3', randomMax: '7' })).toEqual({
      max: 333,
      range: { low: 142, high: 333 },
    });
    // max must be greater than min
    expect(
      recipients({ perUserType: 'random', total: '1000', randomMin: '5', randomMax: '5' }),
    ).toBeUndefined();
    expect(recipients({ perUserType: 'random', total: '0.3', randomMin: '0.1', randomMax: '0.2' })).toEqual({
      max: 3,
      range: { low: 1, high: 3 },
    });
  });

  it('balance: total plus what is already allocated must not exceed the balance', () => {
    expect(checkBalance('600', '400', '1000')).toEqual({ ok: true, available: '600' });
    expect(checkBalance('600.000001', '400', '1000')).toEqual({ ok: false, available: '600' });
    expect(checkBalance('10', '1200', '1000')).toEqual({ ok: false, available: '0' });
    // Unknown allocations: a warning, unless the total alone is already too much.
    expect(checkBalance('10', undefined, '1000').ok).toBe('unknown');
    expect(checkBalance('1001', undefined, '1000').ok).toBe(false);
  });

  it('countdown and per-claim texts', () => {
    expect(countdown(AIRDROP.expiry, NOW)).toBe('Ends in 2d 3h 4m');
    expect(countdown(new Date(NOW + 90 * 60_000).toISOString(), NOW)).toBe('Ends in 1h 30m');
    expect(countdown(new Date(NOW + 20_000).toISOString(), NOW)).toBe('Ends in 1m');
    expect(countdown(new Date(NOW - 1).toISOString(), NOW)).toBe('Expired');
    expect(perClaim(AIRDROP)).toBe('100');
    expect(perClaim({ fixed_amount: null, min_amount: '1000', max_amount: '2500.5' })).toBe('1,000–2,500.5');
  });
});

describe('airdrop card', () => {
  it('an active card: amount, progress, countdown, links and a Claim button', () => {
    const onClaim = vi.fn();
    render(withProviders(<AirdropCard airdrop={AIRDROP} now={NOW} onClaim={onClaim} />));
    expect(screen.getByTestId('countdown').textContent).toBe('Ends in 2d 3h 4m');
    expect(screen.getByTestId('per-claim').textContent).toBe('100 MON');
    expect(screen.getByTestId('claimed-count').textContent).toBe('4 / 10');
    expect(screen.getByRole('link', { name: 'Website' }).getAttribute('href')).toBe('https://moon.example');
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));
    expect(onClaim).toHaveBeenCalledTimes(1);
  });

  it('expired: the state, no Claim button', () => {
    render(
      withProviders(<AirdropCard airdrop={{ ...AIRDROP, status: 'expired' }} now={NOW} onClaim={() => {}} />),
    );
    expect(screen.getByTestId('countdown').textContent).toBe('Expired');
    expect(screen.getByText(AIRDROP_MESSAGES.expired)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Claim' })).toBeNull();
  });

  it('past its deadline reads expired even while the server still says active', () => {
    render(withProviders(<AirdropCard airdrop={AIRDROP} now={NOW + 3 * 86_400_000} onClaim={() => {}} />));
    expect(screen.getByTestId('airdrop-card').dataset.state).toBe('expired');
  });

  it('already claimed: the message, Claim hidden', () => {
    render(
      withProviders(<AirdropCard airdrop={{ ...AIRDROP, has_claimed: true }} now={NOW} onClaim={() => {}} />),
    );
    expect(screen.getByText(/You have already claimed this airdrop\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Claim' })).toBeNull();
  });

  it("the creator's own airdrop: no Claim (the server refuses it), a sentence instead (issue 39)", () => {
    render(
      withProviders(<AirdropCard airdrop={{ ...AIRDROP, is_creator: true }} now={NOW} onClaim={() => {}} />),
    );
    expect(screen.getByTestId('airdrop-card').dataset.state).toBe('own');
    expect(screen.getByTestId('own-airdrop').textContent).toBe('Your airdrop: it is for others to claim.');
    expect(screen.queryByRole('button', { name: 'Claim' })).toBeNull();
  });
});

describe('airdrops board', () => {
  function stub(claim: () => FetchAnswer, signedIn = true) {
    const bodies: unknown[] = [];
    const f = stubFetch((path, body) => {
      if (path === '/api/session') return { body: { user: signedIn ? { id: 2, username: 'bob' } : null } };
      if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
      if (path === '/api/airdrops')
        return { body: [AIRDROP, { ...AIRDROP, id: 4, project_name: 'Done', has_claimed: true }] };
      if (path === '/api/wallets/balances')
        return {
          body: [
            {
              id: 9,
              wallet_address: WALLET,
              wallet_name: 'Main',
              balance: '50',
              status: 'Activated',
              ledgerReserve: '1',
              tokens: [],
              trustlines: [],
            },
          ],
        };
      if (path === '/api/airdrops/3/claim') {
        bodies.push(body);
        return claim();
      }
      return undefined;
    });
    return { ...f, bodies };
  }

  async function openClaim() {
    render(withProviders(<AirdropsPage />, '/airdrops'));
    const cards = await screen.findAllByTestId('airdrop-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[1]!).queryByRole('button', { name: 'Claim' })).toBeNull();
    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'Claim' }));
    await screen.findByRole('option', { name: /Main/ });
  }

  it('claims to the chosen wallet and shows the amount', async () => {
    const { bodies } = stub(() => ({ body: { amount: '100', hash: 'A'.repeat(64) } }));
    await openClaim();
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(AIRDROP_MESSAGES.selectWallet));
    fireEvent.change(screen.getByRole('combobox', { name: 'Destination wallet' }), {
      target: { value: '9' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(screen.getByTestId('claimed-amount').textContent).toBe('100 MON'));
    expect(bodies).toEqual([{ destinationWalletId: 9 }]);
  });

  it("a refused claim shows the server's message; a server error 'Claim failed.'", async () => {
    let answer: FetchAnswer = {
      status: 400,
      body: { error: 'bad_request', message: AIRDROP_MESSAGES.alreadyClaimed },
    };
    stub(() => answer);
    await openClaim();
    fireEvent.change(screen.getByRole('combobox', { name: 'Destination wallet' }), {
      target: { value: '9' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(AIRDROP_MESSAGES.alreadyClaimed));
    answer = { status: 500, body: { error: 'internal', message: 'Internal server error' } };
    fireEvent.click(screen.getByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(AIRDROP_MESSAGES.claimFailed));
  });

  it('signed out: the board shows, no Create button, and Claim asks to sign in', async () => {
    stub(() => undefined, false);
    render(withProviders(<AirdropsPage />, '/airdrops'));
    const cards = await screen.findAllByTestId('airdrop-card');
    expect(screen.queryByRole('link', { name: 'Create Airdrop' })).toBeNull();
    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'Claim' }));
    await screen.findByRole('dialog', { name: 'Sign in to claim' });
  });
});

describe('create airdrop form', () => {
  const MOON = '4D4F4F4E00000000000000000000000000000000';
  const LP = '03' + 'A'.repeat(38);
  function stub(allocated: string) {
    const posts: unknown[] = [];
    const { calls } = stubFetch((path, body) => {
      if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
      if (path === '/api/config/fees') return { body: { airdrop_fee_xrp: '2' } };
      if (path === '/api/wallets/balances')
        return {
          body: [
            {
              id: 9,
              wallet_address: WALLET,
              wallet_name: 'Main',
              balance: '50',
              status: 'Activated',
              ledgerReserve: '1',
              tokens: [
                { currency: 'MOON', currencyCode: MOON, issuer: ISSUER, realIssuer: ISSUER, value: '1000' },
                {
                  currency: LP,
                  currencyCode: LP,
                  issuer: WALLET,
                  realIssuer: ISSUER,
                  value: '5',
                  lpName: 'LP-MOON',
                },
              ],
              trustlines: [],
            },
          ],
        };
      if (path.startsWith('/api/airdrops/allocations/9/')) return { body: { allocated } };
      if (path === '/api/airdrops') {
        posts.push(body);
        return { status: 202, body: { success: true, id: 1, jobId: 'job-1' } };
      }
      if (path === '/api/job-status/job-1')
        return { body: { status: 'completed', error: null, result: null, steps: [] } };
      return undefined;
    });
    return { posts, calls };
  }

  async function fill(total: string) {
    render(withProviders(<CreateAirdropPage />, '/airdrop/create'));
    await screen.findByRole('option', { name: /Main/ });
    fireEvent.change(screen.getByLabelText('Source wallet'), { target: { value: '9' } });
    const tokens = await screen.findAllByRole('option', { name: /MOON/ });
    // The LP token is not offered.
    expect(tokens).toHaveLength(1);
    fireEvent.change(screen.getByLabelText('Token'), { target: { value: `${MOON}|${ISSUER}` } });
    fireEvent.change(screen.getByLabelText('Project name'), { target: { value: 'Moon Drop' } });
    fireEvent.change(screen.getByLabelText('Total token amount'), { target: { value: total } });
    fireEvent.change(screen.getByLabelText('Amount per user'), { target: { value: '10' } });
  }

  it('refuses a total that, with what is already allocated, exceeds the balance', async () => {
    const { posts } = stub('950');
    await fill('100');
    await waitFor(() => expect(screen.getByTestId('recipients').textContent).toContain('Max recipients: 10'));
    await waitFor(() => expect(screen.getByText(/already allocated: 950/)).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Create Airdrop' }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert')[0]!.textContent).toContain(
        AIRDROP_MESSAGES.insufficientTokens('50'),
      ),
    );
    expect(posts).toEqual([]);
  });

  it('sends the creation payload, follows the job and opens the board', async () => {
    const { posts, calls } = stub('0');
    await fill('100');
    // Known allocations: nothing to confirm (an unknown one would ask first).
    await waitFor(() => expect(calls.some((c) => c.startsWith('/api/airdrops/allocations/'))).toBe(true));
    await waitFor(() => expect(screen.getByText(/Balance: 1,000/)).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Create Airdrop' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({
      sourceWalletId: 9,
      tokenCode: MOON,
      issuerAddress: ISSUER,
      projectName: 'Moon Drop',
      perUserType: 'fixed',
      totalTokenAmount: '100',
      fixedAmount: '10',
      trustlineMode: 'auto',
    });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/airdrops'), {
      timeout: 3000,
    });
  });
});

import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, type AdminView, type RewardsOverviewRow, type User } from '@ledgerpad/shared';
import { AdminPage, CHECKING_CREDENTIALS, NOT_AN_ADMIN } from '../src/features/admin/admin-page';
import { stubFetch, withProviders, type FetchAnswer } from './support';

// The /admin page (spec 001 §2 Admin) against stubbed API answers: the credential check first (a
// non-admin gets the refusal and no admin data is asked for), the owner's lock, unclaimed rewards
// computed exactly, and the user id check before any request.

const USER: User = {
  id: 1,
  username: 'owner',
  first_name: null,
  photo_url: null,
  email: null,
  telegram_id: null,
  google_id: null,
  created_at: '2026-01-01T00:00:00Z',
};
const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';

const ADMINS: AdminView[] = [
  { user_id: 1, username: 'owner', email: null, created_at: '2026-01-01T00:00:00Z' },
  { user_id: 5, username: 'helper', email: 'h@example.com', created_at: '2026-02-01T00:00:00Z' },
];
const REWARDS: RewardsOverviewRow[] = [
  {
    token_id: 3,
    ticker: 'ABCD',
    issuer_address: ISSUER,
    total_reward: '0.3',
    total_claimed: '0.1',
    reward_currency: 'XRP',
  },
];

let checkAnswer: () => FetchAnswer;
let calls: string[];

beforeEach(() => {
  checkAnswer = () => ({ body: { isAdmin: true, isOwner: true } });
  ({ calls } = stubFetch((path) => {
    if (path === '/api/user') return { body: { user: USER } };
    if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
    if (path === '/api/admin/check') return checkAnswer();
    if (path === '/api/admin/rewards-overview') return { body: REWARDS };
    if (path === '/api/admin/admins') return { body: ADMINS };
    return undefined;
  }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const adminCalls = () => calls.filter((p) => p.startsWith('/api/admin/'));

async function openTab(name: string) {
  const tab = await screen.findByRole('tab', { name });
  // Radix tabs switch on mousedown (the primary button), not on click.
  fireEvent.mouseDown(tab, { button: 0 });
  fireEvent.click(tab);
}

describe('credential check', () => {
  it('shows "Checking credentials..." then the refusal for a 403, asking for nothing else', async () => {
    let answered = false;
    checkAnswer = () => {
      answered = true;
      return { status: 403, body: { message: 'Forbidden' } };
    };
    render(withProviders(<AdminPage />, '/admin'));
    expect(screen.getByText(CHECKING_CREDENTIALS)).toBeTruthy();
    expect(await screen.findByText(NOT_AN_ADMIN)).toBeTruthy();
    expect(answered).toBe(true);
    expect(screen.queryByText(CHECKING_CREDENTIALS)).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
    // Give any stray query a chance to fire before looking.
    await new Promise((r) => setTimeout(r, 50));
    expect(adminCalls()).toEqual(['/api/admin/check']);
  });

  it('shows the tabs to an admin (no Deployment Wallets tab)', async () => {
    render(withProviders(<AdminPage />, '/admin'));
    await screen.findByRole('tab', { name: 'Rewards' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Rewards',
      'Settings',
      'Admins',
      'Wallet Overview',
      'Audit',
    ]);
  });
});

describe('rewards', () => {
  it('shows unclaimed = reward − claimed, exactly', async () => {
    render(withProviders(<AdminPage />, '/admin'));
    const table = await screen.findByRole('table');
    const row = within(table).getAllByRole('row')[1]!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    // 0.3 − 0.1 in binary floating point is 0.19999999999999998.
    expect(cells).toEqual(['ABCD', ISSUER, '0.3 XRP', '0.1 XRP', '0.2 XRP']);
  });

  it('says "Failed to fetch rewards." when the overview fails', async () => {
    stubFetch((path) => {
      if (path === '/api/user') return { body: { user: USER } };
      if (path === '/api/admin/check') return { body: { isAdmin: true, isOwner: true } };
      if (path === '/api/admin/rewards-overview') return { status: 500, body: { message: 'boom' } };
      return undefined;
    });
    render(withProviders(<AdminPage />, '/admin'));
    expect(await screen.findByText(ADMIN_MESSAGES.fetchRewardsFailed)).toBeTruthy();
  });
});

describe('admins', () => {
  it('locks user id 1 (no remove button) and lets the others be removed', async () => {
    render(withProviders(<AdminPage />, '/admin'));
    await openTab('Admins');
    const list = await screen.findByRole('list');
    const [owner, helper] = within(list).getAllByRole('listitem');
    expect(within(owner!).getByRole('img', { name: 'Owner, locked' }).textContent).toBe('🔒');
    expect(within(owner!).queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(within(helper!).getByRole('button', { name: 'Remove' })).toBeTruthy();
    expect(within(helper!).queryByRole('img', { name: 'Owner, locked' })).toBeNull();
  });

  it('answers "Enter valid user ID" for a non-numeric id without sending anything', async () => {
    render(withProviders(<AdminPage />, '/admin'));
    await openTab('Admins');
    await screen.findByRole('list');
    fireEvent.change(screen.getByLabelText('User ID'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add admin' }));
    expect((await screen.findByRole('alert')).textContent).toBe(ADMIN_MESSAGES.validUserId);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.some((p) => p.startsWith('/api/admin/admins/add'))).toBe(false);
  });
});

import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sleep } from '../../server/test/helpers/wait';
import {
  ADMIN_MESSAGES,
  UPLOAD_MESSAGES,
  type AdminView,
  type RefundResult,
  type RewardsOverviewRow,
  type StagedWalletBalance,
  type StagedWalletView,
  type TokenView,
  type User,
} from '@ledgerpad/shared';
import { AdminPage, CHECKING_CREDENTIALS, NOT_AN_ADMIN } from '../src/features/admin/admin-page';
import { auditValue } from '../src/features/admin/audit-tab';
import { clickWhenReady, stubFetch, withProviders, type FetchAnswer } from './support';

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

const STAGED: StagedWalletView[] = [
  {
    id: 7,
    user_id: 5,
    type: 'issuer',
    wallet_address: 'rLHzPsX6oXkzU2qL12kHCH8G8cnZv1rBJh',
    job_status: 'failed',
    created_at: '2026-03-01T00:00:00Z',
  },
];
const COMPLETED: StagedWalletView = { ...STAGED[0]!, id: 9, job_status: 'completed' };
const BALANCES: Record<string, StagedWalletBalance> = {
  7: {
    currency: '5246554E44000000000000000000000000000000',
    xrp: '1.09997',
    token: '0',
    rlusd: '0',
    active: true,
  },
  9: { currency: null, xrp: '0', token: '0', rlusd: '0', active: false },
};
const OWNER_WALLET = 'rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv';
const FEE_WALLET = 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY';
const REFUND: RefundResult = {
  status: 'success',
  amount: '0.09995',
  type: 'xrp',
  method: 'payment',
  hash: 'A'.repeat(64),
  to: OWNER_WALLET,
};

let userAnswer: () => FetchAnswer;
let refundAnswer: () => FetchAnswer;
let addTokenAnswer: () => FetchAnswer;
let calls: string[];
let fetchMock: ReturnType<typeof stubFetch>['fn'];

beforeEach(() => {
  userAnswer = () => ({ body: { user: { ...USER, isAdmin: true } } });
  refundAnswer = () => ({ body: REFUND });
  addTokenAnswer = () => ({ status: 409, body: { message: 'Token Already Listed' } });
  ({ calls, fn: fetchMock } = stubFetch((path) => {
    if (path === '/api/session') return userAnswer();
    if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
    if (path === '/api/admin/rewards-overview') return { body: REWARDS };
    if (path === '/api/admin/admins') return { body: ADMINS };
    if (path === '/api/admin/staged-wallets') return { body: STAGED };
    if (path === '/api/admin/staged-wallets?all=true') return { body: [...STAGED, COMPLETED] };
    if (path === '/api/admin/staged-wallets/balances') return { body: BALANCES };
    if (path === '/api/admin/all-wallets')
      return {
        body: {
          user_wallets: [
            { id: 3, user_id: 5, role: 'user', address: OWNER_WALLET, name: 'Main', created_at: '' },
            {
              id: 7,
              user_id: 5,
              role: 'deploy_issuer',
              address: STAGED[0]!.wallet_address,
              name: null,
              created_at: '',
            },
          ],
          platform_wallets: [
            { id: 1, user_id: null, role: 'fee', address: FEE_WALLET, name: null, created_at: '' },
          ],
        },
      };
    if (path === '/api/admin/refund') return refundAnswer();
    if (path === '/api/admin/tokens/add') return addTokenAnswer();
    if (path === '/api/admin/tokens') return { body: [] as TokenView[] };
    if (path.startsWith('/api/admin/audit')) return { body: { entries: [], page: 1, pageCount: 1 } };
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
  it('shows "Checking credentials..." then, from the user object, the refusal, asking for nothing else', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    userAnswer = () => ({ body: { user: { ...USER, isAdmin: false } } });
    fetchMock.mockImplementationOnce(async () => {
      await held;
      return new Response(JSON.stringify({ user: { ...USER, isAdmin: false } }), {
        headers: { 'content-type': 'application/json' },
      });
    });
    render(withProviders(<AdminPage />, '/admin'));
    expect(screen.getByText(CHECKING_CREDENTIALS)).toBeTruthy();
    release();
    expect(await screen.findByText(NOT_AN_ADMIN)).toBeTruthy();
    expect(screen.queryByText(CHECKING_CREDENTIALS)).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
    // Give any stray query a chance to fire before looking: no admin route, not even the check
    // (it answers non-admins 403, a failed request in their console).
    await sleep(50);
    expect(adminCalls()).toEqual([]);
  });

  it('keeps checking while the user object does not say (a login response), never probing the check route', async () => {
    userAnswer = () => ({ body: { user: USER } });
    render(withProviders(<AdminPage />, '/admin'));
    await sleep(50);
    expect(screen.getByText(CHECKING_CREDENTIALS)).toBeTruthy();
    expect(adminCalls()).toEqual([]);
  });

  it("shows the spec's tabs, and the Audit tab, to an admin", async () => {
    render(withProviders(<AdminPage />, '/admin'));
    await screen.findByRole('tab', { name: 'Rewards' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Rewards',
      'Settings',
      'Admins',
      'Tokens',
      'Deployment Wallets',
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
      if (path === '/api/session') return { body: { user: { ...USER, isAdmin: true } } };
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
    await sleep(20);
    expect(calls.some((p) => p.startsWith('/api/admin/admins/add'))).toBe(false);
  });
});

/** The request the page sent to `path` (its init), the last one. */
function sent(path: string): RequestInit | undefined {
  const hit = fetchMock.mock.calls.filter(
    ([input]) => new URL(String(input), 'http://localhost').pathname === path,
  );
  return hit.at(-1)?.[1];
}

async function openRefund(label = 'Refund XRP') {
  await openTab('Deployment Wallets');
  const row = (await screen.findAllByRole('listitem'))[0]!;
  await within(row).findByText('1.09997');
  fireEvent.click(within(row).getByRole('button', { name: label }));
  return screen.findByRole('dialog');
}

describe('deployment wallets', () => {
  it('lists the orphaned wallets with their balances; Show all asks for ?all=true', async () => {
    render(withProviders(<AdminPage />, '/admin'));
    await openTab('Deployment Wallets');
    const list = await screen.findByRole('list', { name: 'Deployment wallets' });
    const [row] = within(list).getAllByRole('listitem');
    expect(row!.textContent).toContain('#7 · Issuer');
    expect(row!.textContent).toContain(STAGED[0]!.wallet_address);
    await within(row!).findByText('1.09997');
    // The token's 40-hex code shows as its ticker; nothing of it is held, so no refund of it.
    expect(within(row!).getByRole('button', { name: 'Refund RFUND' })).toHaveProperty('disabled', true);
    expect(within(row!).getByRole('button', { name: 'Refund XRP' })).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByLabelText('Show all'));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(calls).toContain('/api/admin/staged-wallets?all=true');
    // A wallet no longer on the ledger offers no refund.
    const gone = within(list).getAllByRole('listitem')[1]!;
    expect(gone.textContent).toContain('Not on the ledger');
    expect(within(gone).getByRole('button', { name: 'Refund XRP' })).toHaveProperty('disabled', true);
  });

  it("refuses without a destination ('Choose or enter destination wallet'), sending nothing", async () => {
    render(withProviders(<AdminPage />, '/admin'));
    const dialog = await openRefund();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review' }));
    const alerts = () =>
      within(dialog)
        .getAllByRole('alert')
        .map((a) => a.textContent);
    await waitFor(() => expect(alerts()).toContain(ADMIN_MESSAGES.chooseDestination));
    fireEvent.change(within(dialog).getByLabelText('Or enter an address'), {
      target: { value: 'rnot-an-address' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review' }));
    await waitFor(() => expect(alerts()).toContain(ADMIN_MESSAGES.chooseDestination));
    expect(within(dialog).queryByRole('button', { name: 'Confirm refund' })).toBeNull();
    expect(calls).not.toContain('/api/admin/refund');
  });

  it('refunds to a chosen wallet after the confirm step, with an Idempotency-Key, and shows the hash', async () => {
    render(withProviders(<AdminPage />, '/admin'));
    const dialog = await openRefund();
    const select = within(dialog).getByLabelText('Destination wallet');
    // The owner's wallet and the platform's fee wallet are offered; not the staged wallet itself.
    expect([...select.querySelectorAll('option')].map((o) => o.value)).toEqual([
      '',
      OWNER_WALLET,
      FEE_WALLET,
    ]);
    fireEvent.change(select, { target: { value: OWNER_WALLET } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review' }));
    const balancesBefore = calls.filter((c) => c === '/api/admin/staged-wallets/balances').length;
    await clickWhenReady(within(dialog).findByRole('button', { name: 'Confirm refund' }));
    expect(await within(dialog).findByTestId('refund-hash')).toHaveProperty('textContent', REFUND.hash);
    const init = sent('/api/admin/refund')!;
    expect(JSON.parse(init.body as string)).toEqual({
      wallet_id: 7,
      type: 'xrp',
      destination_address: OWNER_WALLET,
    });
    expect((init.headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    // Balances are read again after the refund.
    await waitFor(() =>
      expect(calls.filter((c) => c === '/api/admin/staged-wallets/balances').length).toBeGreaterThan(
        balancesBefore,
      ),
    );
  });

  it("shows '❌ Refund failed' with the server's reason, and tries again with a new key after a refusal", async () => {
    refundAnswer = () => ({
      status: 400,
      body: { message: `${ADMIN_MESSAGES.refundFailed}: tecNO_DST_INSUF_XRP` },
    });
    render(withProviders(<AdminPage />, '/admin'));
    const dialog = await openRefund();
    fireEvent.change(within(dialog).getByLabelText('Or enter an address'), { target: { value: FEE_WALLET } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review' }));
    await clickWhenReady(within(dialog).findByRole('button', { name: 'Confirm refund' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      `${ADMIN_MESSAGES.refundFailed}: tecNO_DST_INSUF_XRP`,
    );
    const first = (sent('/api/admin/refund')!.headers as Record<string, string>)['Idempotency-Key'];
    refundAnswer = () => ({ status: 500, body: { error: 'internal', message: 'Internal server error' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await within(dialog).findByText(ADMIN_MESSAGES.refundFailed);
    const second = (sent('/api/admin/refund')!.headers as Record<string, string>)['Idempotency-Key'];
    expect(second).not.toBe(first);
    // A 5xx may have refunded: the next try is the same request, same key.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls.filter((c) => c === '/api/admin/refund')).toHaveLength(3));
    expect((sent('/api/admin/refund')!.headers as Record<string, string>)['Idempotency-Key']).toBe(second);
  });
});

describe('tokens', () => {
  const choose = (file: File) =>
    fireEvent.change(screen.getByLabelText('Logo'), { target: { files: [file] } });

  it("refuses a logo over 1 MB ('Max size 1MB.') and a non-square one ('Image must be square-ish.') before uploading", async () => {
    render(withProviders(<AdminPage />, '/admin'));
    await openTab('Tokens');
    await screen.findByText('No token is listed yet.');
    choose(new File([new Uint8Array(1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText(UPLOAD_MESSAGES.sizeAdmin)).toBeTruthy();
    vi.stubGlobal('createImageBitmap', async () => ({ width: 300, height: 200, close() {} }));
    choose(new File([new Uint8Array(1000)], 'wide.png', { type: 'image/png' }));
    expect(await screen.findByText(UPLOAD_MESSAGES.aspectAdmin)).toBeTruthy();
    expect(calls).not.toContain('/api/upload');
  });

  it("checks the form with the listing's schema, sends the admin flags, and shows '❌ Failed to add token'", async () => {
    render(withProviders(<AdminPage />, '/admin'));
    await openTab('Tokens');
    fireEvent.change(await screen.findByLabelText('Issuer address'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add token' }));
    expect(await screen.findByText('Please fix the form errors.')).toBeTruthy();
    expect(calls).not.toContain('/api/admin/tokens/add');

    fireEvent.change(screen.getByLabelText('Issuer address'), {
      target: { value: STAGED[0]!.wallet_address },
    });
    fireEvent.change(screen.getByLabelText('Ticker or currency code'), { target: { value: 'RFND' } });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Refund Token' } });
    fireEvent.click(screen.getByLabelText('Marked as new'));
    fireEvent.click(screen.getByRole('button', { name: 'Add token' }));
    expect(await screen.findByText(`${ADMIN_MESSAGES.addTokenFailed}: Token Already Listed`)).toBeTruthy();
    expect(JSON.parse(sent('/api/admin/tokens/add')!.body as string)).toMatchObject({
      issuer_address: STAGED[0]!.wallet_address,
      ticker: 'RFND',
      name: 'Refund Token',
      is_new: true,
      is_market_listed: true,
      is_active: true,
    });
  });
});

describe('audit values', () => {
  it('shows scalars as themselves and a refund as its amount with destination and method', () => {
    expect(auditValue({ value: '0.75' })).toBe('0.75');
    expect(auditValue({ value: '' })).toBe('(empty)');
    expect(auditValue({ value: null })).toBe('—');
    expect(auditValue({ value: '0.09995', to: OWNER_WALLET, method: 'account-delete' })).toBe(
      `0.09995 (to ${OWNER_WALLET}, method account-delete)`,
    );
    expect(auditValue({ admin: true })).toBe('{"admin":true}');
  });
});

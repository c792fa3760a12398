import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, AIRDROP_MESSAGES, demoAuthSchema, type Airdrop } from '@ledgerpad/shared';
import { LoginBox } from '../src/components/login-box';
import { SettingsTab } from '../src/features/admin/settings-tab';
import { ClaimModal } from '../src/features/airdrops/claim-modal';
import { stubFetch, withProviders } from './support';

// Forms that moved from useState to react-hook-form with the one resolver (issue 41): the server's
// own schema answers a bad field in the browser, with the server's sentence, and nothing is sent;
// a good one is sent as before (the demo sign-in's name trimmed).

let posts: Array<{ path: string; body: unknown }>;

beforeEach(() => {
  posts = [];
  stubFetch((path, body) => {
    if (body !== undefined) posts.push({ path, body });
    if (path === '/api/csrf-token') return { body: { token: 'csrf' } };
    if (path === '/api/auth/methods')
      return {
        body: {
          telegram: { enabled: false, botUsername: null },
          google: { enabled: false, clientId: null },
          demo: { enabled: true },
        },
      };
    if (path === '/api/admin/fee-config')
      return { body: { fee_percentage: '0.5', fee_receiver_wallet: null } };
    if (path === '/api/admin/fee-config/update')
      return {
        body: {
          fee_percentage: (body as { fee_percentage: string }).fee_percentage,
          fee_receiver_wallet: null,
        },
      };
    if (path === '/api/admin/fee-overrides')
      return { body: [{ id: 9, username: 'olga', email: null, custom_fee_percentage: '0.2' }] };
    if (path === '/api/admin/fee-overrides/update') return { body: {} };
    if (path.startsWith('/api/auth/demo'))
      return { body: { user: { id: 5, username: 'alice_1', isAdmin: false } } };
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const demoMessage = demoAuthSchema.shape.username.safeParse('a b').error!.issues[0]!.message;

describe('the demo sign-in', () => {
  it('answers a name the server would refuse with its sentence, sending nothing', async () => {
    render(withProviders(<LoginBox />));
    fireEvent.change(await screen.findByLabelText('Demo account (embedded ledger)'), {
      target: { value: 'a b' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(demoMessage);
    expect(posts.filter((p) => p.path.startsWith('/api/auth/demo'))).toEqual([]);
  });

  it('signs in with the trimmed name; the button waits for a name', async () => {
    render(withProviders(<LoginBox />));
    const input = await screen.findByLabelText('Demo account (embedded ledger)');
    const button = screen.getByRole('button', { name: 'Sign in' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: '  alice_1 ' } });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() =>
      expect(posts.find((p) => p.path.startsWith('/api/auth/demo'))?.body).toEqual({ username: 'alice_1' }),
    );
  });
});

describe('the airdrop claim', () => {
  it('asks for a wallet before anything is sent', async () => {
    const airdrop = { id: 3, project_name: 'Drop', token_code: 'DRP', fixed_amount: '10' } as Airdrop;
    render(withProviders(<ClaimModal airdrop={airdrop} onClose={() => {}} />));
    fireEvent.click(await screen.findByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(screen.getByText(AIRDROP_MESSAGES.selectWallet)).toBeTruthy());
    expect(screen.getByLabelText('Destination wallet').getAttribute('aria-invalid')).toBe('true');
    expect(posts.filter((p) => p.path.includes('/claim'))).toEqual([]);
  });
});

// The admins tab's add form: admin-page.test.tsx ('Enter valid user ID' without sending).

describe('the trading fee', () => {
  it('answers an out-of-range fee with the server’s sentence, sending nothing; a good one is saved', async () => {
    render(withProviders(<SettingsTab />));
    const input = (await screen.findByLabelText('Trading fee (%)')) as HTMLInputElement;
    expect(input.value).toBe('0.5');
    fireEvent.change(input, { target: { value: '2x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save fee' }));
    await waitFor(() => expect(screen.getByText(ADMIN_MESSAGES.feeRange)).toBeTruthy());
    expect(posts.filter((p) => p.path === '/api/admin/fee-config/update')).toEqual([]);
    fireEvent.change(input, { target: { value: ' 0.25 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save fee' }));
    await waitFor(() =>
      expect(posts.find((p) => p.path === '/api/admin/fee-config/update')?.body).toEqual({
        fee_percentage: '0.25',
      }),
    );
    await waitFor(() => expect(input.value).toBe('0.25'));
  });
});

describe('a per-user fee override', () => {
  it('answers a bad fee with the server’s sentence; empty saves the platform’s fee (null)', async () => {
    render(withProviders(<SettingsTab />));
    const input = (await screen.findByLabelText('Fee % for olga')) as HTMLInputElement;
    expect(input.value).toBe('0.2');
    const row = input.closest('li')!;
    fireEvent.change(input, { target: { value: '-1' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(row).getByRole('alert').textContent).toBe(ADMIN_MESSAGES.feeRange));
    expect(posts.filter((p) => p.path === '/api/admin/fee-overrides/update')).toEqual([]);
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(posts.find((p) => p.path === '/api/admin/fee-overrides/update')?.body).toEqual({
        userId: 9,
        custom_fee_percentage: null,
      }),
    );
  });
});

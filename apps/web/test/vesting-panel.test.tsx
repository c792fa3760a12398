import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SELF_CUSTODY_MESSAGES,
  VESTING_AUTO_RELEASE_MESSAGES,
  type VestingScheduleView,
} from '@ledgerpad/shared';
import { VestingPanel } from '../src/features/dashboard/vesting-panel';
import { withProviders, type FetchAnswer } from './support';

// The dashboard schedule's 'Release automatically when due' switch against stubbed API answers:
// it shows the stored setting, sends PUT /api/dashboard/vesting/auto-release, is disabled while the
// change is saved, and shows a refused change (or the keeper's last failure) next to it.

const schedule = (autoRelease: boolean, autoReleaseError: string | null = null): VestingScheduleView => ({
  tokens: [
    {
      tokenId: 7,
      ticker: 'VEST',
      issuer: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
      currency: 'VEST',
      walletAddress: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      ledgerTime: '2026-11-28T12:00:00.000Z',
      tranches: [
        {
          index: 1,
          amount: '25000',
          unlockAt: '2026-11-29T12:00:00.000Z',
          status: 'locked',
          escrowSequence: 12,
          createHash: 'A'.repeat(64),
        },
      ],
      autoRelease,
      autoReleaseError,
      unclaimed: null,
    },
  ],
});

let stored: VestingScheduleView;
let putAnswer: () => Promise<FetchAnswer>;
let puts: unknown[];

beforeEach(() => {
  stored = schedule(false);
  puts = [];
  putAnswer = async () => {
    const enabled = (puts.at(-1) as { enabled: boolean }).enabled;
    stored = schedule(enabled);
    return { body: { tokenId: 7, enabled } };
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      let a: FetchAnswer;
      if (path === '/api/dashboard/vesting') a = { body: stored };
      else if (path === '/api/csrf-token') a = { body: { token: 'csrf' } };
      else if (path === '/api/dashboard/vesting/auto-release' && init?.method === 'PUT') {
        puts.push(JSON.parse(String(init.body)));
        a = await putAnswer();
      }
      a ??= { status: 404, body: { message: 'Not Found' } };
      return new Response(JSON.stringify(a.body), {
        status: a.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Release automatically when due', () => {
  it('turns on through the API, disabled while saving', async () => {
    let answer!: () => void;
    const held = new Promise<void>((r) => (answer = r));
    const first = putAnswer;
    putAnswer = async () => {
      await held;
      return first();
    };
    render(withProviders(<VestingPanel tokenId={7} />));
    const toggle = await screen.findByRole('switch', { name: 'Release automatically when due' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    fireEvent.click(toggle);
    await waitFor(() => expect(puts).toEqual([{ tokenId: 7, enabled: true }]));
    // Saving: shown as the requested state, and no second change meanwhile.
    expect((toggle as HTMLInputElement).disabled).toBe(true);
    expect((toggle as HTMLInputElement).checked).toBe(true);
    answer();
    await waitFor(() => expect((toggle as HTMLInputElement).disabled).toBe(false));
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a refused change next to the switch and keeps the stored state', async () => {
    putAnswer = async () => ({ status: 404, body: { message: VESTING_AUTO_RELEASE_MESSAGES.notFound } });
    render(withProviders(<VestingPanel tokenId={7} />));
    const toggle = await screen.findByRole('switch', { name: 'Release automatically when due' });
    fireEvent.click(toggle);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(VESTING_AUTO_RELEASE_MESSAGES.notFound);
    expect(toggle.getAttribute('aria-describedby')).toBe(alert.id);
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect((toggle as HTMLInputElement).disabled).toBe(false);
  });

  it("shows the keeper's last failure beside an enabled switch", async () => {
    const why = VESTING_AUTO_RELEASE_MESSAGES.failed('Releasing the tranche failed: no XRP for the fee.');
    stored = schedule(true, why);
    render(withProviders(<VestingPanel tokenId={7} />));
    const panel = await screen.findByTestId('vesting-panel');
    const toggle = await within(panel).findByRole('switch', { name: 'Release automatically when due' });
    expect((toggle as HTMLInputElement).checked).toBe(true);
    expect((await within(panel).findByRole('alert')).textContent).toBe(why);
  });

  it("shows only the selected token's schedule", async () => {
    stored = {
      tokens: [
        ...schedule(false).tokens,
        { ...schedule(false).tokens[0]!, tokenId: 8, ticker: 'OTHER', currency: 'OTHER' },
      ],
    };
    render(withProviders(<VestingPanel tokenId={8} />));
    const panel = await screen.findByTestId('vesting-panel');
    expect((await within(panel).findByRole('heading', { level: 3 })).textContent).toContain('OTHER');
    expect(within(panel).queryByText(/VEST/)).toBeNull();
  });

  it("says a self-custody creator's unclaimed allocation is not locked, with the claim its wallet signs", async () => {
    const text = SELF_CUSTODY_MESSAGES.allocationUnlocked;
    stored = schedule(false);
    stored.tokens[0]!.tranches[0] = {
      ...stored.tokens[0]!.tranches[0]!,
      status: 'missing',
      escrowSequence: null,
    };
    stored.tokens[0]!.unclaimed = { jobId: '00000000-0000-4000-8000-000000000001', text };
    render(withProviders(<VestingPanel tokenId={7} />));
    const box = await screen.findByTestId('vesting-unclaimed');
    expect(within(box).getByRole('status').textContent).toBe(text);
    expect(within(box).getByRole('button', { name: 'Claim and lock with your wallet' })).toBeTruthy();
    expect(screen.getByText('Not locked yet')).toBeTruthy();
  });
});

import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF_CUSTODY_MESSAGES, type DeployClaimView } from '@ledgerpad/shared';
import { DeployClaimPanel } from '../src/features/dashboard/deploy-claim-panel';
import { ApiError } from '../src/lib/api';
import { stubFetch, withProviders } from './support';

// The dashboard's claim of a self-custody deploy's Checks (docs/self-custody.md "Claiming later,
// from the dashboard"), against stubbed API answers: what the server read from the ledger is shown
// with a Claim button that runs the deploy modal's very claim (lib/dev-allocation.ts, stood in here:
// its signing is the signer's, tested there); claimed, the read again shows nothing.

const claimAllocation = vi.fn();
vi.mock('../src/lib/dev-allocation', () => ({
  claimAllocation: (...args: unknown[]) => claimAllocation(...args) as unknown,
}));

const WALLET = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const JOB = '00000000-0000-4000-8000-000000000007';
const waiting: DeployClaimView = {
  claim: {
    jobId: JOB,
    walletAddress: WALLET,
    allocation: '100000',
    firstBuy: '9066.78510061723',
    text: `${SELF_CUSTODY_MESSAGES.allocationWaiting} ${SELF_CUSTODY_MESSAGES.firstBuyWaiting}`,
  },
};
let stored: DeployClaimView;
let reads: number;

beforeEach(() => {
  stored = waiting;
  reads = 0;
  claimAllocation.mockReset();
  stubFetch((path) => {
    if (path === '/api/dashboard/deploy-claim/7') {
      reads += 1;
      return { body: stored };
    }
    if (path.startsWith('/api/wallets'))
      return {
        body: {
          wallets: [
            { id: 3, wallet_address: WALLET, wallet_name: 'Browser', created_at: '', kind: 'browser' },
          ],
        },
      };
    return undefined;
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DeployClaimPanel', () => {
  it("shows the Checks the server read, and claims them with the deploy modal's claim; then nothing", async () => {
    render(withProviders(<DeployClaimPanel tokenId={7} ticker="SAUTH" />));
    const panel = await screen.findByTestId('deploy-claim');
    expect(within(panel).getByRole('status').textContent).toBe(waiting.claim!.text);
    expect(within(panel).getByText('100,000 SAUTH')).toBeTruthy();
    expect(within(panel).getByText(/^9,066\.78.* SAUTH$/)).toBeTruthy();
    const button = within(panel).getByRole('button', { name: 'Claim with your wallet' });
    // Enabled once the wallet's kind is known (its signer).
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    let answer!: () => void;
    claimAllocation.mockImplementation(
      () =>
        new Promise((resolve) => {
          answer = () => {
            stored = { claim: null };
            resolve({
              status: 'claimed',
              amount: '100000',
              firstBuy: '9066.78510061723',
              claimHash: 'A',
              locks: [],
            });
          };
        }),
    );
    fireEvent.click(button);
    await waitFor(() => expect(claimAllocation).toHaveBeenCalledTimes(1));
    const [jobId, wallet] = claimAllocation.mock.calls[0]! as [string, Record<string, unknown>];
    expect(jobId).toBe(JOB);
    expect(wallet).toMatchObject({ wallet_address: WALLET, kind: 'browser', wallet_name: 'Browser' });
    expect(within(panel).getByRole('button', { name: 'Waiting for your wallet…' })).toBeTruthy();
    const before = reads;
    answer();
    // Read again: nothing waits any more, the panel is gone.
    await waitFor(() => expect(screen.queryByTestId('deploy-claim')).toBeNull());
    expect(reads).toBeGreaterThan(before);
  });

  it("shows the claim's refusal beside the button", async () => {
    const message = SELF_CUSTODY_MESSAGES.allocationClaimed;
    claimAllocation.mockRejectedValue(new ApiError(400, message, { message }));
    render(withProviders(<DeployClaimPanel tokenId={7} ticker="SFB" />));
    const button = await screen.findByRole('button', { name: 'Claim with your wallet' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    await waitFor(() => expect(claimAllocation).toHaveBeenCalledTimes(1));
    expect((await screen.findByRole('alert')).textContent).toBe(SELF_CUSTODY_MESSAGES.allocationClaimed);
  });

  it('shows nothing when no Check waits', async () => {
    stored = { claim: null };
    render(withProviders(<DeployClaimPanel tokenId={7} ticker="SFB" />));
    await waitFor(() => expect(reads).toBe(1));
    expect(screen.queryByTestId('deploy-claim')).toBeNull();
  });
});

import type { DevAllocationResult } from '@ledgerpad/shared';
import { apiPost } from './api';
import { runSigned, type SigningWallet } from './signer';

// A self-custody creator's dev allocation (docs/self-custody.md "Deploy"): the deploy's progress
// modal and the dashboard's schedule both offer its claim, so the call lives here.

/**
 * POST /api/deploy-token/{jobId}/allocation: the allocation, waiting in the issuer's Check once the
 * token is live, claimed and locked by one more intent the wallet signs (its trust line, the
 * CheckCash, one escrow per tranche still ahead).
 */
export const claimAllocation = (jobId: string, wallet: SigningWallet, key: (part?: string) => string) =>
  runSigned<DevAllocationResult>(
    wallet,
    () => apiPost(`/api/deploy-token/${jobId}/allocation`, {}, { idempotencyKey: key() }),
    key('signed'),
  );

import type { DeployRequest } from '@ledgerpad/shared';
import { apiPost } from '../../lib/api';
import { runSigned, type SigningWallet } from '../../lib/signer';

// The deploy page's calls (spec 001 §7 "Deploy and config"); the fees come from lib/platform-fees.

/**
 * POST /api/deploy-token (the spec's client allows it 5 minutes), with the deploy's Idempotency-Key.
 * A self-custody wallet signs the funding of the deploy's new accounts (one intent, lib/signer);
 * the answer is then the started job, as for a custodial wallet.
 */
export const startDeploy = (body: DeployRequest, wallet: SigningWallet, key: (part?: string) => string) =>
  runSigned<{ jobId: string }>(
    wallet,
    () =>
      apiPost('/api/deploy-token', body, {
        signal: AbortSignal.timeout(5 * 60_000),
        idempotencyKey: key(),
      }),
    key('signed'),
  );

import type { DeployRequest } from '@ledgerpad/shared';
import { apiPost } from '../../lib/api';

// The deploy page's calls (spec 001 §7 "Deploy and config"); the fees come from lib/platform-fees.

/** POST /api/deploy-token (the spec's client allows it 5 minutes), with the deploy's Idempotency-Key. */
export const startDeploy = (body: DeployRequest, idempotencyKey: string) =>
  apiPost<{ jobId: string }>('/api/deploy-token', body, {
    signal: AbortSignal.timeout(5 * 60_000),
    idempotencyKey,
  });

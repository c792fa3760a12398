import type { DeployRequest, DeployResult, FeesConfig, JobStatusView } from '@ledgerpad/shared';
import { apiGet, apiPost } from '../../lib/api';

// The deploy page's calls (spec 001 §7 "Deploy and config").

export const getFees = (signal?: AbortSignal) => apiGet<FeesConfig>('/api/config/fees', { signal });

/** POST /api/deploy-token (the spec's client allows it 5 minutes). */
export const startDeploy = (body: DeployRequest) =>
  apiPost<{ jobId: string }>('/api/deploy-token', body, { signal: AbortSignal.timeout(5 * 60_000) });

export const getJobStatus = (jobId: string) =>
  apiGet<JobStatusView<DeployResult>>(`/api/job-status/${encodeURIComponent(jobId)}`);

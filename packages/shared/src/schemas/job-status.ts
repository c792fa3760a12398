import { z } from 'zod';

// A background job's progress (a deploy's steps), one schema per shape (issue 41): GET
// /api/job-status/{jobId} declares it, and the socket's jobUpdated frame carries the same view.
// Its own file, not tokens.ts: that module is read on the landing route without zod (issue 40).

/** GET /api/job-status/{jobId}: the job, its steps and, once completed, its result. */
export const jobStatusViewSchema = z.object({
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  error: z.string().nullable(),
  /** The job's own result (a deploy's DeployResult), null until it completes. */
  result: z.unknown().nullable(),
  steps: z.array(
    z.object({
      name: z.string(),
      status: z.enum(['pending', 'running', 'done', 'failed']),
      txHash: z.string().nullable(),
    }),
  ),
});
/**
 * A deploy job's result (spec 001 §3 "Token (deploy/dashboard)"): the job status's `result` once a
 * deploy completes. Here, not in tokens.ts, which the landing route reads without zod (issue 40).
 */
export const deployResultSchema = z.object({
  success: z.literal(true),
  token_id: z.number().int(),
  issuer_address: z.string(),
  hot_wallet_address: z.string(),
  currency: z.string(),
  ticker: z.string(),
  amm_account: z.string().nullable(),
  /** The validated ledger index of each of the deploy's transactions, by step. */
  ledgers: z.record(z.string(), z.number().int().nullable()).optional(),
});
export type DeployResult = z.infer<typeof deployResultSchema>;

/** The view with its result typed as the job's kind makes it (`JobStatusView<DeployResult>`). */
export type JobStatusView<R = unknown> = Omit<z.infer<typeof jobStatusViewSchema>, 'result'> & {
  result: R | null;
};

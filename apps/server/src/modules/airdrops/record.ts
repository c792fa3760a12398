import type { Db } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import { airdrops } from './schema';
import { eq } from 'drizzle-orm';

// The airdrop's row and its creation job, recorded together (one database transaction): shared by
// the custodial creation (the route) and the self-custody one (the intent's finisher, once the
// source wallet's signed funding applied), so both start the same job.

export const AIRDROP_CREATE_JOB = 'airdrop-create';
export const AIRDROP_WALLET_ROLE = 'airdrop';

export interface CreateJobPayload {
  airdropId: number;
  userId: number;
  sourceWalletId: number;
  sourceAddress: string;
  currency: string;
  issuer: string;
  total: string;
  /** XRP the source wallet sends the new airdrop wallet: base reserve + one line + fee allowance. */
  fundDrops: string;
  /** The airdrop fee to the platform fee wallet (none when 0 or no fee wallet is set up). */
  feeDrops: string;
  feeAddress: string | null;
  /**
   * A self-custody source (docs/self-custody.md): its signed intent already funded the airdrop
   * wallet (made before the intent, its address in it), paid the fee and wrote a Check of the whole
   * allocation to it; the job sets the airdrop wallet's line and cashes that Check.
   */
  selfCustody?: { airdropWalletId: number; checkId: string };
}

export type AirdropValues = typeof airdrops.$inferInsert;

/** The job's steps: a self-custody source's fund and fee were its own signed transactions. */
export function createSteps(p: Pick<CreateJobPayload, 'feeAddress' | 'selfCustody'>): string[] {
  if (p.selfCustody) return ['create-wallet', 'trust', 'deposit', 'activate'];
  return ['create-wallet', 'fund', ...(p.feeAddress ? ['fee'] : []), 'trust', 'deposit', 'activate'];
}

/** Inserts the airdrop (pending) and enqueues its creation job, inside the caller's transaction. */
export async function recordAirdrop(
  tx: Db,
  jobs: JobRunner,
  values: AirdropValues,
  payload: Omit<CreateJobPayload, 'airdropId'>,
  /** The request's job key; without one, the airdrop's own. */
  jobKey: string | undefined,
): Promise<{ success: true; id: number; jobId: string }> {
  const [row] = await tx
    .insert(airdrops)
    .values({ ...values, status: 'pending' })
    .returning();
  const full: CreateJobPayload = { ...payload, airdropId: row!.id };
  const job = await jobs.enqueue(
    {
      type: AIRDROP_CREATE_JOB,
      userId: payload.userId,
      payload: full,
      key: jobKey ?? `${AIRDROP_CREATE_JOB}:${row!.id}`,
      steps: createSteps(full),
    },
    tx,
  );
  await tx.update(airdrops).set({ jobId: job.id }).where(eq(airdrops.id, row!.id));
  return { success: true, id: row!.id, jobId: job.id };
}

import { z } from 'zod';
import { idSchema, wholeNumberSchema } from './common';

// 'Lock the dev allocation' (issue 28): one schema for the deploy form's section and the deploy
// request's `vesting` field. A share unlocks after a cliff, the rest in monthly tranches; the server
// turns it into ledger escrows with `vestingTranches` (../vesting.ts).

export const VESTING_MESSAGES = {
  cliffPercent: 'Cliff share must be between 0% and 100% (at most 2 decimals).',
  cliffHours: 'Cliff must be between 0.01 and 8760 hours (at most 2 decimals).',
  months: 'Monthly tranches must run over 1 to 12 months.',
} as const;

/** The defaults: 25% after 24 hours, the rest monthly over 6 months. */
const VESTING_DEFAULTS = { cliffPercent: '25', cliffHours: '24', months: 6 } as const;

const twoDecimals = /^\d+(\.\d{1,2})?$/;
const text = (message: string, ok: (v: number) => boolean) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    // Compared as numbers only for the range; the value stays text and is computed with Decimal.
    .refine((v) => twoDecimals.test(v) && ok(Number(v)), message);

export const vestingSchema = z.object({
  /** Locks the dev allocation in escrows on the ledger. */
  enabled: z.boolean().default(true),
  /** Share of the allocation released at the cliff, percent. */
  cliffPercent: text(VESTING_MESSAGES.cliffPercent, (n) => n >= 0 && n <= 100).default(
    VESTING_DEFAULTS.cliffPercent,
  ),
  /**
   * Hours from the deploy to the cliff. At least 0.01 h (36 s): the escrows must still be in the
   * future when they reach the ledger (a passed FinishAfter is tecNO_PERMISSION).
   */
  cliffHours: text(VESTING_MESSAGES.cliffHours, (n) => n >= 0.01 && n <= 8760).default(
    VESTING_DEFAULTS.cliffHours,
  ),
  /** Monthly tranches after the cliff that release the rest. */
  months: z.coerce
    .number({ message: VESTING_MESSAGES.months })
    .int(VESTING_MESSAGES.months)
    .min(1, VESTING_MESSAGES.months)
    .max(12, VESTING_MESSAGES.months)
    .default(VESTING_DEFAULTS.months),
});
/** What an escrow guarantees (escrowLockState in ../vesting.ts works it out from the ledger's fields). */
const ESCROW_LOCK_STATES = ['locked', 'due', 'conditional', 'no-finish-after'] as const;
export type EscrowLockState = (typeof ESCROW_LOCK_STATES)[number];

export type VestingSettings = z.output<typeof vestingSchema>;
export type VestingSettingsInput = z.input<typeof vestingSchema>;

/** One tranche of a schedule as the dashboard shows it (GET /api/dashboard/vesting). */
export const VESTING_TRANCHE_STATUSES = ['locked', 'due', 'released', 'missing'] as const;
export type VestingTrancheStatus = (typeof VESTING_TRANCHE_STATUSES)[number];

/** POST /api/dashboard/vesting/release: the escrow to finish (owner and the create's sequence). */
export const vestingReleaseSchema = z.object({
  tokenId: idSchema('tokenId'),
  // An escrow's sequence is a ledger number (UInt32), not a row id: the same strict whole number.
  escrowSequence: wholeNumberSchema('escrowSequence', { min: 1, max: 4_294_967_295 }),
  csrf_token: z.string().optional(),
});
export type VestingReleaseRequest = z.output<typeof vestingReleaseSchema>;

/**
 * PUT /api/dashboard/vesting/auto-release: 'Release automatically when due' for one token's
 * schedule (its deployer only). The server's keeper then finishes each tranche once it is due.
 */
export const vestingAutoReleaseSchema = z.object({
  tokenId: idSchema('tokenId'),
  enabled: z.boolean(),
  csrf_token: z.string().optional(),
});
export type VestingAutoReleaseRequest = z.output<typeof vestingAutoReleaseSchema>;

/** PUT /api/dashboard/vesting/auto-release's answer: the setting as stored. */
export const vestingAutoReleaseResultSchema = z.object({ tokenId: z.number().int(), enabled: z.boolean() });
export type VestingAutoReleaseResult = z.infer<typeof vestingAutoReleaseResultSchema>;

export const VESTING_AUTO_RELEASE_MESSAGES = {
  notFound: 'No locked dev allocation of yours matches this token.',
  /** Shown beside the toggle when the keeper's last round could not release a due tranche. */
  failed: (why: string) => `The last automatic release failed: ${why} It will be tried again.`,
  /** An unexpected error's stand-in (its details stay in the log). */
  unexpected: 'Something went wrong.',
} as const;

/** One escrow of a token as the ledger holds it (anyone's, read from the issuer's directory). */
export const escrowViewSchema = z.object({
  /** The escrow's ledger object id. */
  index: z.string(),
  owner: z.string(),
  destination: z.string(),
  amount: z.string(),
  /** ISO times; null when absent. */
  finishAfter: z.string().nullable(),
  cancelAfter: z.string().nullable(),
  /** The transaction that created it (an escrow is never modified): its explorer link. */
  createdBy: z.string(),
});
export type EscrowView = z.infer<typeof escrowViewSchema>;

/**
 * The dev allocation on the risk panel (issues 28, 35): how much of the allocation the deployer's
 * wallet has in escrows that lock it — a FinishAfter the ledger has not reached and no Condition —
 * stated as a share of the allocation. 'locked': all of it; 'partial': some (amber); 'unlocked':
 * none (never locked, released, due, or only in escrows that lock nothing); 'not-locked': no allocation.
 */
export const devLockViewSchema = z.object({
  status: z.enum(['locked', 'partial', 'unlocked', 'not-locked']),
  /** A Ledgerpad schedule locked it at deploy (an 'unlocked' one was released, not never locked). */
  scheduled: z.boolean(),
  /** The dev allocation, percent of the supply. */
  devSharePercent: z.string(),
  /** Percent of the dev allocation in escrows that lock it (rounded down; capped at 100). */
  lockedPercent: z.string(),
  lockedAmount: z.string(),
  /** In the deployer's escrows past their FinishAfter: unlocked — can be released now. */
  dueAmount: z.string(),
  /** The last FinishAfter of the locking escrows (ISO), when any. */
  until: z.string().nullable(),
  /** The line the panel shows, e.g. 'Dev allocation 10% — 75% of it locked on the ledger until 2026-07-31'. */
  text: z.string(),
  /** The deployer's escrows of this token, each with what it guarantees now. */
  escrows: z.array(escrowViewSchema.extend({ state: z.enum(ESCROW_LOCK_STATES) })),
  /** Percent of the supply any holder has in locking escrows of this token. */
  allLockedPercent: z.string(),
});
export type DevLockView = z.infer<typeof devLockViewSchema>;

export const vestingTrancheViewSchema = z.object({
  index: z.number().int(),
  amount: z.string(),
  /** ISO unlock time (the escrow's FinishAfter). */
  unlockAt: z.string(),
  status: z.enum(VESTING_TRANCHE_STATUSES),
  /** The EscrowCreate's sequence (EscrowFinish's OfferSequence); null when never created. */
  escrowSequence: z.number().int().nullable(),
  createHash: z.string().nullable(),
});
export type VestingTrancheView = z.infer<typeof vestingTrancheViewSchema>;

/** GET /api/dashboard/vesting: the signed-in user's locked dev allocations. */
export const vestingScheduleViewSchema = z.object({
  tokens: z.array(
    z.object({
      tokenId: z.number().int(),
      ticker: z.string(),
      issuer: z.string(),
      currency: z.string(),
      walletAddress: z.string(),
      /** The validated ledger's close time (ISO): 'due' means past it. */
      ledgerTime: z.string(),
      tranches: z.array(vestingTrancheViewSchema),
      /** 'Release automatically when due' is on for this token. */
      autoRelease: z.boolean(),
      /** The keeper's last failure to release a due tranche (user-facing); null when none. */
      autoReleaseError: z.string().nullable(),
      /**
       * A self-custody creator's allocation still in the issuer's Check (docs/self-custody.md
       * "Deploy"): not locked until the wallet signs `POST /api/deploy-token/{jobId}/allocation`,
       * and the sentence saying so. Null once claimed, and for custodial deploys.
       */
      unclaimed: z.object({ jobId: z.string(), text: z.string() }).nullable(),
    }),
  ),
});
export type VestingScheduleView = z.infer<typeof vestingScheduleViewSchema>;

/** POST /api/dashboard/vesting/release's answer. */
export const vestingReleaseResultSchema = z.object({
  status: z.literal('released'),
  hash: z.string(),
  amount: z.string(),
});
export type VestingReleaseResult = z.infer<typeof vestingReleaseResultSchema>;

export const VESTING_RELEASE_MESSAGES = {
  notFound: 'No locked tranche of yours matches this token and sequence.',
  notDue: (when: string) => `This tranche unlocks at ${when}; it cannot be released before.`,
  failed: (why: string) => `Releasing the tranche failed: ${why}`,
  /** A self-custody owner's release is sent by the platform's service wallet (docs/self-custody.md). */
  noSender:
    'Releasing for a wallet whose key stays in your browser or wallet app is not available right now.',
} as const;

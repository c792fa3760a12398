import { z } from 'zod';
import { AMOUNT_DECIMALS } from '../constants';
import { tokenCodeSchema } from './token-code';
import { classicAddressSchema, idSchema, lineText, multiLineText } from './common';
import { Decimal } from '../money';
import { isServedLogoUrl } from './listing';
import { linkRefusal, type LinkKind } from './deploy';

// Airdrops (spec 001 §2 "Airdrops", §4 "Airdrop" and "Airdrop creation payload", §6 "Airdrop",
// §8): a creator moves a token allocation into a dedicated airdrop wallet; signed-in users claim a
// fixed or random share of it to one of their own wallets until the deadline.

export const AIRDROP_MESSAGES = {
  // Spec §8, exact.
  createFailed: 'Failed to create airdrop',
  claimFailed: 'Claim failed.',
  // Ours (the spec has no text for these).
  selectWallet: 'Please select a wallet.',
  token: 'Please enter the token code.',
  projectName: 'Project name must be 2 to 50 characters.',
  total: 'Total token amount must be a positive number.',
  amount: (field: string) => `${field} must be a positive number with at most ${AMOUNT_DECIMALS} decimals.`,
  digits: (field: string) => `${field} must have at most 15 significant digits.`,
  fixedRequired: 'Enter the amount each user receives.',
  randomRange: 'The random maximum must be greater than the minimum, and the minimum greater than 0.',
  tooSmall: 'The total must cover at least one allocation.',
  deadline: 'The deadline must be in the future.',
  deadlineInvalid: 'Please enter a valid deadline.',
  url: (field: string) => `${field} must be an http(s) link.`,
  lpToken: 'LP tokens cannot be airdropped.',
  logo: 'The logo must be an image uploaded here. Please upload it again.',
  walletNotFound: 'Wallet not found.',
  insufficientTokens: (available: string) =>
    `The total plus what is already allocated exceeds this wallet's balance (available: ${available}).`,
  insufficientXrp: (needed: string) =>
    `This wallet needs at least ${needed} XRP available for the airdrop fee and the airdrop wallet's reserve.`,
  notFound: 'Airdrop not found.',
  alreadyClaimed: 'You have already claimed this airdrop.',
  expired: 'This airdrop has expired.',
  exhausted: 'This airdrop has been fully claimed.',
  notActive: 'This airdrop is not active yet.',
  ownAirdrop: 'You cannot claim your own airdrop.',
  walletNotActivated: (reserve: string) =>
    `This wallet is not activated on the XRP Ledger yet, so it cannot hold the tokens: send it at least ${reserve} XRP first, then claim.`,
  trustlineMissing: (code: string) =>
    `Your wallet has no trust line for ${code}. Add the trust line first, then claim.`,
  unavailable: 'Airdrops are unavailable right now: the XRP Ledger is not connected.',
  processing: 'The claim is still being processed. Check your wallet in a minute.',
} as const;

const AMOUNT_TEXT = new RegExp(`^(?:0|[1-9][0-9]{0,14})(?:\\.[0-9]{1,${AMOUNT_DECIMALS}})?$`);

/** A positive decimal amount as text (numbers are accepted and turned into text). */
const amountText = (field: string) =>
  z
    .union([z.string(), z.number()], { message: AIRDROP_MESSAGES.amount(field) })
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    .refine((v) => AMOUNT_TEXT.test(v) && new Decimal(v).gt(0), AIRDROP_MESSAGES.amount(field))
    // The ledger keeps 16 significant digits; more would be rounded on the way.
    .refine((v) => !AMOUNT_TEXT.test(v) || new Decimal(v).precision() <= 15, AIRDROP_MESSAGES.digits(field));

const optionalAmount = (field: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), amountText(field).optional());

/** A labelled link: the token forms' rule (`linkRefusal`: https, no user:pw@, the label's own site). */
const optionalUrl = (field: string, kind: LinkKind) =>
  z.preprocess(
    (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    lineText(field, 200)
      .superRefine((v, ctx) => {
        const why = linkRefusal(kind, v);
        if (why) ctx.addIssue({ code: 'custom', message: why });
      })
      .optional(),
  );

/** POST /api/airdrops: the spec's creation payload. maxRecipients is computed by the server. */
export const createAirdropSchema = z
  .object({
    sourceWalletId: idSchema('sourceWalletId'),
    tokenCode: tokenCodeSchema('tokenCode', {
      message: AIRDROP_MESSAGES.token,
      messages: { lp: AIRDROP_MESSAGES.lpToken },
    }),
    issuerAddress: classicAddressSchema('issuerAddress'),
    projectName: z
      .string({ message: AIRDROP_MESSAGES.projectName })
      .trim()
      .min(2, AIRDROP_MESSAGES.projectName)
      .max(50, AIRDROP_MESSAGES.projectName)
      .pipe(lineText('projectName', 50, { html: 'strip' })),
    tagline: lineText('tagline', 120, { html: 'strip' }).optional().default(''),
    /** The served URL of POST /api/upload (purpose 'airdrop'); never an external link. */
    logoUrl: lineText('logoUrl', 500)
      .refine((v) => v === '' || isServedLogoUrl(v), AIRDROP_MESSAGES.logo)
      .optional()
      .default(''),
    description: multiLineText('description', 1000, { html: 'strip' }).optional().default(''),
    perUserType: z.enum(['fixed', 'random'], { message: 'perUserType must be fixed or random.' }),
    totalTokenAmount: amountText('totalTokenAmount'),
    fixedAmount: optionalAmount('fixedAmount'),
    randomMin: optionalAmount('randomMin'),
    randomMax: optionalAmount('randomMax'),
    /** Computed by the form; the server computes it again and ignores this. */
    maxRecipients: z.unknown().optional(),
    /** The random range under the list's names (used when randomMin / randomMax are absent). */
    minAmount: optionalAmount('minAmount'),
    maxAmount: optionalAmount('maxAmount'),
    deadline: z
      .union([z.string(), z.number()], { message: AIRDROP_MESSAGES.deadlineInvalid })
      .transform((v, ctx) => {
        const d = new Date(v);
        if (Number.isNaN(d.getTime())) {
          ctx.addIssue({ code: 'custom', message: AIRDROP_MESSAGES.deadlineInvalid });
          return z.NEVER;
        }
        return d;
      }),
    website: optionalUrl('website', 'website'),
    twitter: optionalUrl('twitter', 'twitter'),
    trustlineMode: z
      .enum(['auto', 'manual'], { message: 'trustlineMode must be auto or manual.' })
      .optional()
      .default('auto'),
  })
  .transform((v, ctx) => {
    const total = new Decimal(v.totalTokenAmount);
    let fixed: string | null = null;
    let min: string | null = null;
    let max: string | null = null;
    let recipients: number;
    if (v.perUserType === 'fixed') {
      if (!v.fixedAmount) {
        ctx.addIssue({ code: 'custom', path: ['fixedAmount'], message: AIRDROP_MESSAGES.fixedRequired });
        return z.NEVER;
      }
      fixed = v.fixedAmount;
      recipients = total.div(fixed).floor().toNumber();
    } else {
      min = v.randomMin ?? v.minAmount ?? null;
      max = v.randomMax ?? v.maxAmount ?? null;
      if (!min || !max || !new Decimal(max).gt(min)) {
        ctx.addIssue({ code: 'custom', path: ['randomMax'], message: AIRDROP_MESSAGES.randomRange });
        return z.NEVER;
      }
      recipients = total.div(min).floor().toNumber();
    }
    if (recipients < 1) {
      ctx.addIssue({ code: 'custom', path: ['totalTokenAmount'], message: AIRDROP_MESSAGES.tooSmall });
      return z.NEVER;
    }
    return { ...v, fixedAmount: fixed, randomMin: min, randomMax: max, maxRecipients: recipients };
  });

export type CreateAirdropRequest = z.input<typeof createAirdropSchema>;

/** POST /api/airdrops answers at once; the job moves the tokens (GET /api/job-status/{jobId}). */
export const createAirdropResultSchema = z.object({
  success: z.literal(true),
  id: z.number().int(),
  jobId: z.string(),
});
export type CreateAirdropResult = z.infer<typeof createAirdropResultSchema>;

export const claimAirdropSchema = z.object({
  destinationWalletId: idSchema('destinationWalletId', AIRDROP_MESSAGES.selectWallet),
});

/** POST /api/airdrops/{id}/claim: what the claim paid into the chosen wallet. */
export const claimAirdropResultSchema = z.object({ amount: z.string(), hash: z.string() });
export type ClaimAirdropResult = z.infer<typeof claimAirdropResultSchema>;

export type { Airdrop, AirdropStatus } from './airdrop-view';

/** GET /api/airdrops/allocations/{walletId}/{tokenCode}/{issuer}: what the wallet was allocated. */
export const airdropAllocationSchema = z.object({ allocated: z.string() });
export type AirdropAllocation = z.infer<typeof airdropAllocationSchema>;

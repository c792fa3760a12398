import { z } from 'zod';
import { classicAddressSchema } from './common';

// Self-custody wallets (issue 38, docs/self-custody.md): a browser key or a wallet app through
// xrpl-connect. The server keeps their address and public key only; it builds each transaction as
// an intent, the wallet signs it, and the server checks the signed blob is exactly that intent.

/** 'custodial': the server holds the sealed seed. 'browser' / 'external': the key never reaches it. */
export const WALLET_KINDS = ['custodial', 'browser', 'external'] as const;
export type WalletKind = (typeof WALLET_KINDS)[number];
export const walletKindSchema = z.enum(WALLET_KINDS);

/** The wallet apps xrpl-connect speaks to. */
export const WALLET_APPS = ['xaman', 'crossmark', 'gemwallet', 'walletconnect', 'ledger'] as const;
export type WalletApp = (typeof WALLET_APPS)[number];
export const walletAppSchema = z.enum(WALLET_APPS);

export const WALLET_APP_NAMES: Record<WalletApp, string> = {
  xaman: 'Xaman',
  crossmark: 'Crossmark',
  gemwallet: 'GemWallet',
  walletconnect: 'WalletConnect',
  ledger: 'Ledger',
};

/** The label shown wherever a wallet appears: 'Custodial', 'Browser key', or the app's name. */
export function walletKindLabel(kind: WalletKind | undefined, app?: WalletApp | null): string {
  if (kind === 'browser') return 'Browser key';
  if (kind === 'external') return app ? WALLET_APP_NAMES[app] : 'Wallet app';
  return 'Custodial';
}

/** Whether the server can sign for a wallet of this kind (only custodial ones). */
export const serverSigns = (kind: WalletKind | undefined): boolean => (kind ?? 'custodial') === 'custodial';

/** A challenge is valid this long after it is handed out, and used once. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/**
 * Ledgers an intent may wait for its signature and submission (its LastLedgerSequence is the
 * validated ledger + this): about 1 minute on the stand-alone ledger's 1 s closes, about 4 minutes
 * on a public network — long enough to approve in a phone app, short enough to go stale safely.
 */
export const INTENT_LEDGER_WINDOW = 60;
/** Wall-clock bound of an intent besides its LastLedgerSequence (a ledger that stopped closing). */
export const INTENT_TTL_MS = 10 * 60_000;
/**
 * At most this many transactions in one intent (a trust line, the trade, its fee; a Batch's inner
 * ones; a self-custody deploy's allocation claim: its line, the CheckCash and up to 13 escrows — a
 * cliff and 12 monthly tranches, docs/self-custody.md "Deploy").
 */
export const INTENT_MAX_TXS = 16;

/** The browser vault (apps/web/src/lib/signer/vault.ts): PBKDF2-SHA256 rounds at least, ~250 ms. */
export const VAULT_MIN_ITERATIONS = 600_000;
export const VAULT_TARGET_MS = 250;
/** Minutes of inactivity before the browser wallets lock (a setting on the wallets page). */
export const VAULT_LOCK_MINUTES_DEFAULT = 15;
export const VAULT_LOCK_MINUTES_CHOICES = [5, 15, 30, 60] as const;

/** A browser wallet's passphrase: long enough that 600,000+ PBKDF2 rounds make guessing slow. */
export const VAULT_PASSPHRASE_MIN = 10;

export const SELF_CUSTODY_MESSAGES = {
  passphraseShort: `Use a passphrase of at least ${VAULT_PASSPHRASE_MIN} characters.`,
  passphraseMismatch: 'The two passphrases differ.',
  wrongPassphrase: 'Wrong passphrase.',
  notSupported:
    "This wallet's key stays in your browser or wallet app, and this action cannot ask it to sign yet. Use a custodial wallet for it.",
  /** A self-funded deploy's dev allocation (docs/self-custody.md "Deploy"): the intent after the job. */
  allocationNotFound: 'No dev allocation or first buy of this deploy waits for your wallet.',
  allocationNotReady:
    'The deploy has not finished yet: the dev allocation can be claimed once the token is live.',
  allocationClaimed:
    'The dev allocation and first buy were already claimed: their Checks are no longer on the ledger (cashed or cancelled).',
  allocationUnlocked:
    'Your dev allocation waits in a Check from the issuer: until your wallet signs its claim and locks, it is not locked (your wallet could cash it without locking it).',
  allocationWaiting:
    'Your dev allocation waits in a Check from the issuer: your wallet signs its claim to receive it.',
  firstBuyWaiting:
    "Your first buy's tokens wait in a Check from the launch's hot wallet: your wallet signs its claim to receive them.",
  mismatch: (field: string) => `The signed transaction does not match what was prepared: ${field} differs.`,
  missingField: (field: string) =>
    `The signed transaction does not match what was prepared: ${field} is missing.`,
  extraField: (field: string) =>
    `The signed transaction does not match what was prepared: ${field} was added.`,
  count: (n: number) =>
    n === 1 ? 'Send exactly one signed transaction.' : `Send exactly ${n} signed transactions, in order.`,
  unreadable: 'The signed transaction could not be read.',
  unsigned: 'The transaction is not signed.',
  badSignature: 'The signature of the signed transaction is not valid.',
  wrongKey: "The transaction is not signed with this wallet's key (its master key or its regular key).",
  multiSigned: 'Multi-signed transactions are not supported yet.',
  expired: 'This transaction expired before it was signed: nothing was sent. Please try again.',
  sequenceMoved:
    'This wallet signed another transaction since this one was prepared: nothing was sent. Please try again.',
  alreadySigned: 'This transaction was already signed and sent: a different signed copy cannot replace it.',
  /** A Batch intent a wallet app could not sign, replaced by the same transactions one by one. */
  replaced:
    'This Batch was replaced by the same transactions signed one by one, because your wallet app could not sign it: nothing was sent. Sign those instead.',
  batchAlreadySigned: 'This Batch was already signed and sent: it cannot be replaced any more.',
  notBatch: 'Only a Batch can be replaced by its transactions signed one by one.',
  batchOnly:
    'This Batch must be signed as it is: only a wallet app that cannot sign a Batch may ask for its transactions one by one.',
  notFound: 'Signing request not found',
  challengeExpired: 'This ownership check expired or was already used. Please start again.',
  challengeWrongAddress: 'The ownership proof was signed for another address.',
  notOwner:
    "This key does not control the wallet: it is neither the account's master key nor its regular key.",
  masterDisabled:
    "This account's master key is disabled: sign the ownership proof with its regular key instead.",
  externalNeedsApp: 'Choose the wallet app.',
  browserNoApp: 'A browser wallet has no wallet app.',
  custodialExists: 'This wallet is already in your list as a custodial wallet.',
} as const;

/** A signed transaction as hex (the binary format), as wallets hand it out. */
export const signedBlobSchema = z
  .string()
  .trim()
  .max(40_000, SELF_CUSTODY_MESSAGES.unreadable)
  .regex(/^(?:[0-9A-Fa-f]{2})+$/, SELF_CUSTODY_MESSAGES.unreadable);

/** Transaction JSON as the server built it (fields named as the ledger names them). */
export const txJsonSchema = z.record(z.string(), z.unknown());
export type TxJson = z.infer<typeof txJsonSchema>;

/** The passphrase fields of the browser wallet forms (create, import, unlock before export). */
export const vaultPassphraseSchema = z
  .object({
    passphrase: z.string().min(VAULT_PASSPHRASE_MIN, SELF_CUSTODY_MESSAGES.passphraseShort).max(1024),
    confirm: z.string(),
  })
  .refine((v) => v.passphrase === v.confirm, {
    path: ['confirm'],
    message: SELF_CUSTODY_MESSAGES.passphraseMismatch,
  });
export type VaultPassphrase = z.infer<typeof vaultPassphraseSchema>;

// --- adding a self-custody wallet: challenge, then proof ---

export const ownershipChallengeRequestSchema = z
  .object({
    address: classicAddressSchema('address'),
    kind: z.enum(['browser', 'external']),
    app: walletAppSchema.optional().nullable(),
    csrf_token: z.string().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'external' && !b.app)
      ctx.addIssue({ code: 'custom', path: ['app'], message: SELF_CUSTODY_MESSAGES.externalNeedsApp });
    if (b.kind === 'browser' && b.app)
      ctx.addIssue({ code: 'custom', path: ['app'], message: SELF_CUSTODY_MESSAGES.browserNoApp });
  });
export type OwnershipChallengeRequest = z.infer<typeof ownershipChallengeRequestSchema>;

export const ownershipChallengeSchema = z.object({
  challengeId: z.string().uuid(),
  /** The unsigned proof: an AccountSet that can never apply (Sequence 0, Fee 0) carrying the challenge. */
  tx: txJsonSchema,
  /** What the wallet app shows the user (also inside the memo). */
  message: z.string(),
  expiresAt: z.string(),
});
export type OwnershipChallenge = z.infer<typeof ownershipChallengeSchema>;

// --- intents: the server builds, the wallet signs, the server checks and submits ---

export const INTENT_MODES = ['single', 'sequence', 'batch'] as const;
export type IntentMode = (typeof INTENT_MODES)[number];

export const signingIntentSchema = z.object({
  id: z.string().uuid(),
  purpose: z.string(),
  walletId: z.number().int(),
  account: z.string(),
  mode: z.enum(INTENT_MODES),
  /**
   * The exact transactions to sign, in order ('sequence': consecutive sequences, each submitted
   * once the one before succeeded). For 'batch': only the outer Batch is signed.
   */
  txs: z.array(txJsonSchema).min(1).max(INTENT_MAX_TXS),
  lastLedgerSequence: z.number().int(),
  expiresAt: z.string(),
});
export type SigningIntent = z.infer<typeof signingIntentSchema>;

/** What an action on a self-custody wallet answers instead of doing it: sign this, then post it. */
export const intentRequiredSchema = z.object({
  status: z.literal('sign'),
  intent: signingIntentSchema,
});
export type IntentRequired = z.infer<typeof intentRequiredSchema>;

export const submitSignedSchema = z.object({
  /** One signed blob per transaction of the intent ('batch': the outer Batch only). */
  blobs: z.array(signedBlobSchema).min(1).max(INTENT_MAX_TXS),
  csrf_token: z.string().optional(),
});
export type SubmitSignedRequest = z.infer<typeof submitSignedSchema>;

/**
 * POST /api/intents/{id}/sequence (docs/self-custody.md "A wallet app that cannot sign a Batch"):
 * the wallet app could not sign this Batch intent, so the web asks for the same transactions as a
 * sequence intent. The reason is the explicit request flag the server records with both intents.
 */
export const SEQUENCE_FALLBACK_REASONS = ['app-cannot-sign-batch'] as const;
export const sequenceFallbackSchema = z.object({
  reason: z.enum(SEQUENCE_FALLBACK_REASONS),
  csrf_token: z.string().optional(),
});
export type SequenceFallbackRequest = z.infer<typeof sequenceFallbackSchema>;

export const intentStatusSchema = z.object({
  id: z.string().uuid(),
  purpose: z.string(),
  /** 'voided': a Batch a wallet app could not sign, replaced by its sequence intent (never sent). */
  status: z.enum(['prepared', 'submitted', 'done', 'failed', 'expired', 'voided']),
  hashes: z.array(z.string()),
  expiresAt: z.string(),
});
export type IntentStatus = z.infer<typeof intentStatusSchema>;

/**
 * POST /api/intents/{id}/submit: once the signed transactions succeeded, the answer of the action the
 * intent was prepared for — the same body its custodial route answers (a transfer's, a swap's, a
 * deploy's job...), so its shape is that route's.
 */
export const intentSubmitResultSchema = z
  .unknown()
  .describe("The answer of the intent's action: the body its custodial route answers.");

/**
 * GET /api/dashboard/deploy-claim/{tokenId} (docs/self-custody.md "Claiming later, from the
 * dashboard"): what a self-funded deploy of the caller still leaves for its wallet in Checks on the
 * validated ledger — the dev allocation (the issuer's Check) and the first buy (the hot wallet's) —
 * with the sentence the dashboard shows beside its Claim button; null when nothing waits (or a
 * vesting schedule's "Claim and lock" offers it).
 */
export const deployClaimViewSchema = z.object({
  claim: z
    .object({
      jobId: z.string(),
      walletAddress: z.string(),
      /** The dev allocation waiting in the issuer's Check; null: none (or cashed). */
      allocation: z.string().nullable(),
      /** The first buy's tokens waiting in the hot wallet's Check; null: none (or cashed). */
      firstBuy: z.string().nullable(),
      text: z.string(),
    })
    .nullable(),
});
export type DeployClaimView = z.infer<typeof deployClaimViewSchema>;

/**
 * A self-funded deploy's dev allocation (and first buy) once its wallet signed the claim
 * (docs/self-custody.md "Deploy"): the first CheckCash's hash, and each tranche's escrow (its
 * sequence names it for release).
 */
export const devAllocationResultSchema = z.object({
  status: z.literal('claimed'),
  /** The dev allocation cashed ('0' when none was waiting). */
  amount: z.string(),
  /** The first buy's tokens cashed (the hot wallet's Check); absent: none. */
  firstBuy: z.string().optional(),
  claimHash: z.string(),
  locks: z.array(z.object({ index: z.number().int(), escrowSequence: z.number().int(), hash: z.string() })),
});
export type DevAllocationResult = z.infer<typeof devAllocationResultSchema>;

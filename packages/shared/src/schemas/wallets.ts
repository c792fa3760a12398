import { z } from 'zod';
import { MNEMONIC_WORD_COUNTS } from '../constants';
import { tokenCodeSchema } from './token-code';
import {
  classicAddressSchema,
  destinationAddressSchema,
  ID_MAX,
  idSchema,
  lineText,
  multiLineText,
  wholeNumberSchema,
} from './common';
import { signedBlobSchema, walletAppSchema, walletKindSchema } from './self-custody';
import { walletDelegationSchema } from './delegation';

// Shapes of the wallet calls (spec 001 §3 Wallet, §5 Transfer / Import wallet, §7 Wallets, §8).
// Money is text: XRP as a decimal string of XRP, tokens as rippled's decimal strings; never floats.

export const WALLET_NAME_MAX = 50;
/** At most this many live (not removed) wallets per user. */
export const MAX_WALLETS_PER_USER = 100;
export const TRANSFER_MEMO_MAX = 256;

export const WALLET_MESSAGES = {
  fillAllFields: 'Please fill all fields',
  fillAllFieldsImport: 'Please fill in all fields.',
  exactWords: (n: number) => `Please enter exactly ${n} words.`,
  alreadyExists: 'Wallet Already Exists',
  importFailed: 'Failed to import wallet. Please try again.',
  createFailed: 'Failed to create wallet',
  removeFailed: 'Failed to remove wallet',
  transferFailed: 'Something went wrong. Please check and try again.',
  removeTrustlineFailed: 'Failed to remove trustline. Please try again.',
  notFound: 'Wallet not found',
  exceedsAvailable: 'Amount cannot exceed the available balance.',
  tooManyWallets: `You can hold at most ${MAX_WALLETS_PER_USER} wallets. Remove one before adding another.`,
} as const;

/** A currency of one of the wallet's lines: a ticker or the ledger's code (LP lines included). */
const currencyCode = tokenCodeSchema('currency', { allowLp: true });
/** Ids arrive as numbers from JSON and as strings from path parameters; both strictly decimal. */
const walletIdSchema = idSchema('walletId');
/** A positive decimal amount written as text or a JSON number (converted to text, never used as float). */
const decimalAmount = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => v === '' || /^\d+(\.\d+)?$/.test(v), 'must be a positive decimal number');

export const createWalletSchema = z
  .object({
    name: lineText('name', WALLET_NAME_MAX, { html: 'strip' }).optional(),
    csrf_token: z.string().optional(),
  })
  .default({});

export const renameWalletSchema = z.object({
  name: lineText('name', WALLET_NAME_MAX, { html: 'strip' }).pipe(
    z.string().min(1, WALLET_MESSAGES.fillAllFieldsImport),
  ),
  csrf_token: z.string().optional(),
});

/** Expected word count: the one the user picked, else the first allowed count that fits. */
function expectedWordCount(words: number, picked?: number): number {
  if (picked !== undefined) return picked;
  return MNEMONIC_WORD_COUNTS.find((n) => n >= words) ?? 24;
}

export function mnemonicWords(mnemonic: string): string[] {
  return mnemonic.trim().split(/\s+/).filter(Boolean);
}

export const importWalletSchema = z
  .object({
    /** seed (default when `seed` is sent), mnemonic, or privateKey. */
    type: z.enum(['seed', 'mnemonic', 'privateKey']).optional(),
    seed: z.string().trim().max(128).optional(),
    mnemonic: z.string().max(1024).optional(),
    wordCount: wholeNumberSchema('wordCount', { min: 12, max: 24 })
      .refine((n) => (MNEMONIC_WORD_COUNTS as readonly number[]).includes(n), 'must be 12, 14, 16 or 24')
      .optional(),
    privateKey: z.string().trim().max(132).optional(),
    name: lineText('name', WALLET_NAME_MAX, { html: 'strip' }).optional(),
    csrf_token: z.string().optional(),
  })
  .superRefine((b, ctx) => {
    const type =
      b.type ?? (b.mnemonic !== undefined ? 'mnemonic' : b.privateKey !== undefined ? 'privateKey' : 'seed');
    if (type === 'mnemonic') {
      const words = mnemonicWords(b.mnemonic ?? '');
      const n = expectedWordCount(words.length, b.wordCount);
      if (words.length !== n)
        ctx.addIssue({ code: 'custom', path: ['mnemonic'], message: WALLET_MESSAGES.exactWords(n) });
    } else if (type === 'privateKey' ? !b.privateKey : !b.seed) {
      ctx.addIssue({ code: 'custom', path: [type], message: WALLET_MESSAGES.fillAllFieldsImport });
    }
  });
export type ImportWalletRequest = z.infer<typeof importWalletSchema>;

const tokenRefSchema = z.object({ currency: currencyCode, issuer: classicAddressSchema('issuer') });

const recipientCheck = destinationAddressSchema('recipient');

export const transferSchema = z
  .object({
    walletId: walletIdSchema,
    recipient: z.string().trim().max(64, 'recipient must be a valid XRPL address').default(''),
    amount: decimalAmount.default(''),
    /** null or absent = XRP. */
    token: tokenRefSchema.nullable().optional(),
    memo: multiLineText('memo', TRANSFER_MEMO_MAX).optional().nullable(),
    destinationTag: wholeNumberSchema('destinationTag', { max: 4294967295 }).optional().nullable(),
    csrf_token: z.string().optional(),
    /** Hidden form field; people leave it empty, bots fill it. */
    honeypot: z.string().optional(),
  })
  .superRefine((b, ctx) => {
    // Each missing field is named, so a form marks the right one.
    if (!b.recipient)
      ctx.addIssue({ code: 'custom', path: ['recipient'], message: WALLET_MESSAGES.fillAllFields });
    else if (!recipientCheck.safeParse(b.recipient).success)
      ctx.addIssue({
        code: 'custom',
        path: ['recipient'],
        message: 'recipient must be a valid XRPL address',
      });
    if (!b.amount) ctx.addIssue({ code: 'custom', path: ['amount'], message: WALLET_MESSAGES.fillAllFields });
  });
export type TransferRequest = z.infer<typeof transferSchema>;

/** POST /api/wallets/self-custody: the signed ownership proof of a challenge (docs/self-custody.md). */
export const addSelfCustodyWalletSchema = z.object({
  challengeId: z.string().uuid('challengeId must be a challenge id'),
  signedTx: signedBlobSchema,
  name: lineText('name', WALLET_NAME_MAX, { html: 'strip' }).optional(),
  csrf_token: z.string().optional(),
});
export type AddSelfCustodyWalletRequest = z.infer<typeof addSelfCustodyWalletSchema>;

export const removeTrustlineSchema = z.object({
  walletId: walletIdSchema,
  issuer: classicAddressSchema('issuer'),
  currency: currencyCode,
  csrf_token: z.string().optional(),
});
export type RemoveTrustlineRequest = z.infer<typeof removeTrustlineSchema>;

export const balancesRequestSchema = z
  .object({
    /** Wallet ids or addresses to refresh; absent = all of the user's wallets. */
    wallets: z
      .array(
        z.union([
          z.number().int().min(1).max(ID_MAX),
          z.string().max(64),
          z.object({ id: z.number().int().min(1).max(ID_MAX) }).passthrough(),
        ]),
      )
      .max(100)
      .optional(),
    csrf_token: z.string().optional(),
  })
  .default({});

// --- responses ---

/**
 * Who signs for the wallet (docs/self-custody.md). The server always sends both; an answer without
 * them (an older server, a fixture) reads as custodial.
 */
const walletKindFields = {
  kind: walletKindSchema.optional(),
  /** For 'external' wallets: the wallet app (xaman, crossmark, gemwallet, walletconnect, ledger). */
  wallet_app: walletAppSchema.nullable().optional(),
};

export const walletSchema = z.object({
  id: z.number().int(),
  wallet_address: z.string(),
  wallet_name: z.string().nullable(),
  created_at: z.string(),
  ...walletKindFields,
  /** Self-custody wallets: the delegation read from the ledger (null: never enabled). */
  delegation: walletDelegationSchema.nullable().optional(),
});
export type WalletSummary = z.infer<typeof walletSchema>;

export const walletListResponseSchema = z.object({ wallets: z.array(walletSchema) });

export const createdWalletSchema = walletSchema.extend({
  /** Shown once; the server never returns it again. */
  wallet_seed: z.string(),
});
export type CreatedWallet = z.infer<typeof createdWalletSchema>;

/**
 * Request and answer fields that carry a wallet secret. The server keeps their values out of
 * everything it writes but the sealed custody store: stored idempotent answers lose them, log lines
 * show them redacted (docs/key-custody.md "Never written").
 */
export const SECRET_FIELDS = [
  'wallet_seed',
  'seed',
  'secret',
  'mnemonic',
  'privateKey',
  'private_key',
  'master_seed',
  'master_key',
  'passphrase',
] as const;

export const SECRET_MESSAGES = {
  shownOnce:
    "A wallet's seed is shown once, in the first answer to the request that created it, and never again: this is the same wallet, without its seed.",
} as const;

/**
 * `POST /api/wallets` replayed with the same Idempotency-Key (a retry after a lost answer): the same
 * wallet, without its seed, and a note that it was shown once.
 */
export const replayedWalletSchema = walletSchema.extend({
  secret_shown_once: z.literal(true),
  secret_notice: z.string(),
});
export type ReplayedWallet = z.infer<typeof replayedWalletSchema>;

export const walletTokenSchema = z.object({
  /** Ticker decoded from the ledger code (hex codes become text); LP codes stay hex. */
  currency: z.string(),
  /** The raw ledger code, for sending back (trust line removal, transfers). */
  currencyCode: z.string(),
  issuer: z.string(),
  /** For LP tokens the issuer of the pool's token; otherwise the same as issuer. */
  realIssuer: z.string(),
  /** Spendable: the trust line's balance (escrowed tokens have left it). */
  value: z.string(),
  /** In the wallet's own escrows (a locked dev allocation): shown as locked, never spendable. */
  locked: z.string().optional(),
  /**
   * Platform fees in this token the wallet still owes (a trade's fee the fee job pays after it): part
   * of `value` on the ledger, but the server's funds check takes it off, so every form does too.
   */
  owed: z.string().optional(),
  lpName: z.string().optional(),
});
export type WalletToken = z.infer<typeof walletTokenSchema>;

export const WALLET_STATUS = { active: 'Activated', inactive: 'Not Activated' } as const;

export const walletBalanceSchema = z.object({
  id: z.number().int(),
  wallet_address: z.string(),
  wallet_name: z.string().nullable(),
  ...walletKindFields,
  /** XRP, decimal string. */
  balance: z.string(),
  status: z.enum([WALLET_STATUS.active, WALLET_STATUS.inactive]),
  /** XRP locked by the reserve (base + owner count × increment), decimal string. */
  ledgerReserve: z.string(),
  /** Token balances of the wallet's trust lines (zero balances included, issued-by-self excluded). */
  tokens: z.array(walletTokenSchema),
  /** The spec's Wallet.trustlines[]: currency (decoded), its ledger code and issuer of each line. */
  trustlines: z.array(z.object({ currency: z.string(), currencyCode: z.string(), issuer: z.string() })),
  /**
   * What a screen needs to say what the wallet can spend before it asks (docs/money.md): with
   * `spendableXrp(balance, ownerCount, reserves, action, committed)` from the money layer.
   */
  spendable: z
    .object({
      ownerCount: z.number().int(),
      /** balance − reserve − committed, XRP (the figure 'Insufficient balance' answers name). */
      available: z.string(),
      /** XRP taken by transactions still in flight and fees owed, XRP. */
      committed: z.string(),
      baseReserve: z.string(),
      ownerReserve: z.string(),
      /** Network fee of one transaction, XRP. */
      networkFee: z.string(),
      /** The user's trading fee in percent. */
      tradingFeePercent: z.string(),
    })
    .optional(),
});
export type WalletBalance = z.infer<typeof walletBalanceSchema>;

export const trustlineSchema = z.object({
  currency: z.string(),
  currencyCode: z.string(),
  issuer: z.string(),
  balance: z.string(),
  limit: z.string(),
  lpName: z.string().optional(),
});
export const trustlinesResponseSchema = z.object({ trustlines: z.array(trustlineSchema) });
export type Trustline = z.infer<typeof trustlineSchema>;

export const xrplStatusSchema = z.object({ connected: z.boolean() });

export const transferResponseSchema = z.object({
  success: z.literal(true),
  hash: z.string(),
  ledger_index: z.number().int().nullable(),
  /** What arrived: XRP decimal string for XRP, token value for tokens. */
  delivered_amount: z.string(),
});
export type TransferResponse = z.infer<typeof transferResponseSchema>;

// --- trust line limit (Wallets page, Set limit modal) ---

/** Messages of POST /api/wallets/set-trustline-limit and its form (spec §8 has only `failed`). */
export const TRUSTLINE_LIMIT_MESSAGES = {
  invalid: 'Limit must be a number of 0 or more.',
  precision: 'Limit can have at most 16 significant digits.',
  belowBalance: (held: string, ticker: string) =>
    `The limit cannot be lower than the ${held} ${ticker} this wallet holds.`,
  noLine: 'This wallet has no trust line for that token.',
  failed: 'Failed to set trust line limit.',
} as const;

const significantDigits = (v: string): number => {
  const digits = v.replace('.', '').replace(/^0+/, '');
  return v.includes('.') && digits === '' ? 1 : digits.replace(/0+$/, '').length || 1;
};

/** A new limit for one of the wallet's trust lines: a non-negative decimal, ≤ 16 significant digits. */
export const setTrustlineLimitSchema = z.object({
  walletId: walletIdSchema,
  issuer: classicAddressSchema('issuer'),
  currency: currencyCode,
  limit: z
    .union([z.string(), z.number()])
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    .superRefine((v, ctx) => {
      // One message per value, the first that applies (the form shows it under the field).
      const message = !v
        ? WALLET_MESSAGES.fillAllFieldsImport
        : v.length > 40 || !/^\d+(\.\d+)?$/.test(v)
          ? TRUSTLINE_LIMIT_MESSAGES.invalid
          : significantDigits(v) > 16
            ? TRUSTLINE_LIMIT_MESSAGES.precision
            : undefined;
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
  csrf_token: z.string().optional(),
});
export type SetTrustlineLimitRequest = z.infer<typeof setTrustlineLimitSchema>;

export const setTrustlineLimitResponseSchema = z.object({
  success: z.literal(true),
  hash: z.string(),
  /** The limit as the ledger now holds it (canonical decimal text). */
  limit: z.string(),
});
export type SetTrustlineLimitResponse = z.infer<typeof setTrustlineLimitResponseSchema>;

// --- answers of the other wallet routes (issue 41: each route declares its response schema) ---

/** POST /api/wallets: the new wallet with its seed (shown once), or, replayed, the same one without it. */
export const createWalletResponseSchema = z.union([createdWalletSchema, replayedWalletSchema]);

/** POST /api/wallets/balances: each selected wallet (all of the user's when none is named). */
export const walletBalancesResponseSchema = z.array(walletBalanceSchema);

/** GET /api/wallets/{id}/delegation: the delegation read from the ledger (null: never enabled). */
export const walletDelegationResponseSchema = z.object({ delegation: walletDelegationSchema.nullable() });

/** DELETE /api/wallets/{id}: the wallet is archived (its sealed key is kept). */
export const walletRemovedSchema = z.object({ success: z.literal(true) });

/** POST /api/wallets/remove-trustline: the TrustSet that zeroed the line's limit. */
export const removeTrustlineResponseSchema = z.object({ success: z.literal(true), hash: z.string() });
export type RemoveTrustlineResponse = z.infer<typeof removeTrustlineResponseSchema>;

/** GET /api/wallets/{id}/ledger-objects: the wallet's reserve (XRP, decimal strings) and its objects. */
export const ledgerObjectsResponseSchema = z.object({
  /** What the reserve locks now: base + owner count × increment (0 for an unactivated account). */
  reserve: z.string(),
  baseReserve: z.string(),
  ownerReserve: z.string(),
  ownerCount: z.number().int(),
  /** The account's ledger objects (paged: ?limit=&offset=), each its type and index. */
  objects: z.array(z.object({ type: z.string(), index: z.string() })),
});
export type LedgerObjectsResponse = z.infer<typeof ledgerObjectsResponseSchema>;

/**
 * POST /api/wallets/{id}/fund and /fund-rlusd (the faucets of the stand-alone ledger and testnet):
 * what was paid; an XRP payment from testnet's public faucet may come without the hash.
 */
export const faucetResultSchema = z.object({
  success: z.literal(true),
  amount: z.string(),
  hash: z.string().optional(),
});
export type FaucetResult = z.infer<typeof faucetResultSchema>;

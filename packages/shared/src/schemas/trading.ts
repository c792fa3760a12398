import { z } from 'zod';
import { AMOUNT_DECIMALS, DEFAULT_SLIPPAGE_PERCENT, MIN_AMOUNT, SLIPPAGE_DECIMALS } from '../constants';
import { tokenCodeSchema } from './token-code';
import { classicAddressSchema, wholeNumberSchema } from './common';
import { signingIntentSchema } from './self-custody';
import { Decimal } from '../money';

// Swaps and quotes (spec 001 §5, §7, §8): the bodies the swap screen sends and the server checks
// with the same schema, and the answers.

export const SWAP_MESSAGES = {
  selectWalletAndToken: 'Please select a wallet and token.',
  /** A wallet is selected, no token yet (issue 39: the spec's sentence asked for a wallet too). */
  selectToken: 'Please select a token.',
  /** A token is chosen, no wallet yet. */
  selectWallet: 'Please select a wallet.',
  invalidAmount: 'Please enter a valid amount.',
  limitPrice: 'Please enter a price for the limit order.',
  insufficientLiquidity: 'Insufficient Liquidity',
  swapFailed: '❌ Swap failed',
  swapError: '❌ Swap error occurred.',
  swapRetry: '❌ Swap failed. Please try again.',
  limitFailed: 'Failed to place limit order',
  slippageExceeded:
    'The price moved beyond your slippage tolerance: nothing was traded (only the network fee was paid).',
  slippage: `Slippage must be a percentage from 0 to 50 with at most ${SLIPPAGE_DECIMALS} decimals.`,
  requireAuth: 'This token requires the issuer to authorize your trust line before you can buy it.',
  selectWallets: 'Please select multiple wallets and a token.',
  randomRange: 'Please enter a valid min and max XRP range.',
} as const;

const decimalText = (message: string) => z.union([z.string(), z.number()], { message }).transform(String);
const isDecimal = (v: string) => /^\d+(\.\d+)?$/.test(v.trim());
const decimals = (v: string) => (v.split('.')[1] ?? '').length;

/** An amount the user typed: at least 0.000001 with at most 6 decimals (spec 001 §5). */
export const tradeAmountSchema = decimalText(SWAP_MESSAGES.invalidAmount)
  .transform((v) => v.trim())
  .refine(
    (v) =>
      isDecimal(v) &&
      decimals(v) <= AMOUNT_DECIMALS &&
      new Decimal(v).gte(MIN_AMOUNT) &&
      new Decimal(v).lt('1e15'),
    SWAP_MESSAGES.invalidAmount,
  );

/** Slippage in percent, 0–50, at most 2 decimals; 0.50 when not given. */
export const slippageSchema = decimalText(SWAP_MESSAGES.slippage)
  .transform((v) => v.trim())
  .refine(
    (v) => isDecimal(v) && decimals(v) <= SLIPPAGE_DECIMALS && new Decimal(v).lte(50),
    SWAP_MESSAGES.slippage,
  )
  .default(DEFAULT_SLIPPAGE_PERCENT);

/** A token as the screen names it: its ticker or 40-hex currency code (output: the ledger code). */
const tokenCode = tokenCodeSchema('token', { message: SWAP_MESSAGES.selectWalletAndToken });

export const TRADE_SIDES = ['BUY', 'SELL'] as const;
export type TradeSide = (typeof TRADE_SIDES)[number];
export const QUOTE_ASSETS = ['XRP', 'RLUSD'] as const;
export type QuoteAsset = (typeof QUOTE_ASSETS)[number];
/** A quote asset in an answer. */
export const quoteAssetSchema = z.enum(QUOTE_ASSETS);

/**
 * POST /api/swap in both of the spec's shapes: `walletAddress` or `wallet`. BUY spends `amount` of
 * the quote asset (XRP, or RLUSD with baseAsset RLUSD); SELL sells `amount` tokens.
 */
const swapFields = z.object({
  walletAddress: classicAddressSchema('walletAddress').optional(),
  wallet: classicAddressSchema('wallet').optional(),
  issuer: classicAddressSchema('issuer'),
  token: tokenCode,
  amount: tradeAmountSchema,
  type: z.enum(TRADE_SIDES, { message: 'type must be BUY or SELL.' }),
  slippage: slippageSchema,
  baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
});
const hasWallet: [
  (b: { walletAddress?: string; wallet?: string }) => boolean,
  { message: string; path: string[] },
] = [
  (b) => b.walletAddress !== undefined || b.wallet !== undefined,
  { message: SWAP_MESSAGES.selectWalletAndToken, path: ['walletAddress'] },
];

export const swapRequestSchema = swapFields
  .extend({
    /**
     * What the screen's quote said the trade receives (the slippage floor's base). Advisory: a
     * value that is not a number text is ignored (the floor then comes from a fresh simulation),
     * never a 400.
     */
    expected: z
      .unknown()
      .optional()
      .transform((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined)),
  })
  .refine(...hasWallet);

/** Longest a limit order may rest when it is given an expiry: one year, in minutes. */
const LIMIT_ORDER_MAX_MINUTES = 525_600;

/**
 * POST /api/limit-order: the swap body plus `price` (quote asset per token; XRP per token for XRP
 * pairs). BUY spends `amount` of the quote asset for amount ÷ price tokens; SELL sells `amount`
 * tokens for amount × price. `expiresInMinutes` (this server's addition) lets the ledger drop it.
 */
export const limitOrderSchema = swapFields
  .extend({
    price: decimalText(SWAP_MESSAGES.limitPrice)
      .transform((v) => v.trim())
      .refine(
        (v) => isDecimal(v) && decimals(v) <= 15 && new Decimal(v).gt(0) && new Decimal(v).lt('1e15'),
        SWAP_MESSAGES.limitPrice,
      ),
    expiresInMinutes: wholeNumberSchema('expiresInMinutes', {
      min: 1,
      max: LIMIT_ORDER_MAX_MINUTES,
    }).optional(),
  })
  .refine(...hasWallet);

/**
 * POST /api/amm-info: what a swap would execute now. `amountXrp` (the quote asset's amount) for a
 * BUY, `amountToken` for a SELL. `wallet` (this server's addition) quotes from that wallet exactly
 * as its swap would execute; without it the caller's first wallet is used.
 */
export const quoteRequestSchema = z
  .object({
    issuer: classicAddressSchema('issuer'),
    token: tokenCode,
    amountXrp: tradeAmountSchema.optional(),
    amountToken: tradeAmountSchema.optional(),
    tradeType: z.enum(TRADE_SIDES, { message: 'tradeType must be BUY or SELL.' }),
    baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
    wallet: classicAddressSchema('wallet').optional(),
  })
  .refine((b) => (b.tradeType === 'BUY' ? b.amountXrp !== undefined : b.amountToken !== undefined), {
    message: SWAP_MESSAGES.invalidAmount,
    path: ['amount'],
  });

export const antiSniperQuoteSchema = z.object({
  percent: z.string(),
  endsInSeconds: z.number(),
  fee: z.string(),
});
export type AntiSniperQuote = z.infer<typeof antiSniperQuoteSchema>;

export const quoteViewSchema = z.object({
  status: z.literal('success'),
  /** What the trade would receive (tokens for a BUY, the quote asset for a SELL), 6 decimals. */
  tokenAmountRounded: z.string(),
  /** Exact amounts the ledger would move (decimal strings; XRP in XRP). */
  spend: z.string(),
  receive: z.string(),
  quote: quoteAssetSchema,
  /** Quote asset per token, as executed. */
  effectivePrice: z.string(),
  /** Quote asset per token before the trade (the pool's spot price, or the best offer). */
  spotPrice: z.string().nullable(),
  /** How much worse than spot the trade executes, in percent (2 decimals). */
  priceImpactPercent: z.string().nullable(),
  /**
   * What `spotPrice` and the impact are measured against (issue 39, additive): the pool's spot, a
   * bonding curve's next price (its first offer, the curve's fee in it), or the book's best offer.
   */
  impactAgainst: z.enum(['pool', 'curve', 'book']).optional(),
  /** The platform's trading fee on this trade, in the quote asset (paid as its own payment after the trade). */
  fee: z.string(),
  /** Less than the whole amount would execute at any price. */
  partial: z.boolean(),
  // What the swap box discloses before the click (issue 25); additive, so older answers lack them.
  /** The user's trading fee in percent (an admin's override, else the platform's). */
  feePercent: z.string(),
  /**
   * The platform's fee already inside the price, in the quote asset: the part of the trade that
   * crossed a bonding curve pays it in the curve's prices ('0' elsewhere). Not charged again.
   */
  feeInPrice: z.string().optional(),
  /** The curve's fee rate in percent when part of the trade crosses a curve. */
  curveFeePercent: z.string().optional(),
  /**
   * A curve launch's anti-sniper window (issue 37, docs/launch-protection.md), while it lasts and
   * the trade buys on the curve: the surcharge inside the curve's prices now, in percent; the
   * seconds of ledger time until it ends; and what of this buy's price it is, in the quote asset
   * (already inside `spend`, not charged again).
   */
  antiSniper: antiSniperQuoteSchema.optional(),
  /**
   * Network fees of every transaction the trade signs, in XRP: the trust line (when a buy opens one),
   * the trade, and the fee payment (when there is a fee).
   */
  networkFee: z.string().optional(),
  /** XRP a new trust line locks as owner reserve ('0' when the wallet has the line or sells). */
  reserve: z.string().optional(),
  /** A buy opens the wallet's trust line to the token first. */
  opensTrustLine: z.boolean().optional(),
});
export type QuoteView = z.infer<typeof quoteViewSchema>;

export const swapResultSchema = z.object({
  status: z.enum(['success', 'partial']),
  /** What the trade received (tokens for a BUY, the quote asset for a SELL). */
  swappedAmount: z.string(),
  spent: z.string(),
  received: z.string(),
  quote: quoteAssetSchema,
  hash: z.string(),
  fee: z.string(),
  message: z.string(),
});
export type SwapResult = z.infer<typeof swapResultSchema>;

/** POST /api/add-trustline (spec 001 §7): one wallet's trust line to a token. */
export const addTrustlineSchema = z.object({
  wallet: classicAddressSchema('wallet'),
  issuer: classicAddressSchema('issuer'),
  token: tokenCode,
});

export const TRUSTLINE_MESSAGES = {
  added: '✅ Trustline successfully added!',
  failed: 'Failed to add trustline',
  retry: 'Failed to add trustline. Please try again.',
  batch: (ok: number, failed: number) => `✅ ${ok} trustlines added. ❌ ${failed} failed.`,
  batchFailed: '❌ Batch trustline request failed.',
} as const;

export const addTrustlineResultSchema = z.object({
  status: z.enum(['success', 'error']),
  /** Set when the line was already there (nothing was sent). */
  existed: z.boolean().optional(),
  hash: z.string().optional(),
  error: z.string().optional(),
  /** The ledger's result code when the ledger refused the line. */
  result: z.string().optional(),
});
export type AddTrustlineResult = z.infer<typeof addTrustlineResultSchema>;

/** PUT /api/user/slippage: the user's saved market slippage (the same rule as a swap's). */
export const slippagePreferenceSchema = z.object({ slippage: slippageSchema });
export type SlippagePreference = z.infer<typeof slippagePreferenceSchema>;

/** Most wallets one multi-wallet request may trade from. */
const SWAP_BATCH_MAX = 50;

/**
 * POST /api/swap/batch (this server's addition): one multi-wallet market trade. The wallets trade
 * one after another, each quoted on the pool and book the earlier ones left (docs/money.md
 * "Multi-wallet buys"), so the default slippage holds for all of them.
 */
export const swapBatchSchema = z.object({
  issuer: classicAddressSchema('issuer'),
  token: tokenCode,
  type: z.enum(TRADE_SIDES, { message: 'type must be BUY or SELL.' }),
  slippage: slippageSchema,
  baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
  orders: z
    .array(
      z.object({
        walletAddress: classicAddressSchema('walletAddress'),
        amount: tradeAmountSchema,
        /**
         * What the batch quote said this wallet receives after the wallets before it traded (issue
         * 39, additive): the floor signed is this less the slippage — the minimum the screen showed.
         */
        expected: decimalText('expected must be a decimal amount.')
          .refine((v) => isDecimal(v) && new Decimal(v).gt(0), 'expected must be a decimal amount.')
          .optional(),
      }),
      {
        message: SWAP_MESSAGES.selectWallets,
      },
    )
    .min(1, SWAP_MESSAGES.selectWallets)
    .max(SWAP_BATCH_MAX, `At most ${SWAP_BATCH_MAX} wallets per request.`)
    .refine((o) => new Set(o.map((x) => x.walletAddress)).size === o.length, 'Each wallet can appear once.'),
});

/**
 * POST /api/swap/batch/quote (issue 39): each wallet's own quote before the click, in the order the
 * batch trades — each on the market the wallets before it leave (its `receive` and price are after
 * theirs). `minimumReceived` is the floor its trade will sign (the shared `minimumReceived` of that
 * `receive` at the batch's slippage); a wallet that cannot trade has its sentence instead.
 */
export const swapBatchQuoteItemSchema = z.object({
  walletAddress: z.string(),
  amount: z.string(),
  quote: quoteViewSchema.optional(),
  minimumReceived: z.string().optional(),
  error: z.string().optional(),
});
export type SwapBatchQuoteItem = z.infer<typeof swapBatchQuoteItemSchema>;
export const swapBatchQuoteSchema = z.object({
  status: z.literal('success'),
  wallets: z.array(swapBatchQuoteItemSchema),
});
export type SwapBatchQuote = z.infer<typeof swapBatchQuoteSchema>;

/** One wallet's outcome in a batch: its trade, or why it failed (the sentence and the ledger code). */
export const swapBatchItemSchema = z.object({
  walletAddress: z.string(),
  /**
   * 'sign': a self-custody wallet without delegated trading — its swap is this intent, to be signed
   * and posted to /api/intents/{id}/submit (docs/self-custody.md "Multi-wallet buys").
   */
  status: z.enum(['success', 'partial', 'failed', 'sign']),
  swap: swapResultSchema.optional(),
  intent: signingIntentSchema.optional(),
  error: z.string().optional(),
  /** The ledger's result code when the ledger refused it. */
  result: z.string().optional(),
});
export type SwapBatchItem = z.infer<typeof swapBatchItemSchema>;

export const swapBatchResultSchema = z.object({
  status: z.enum(['success', 'partial', 'failed']),
  succeeded: z.number(),
  failed: z.number(),
  /** Self-custody wallets whose swap waits for their signature (items with status 'sign'). */
  toSign: z.number().optional(),
  /** '✅ N swap(s) successful!' or '⚠️ N swap(s) failed. Check logs.' (spec 001 §8). */
  message: z.string(),
  results: z.array(swapBatchItemSchema),
});
export type SwapBatchResult = z.infer<typeof swapBatchResultSchema>;

export const SWAP_BATCH_MESSAGES = {
  success: (n: number) => `✅ ${n} swap(s) successful!`,
  failed: (n: number) => `⚠️ ${n} swap(s) failed. Check logs.`,
} as const;

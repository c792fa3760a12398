import { z } from 'zod';
import { AMOUNT_DECIMALS, FEE_VOTE_MULTIPLIER } from '../constants';
import { sameCurrency } from '../currency';
import { tokenCodeSchema } from './token-code';
import { classicAddressSchema } from './common';
import { QUOTE_ASSETS } from './trading';
import { Decimal } from '../money';

// Liquidity (spec 001 §5, §7, §8): AMM deposits, withdrawals, the fee vote, the LP token balance and
// price. The screen and the server check the same bodies with these schemas.

const ADD_FAILED = 'Failed to add liquidity';
const REMOVE_FAILED = 'Failed to remove liquidity';
const VOTE_FAILED = 'Failed to submit vote';

/** The screen's line for a failure: the server's text (not repeating the prefix), else 'Unknown error'. */
const failedLine = (prefix: string) => (error?: string | null) =>
  error && error.startsWith(prefix) ? `❌ ${error}` : `❌ ${prefix}: ${error || 'Unknown error'}`;

export const LIQUIDITY_MESSAGES = {
  /** What a fee vote changed, from the pool after it: its weight and the fee now in force. */
  voteRecorded: (weightPercent: string, feePercent: string) =>
    `Your vote (weight ${weightPercent}%) is recorded; the pool fee is now ${feePercent}%`,
  voteNotRecorded:
    'Your vote was not recorded: the pool’s eight vote slots are held by larger LP holders. Nothing changed (only the network fee was paid).',
  added: '✅ Liquidity added successfully!',
  removed: '✅ Liquidity removed successfully!',
  addFailed: ADD_FAILED,
  removeFailed: REMOVE_FAILED,
  addFailedLine: failedLine(ADD_FAILED),
  removeFailedLine: failedLine(REMOVE_FAILED),
  /** 'Please enter the amount of XRP to add.' (or the token's ticker in place of XRP). */
  enterAmount: (asset: string) => `Please enter the amount of ${asset} to add.`,
  enterBoth: 'Please enter the amount of both assets to add.',
  invalidToken: 'Invalid token amount.',
  enterLp: 'Please enter the LP token amount to withdraw.',
  lpOverBalance: 'The LP token amount is more than your LP token balance.',
  invalidLimitPrice: 'The limit price must be a positive number of LP tokens per unit.',
  chooseAsset: 'Please choose the asset to withdraw.',
  fillAll: 'Please fill all fields.',
  feeRange: 'The trading fee must be between 0% and 1%.',
  voteSuccess: (percent: string) => `✅ Vote submitted successfully for fee: ${percent}%`,
  voteFailed: VOTE_FAILED,
  voteRetry: 'Failed to submit vote. Please try again.',
  noPool: 'This token has no liquidity pool.',
  noLpTokens: 'This wallet holds no LP tokens of this pool.',
  selectWalletAndToken: 'Please select a wallet and token.',
  bidTooLow: 'This wallet holds fewer LP tokens than the auction slot costs.',
  bidPriceMoved: 'The auction slot price went up since it was shown. Please look at the new price.',
  bidSuccess: '✅ You hold the auction slot: your trades in this pool pay the discounted fee.',
  bidFailed: 'Failed to bid for the auction slot',
  /**
   * A single-asset withdrawal whose limit price asks for more than it is expected to pay (issue 39):
   * the ledger would refuse it (tecAMM_FAILED) and keep the network fee, so it is not signed.
   */
  limitUnmet: (expected: string, needed: string, unit: string) =>
    `This withdrawal is expected to pay ${expected} ${unit}, less than the ${needed} ${unit} your limit price asks for (LP tokens ÷ limit price): the ledger would refuse it. Nothing was signed: lower the limit price or withdraw in another mode.`,
} as const;

/**
 * Whether a single-asset withdrawal's limit can be met: the least the limit asks for (LP tokens ÷
 * limit price) against the expected payout. The server checks it before signing, the screen before
 * the click; null when there is no limit.
 */
export function singleWithdrawLimit(
  amountLp: string,
  limitPrice: string,
  expected: string,
): { met: boolean; needed: string } | null {
  if (!/^\d+(\.\d+)?$/.test(limitPrice) || !/^\d+(\.\d+)?$/.test(amountLp)) return null;
  const price = new Decimal(limitPrice);
  if (price.lte(0)) return null;
  const needed = new Decimal(amountLp).div(price);
  return {
    met: new Decimal(expected).gte(needed),
    needed: needed.toSignificantDigits(15, Decimal.ROUND_UP).toFixed(),
  };
}

const tokenCode = tokenCodeSchema('token', { message: LIQUIDITY_MESSAGES.selectWalletAndToken });

/** An asset of a pool as the screen names it: XRP, or a currency (ticker or 40-hex) and issuer. */
export const poolAssetSchema = z.union([
  z.object({ currency: z.literal('XRP'), issuer: z.undefined().optional() }),
  // The base of an RLUSD pair, named without its issuer (the server knows it).
  z.object({ currency: z.literal('RLUSD'), issuer: z.undefined().optional() }),
  z.object({ currency: tokenCode, issuer: classicAddressSchema('selectedAsset.issuer') }),
]);
export type PoolAssetRef = z.infer<typeof poolAssetSchema>;

const text = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? '' : String(v).trim()));
const isDecimal = (v: string) => /^\d+(\.\d+)?$/.test(v) || /^\.\d+$/.test(v);
const decimals = (v: string) => (v.split('.')[1] ?? '').length;
/** A positive amount: up to 6 decimals for XRP (drops), up to 15 for issued amounts. */
const positive = (v: string, maxDecimals: number) =>
  isDecimal(v) && decimals(v) <= maxDecimals && new Decimal(v).gt(0) && new Decimal(v).lt('1e15');
/** Typed but not a number: a different message from an empty field. */
const garbage = (v: string) => v !== '' && !isDecimal(v);

const DEPOSIT_MODES = ['single-asset', 'double-asset'] as const;
const WITHDRAW_MODES = ['single', 'double'] as const;

/** The selected asset is the token's side (else the pool's base: XRP, or RLUSD for an RLUSD pair). */
export function isTokenSide(
  a: PoolAssetRef | null | undefined,
  market: { issuer: string; token: string },
): boolean {
  if (!a || a.currency === 'XRP' || !a.issuer || a.issuer !== market.issuer) return false;
  try {
    return sameCurrency(a.currency, market.token);
  } catch {
    return false;
  }
}

/**
 * POST /api/add-liquidity. `amountXrp` is the pool's base asset (XRP, or RLUSD for an RLUSD pair);
 * `selectedAsset` picks the side of a single-asset deposit (null for double). `baseAsset` (this
 * server's addition) names the pair when the token is not listed here.
 */
export const addLiquiditySchema = z
  .object({
    wallet: classicAddressSchema('wallet'),
    issuer: classicAddressSchema('issuer'),
    token: tokenCode,
    mode: z.enum(DEPOSIT_MODES, { message: 'mode must be single-asset or double-asset.' }),
    selectedAsset: poolAssetSchema.nullable().optional(),
    amountXrp: text,
    amountToken: text,
    baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
  })
  .superRefine((b, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (b.mode === 'double-asset') {
      if (garbage(b.amountToken)) return issue(LIQUIDITY_MESSAGES.invalidToken, 'amountToken');
      if (!positive(b.amountXrp, AMOUNT_DECIMALS) || !positive(b.amountToken, 15))
        return issue(LIQUIDITY_MESSAGES.enterBoth, 'amount');
      return;
    }
    if (!b.selectedAsset) return issue(LIQUIDITY_MESSAGES.chooseAsset, 'selectedAsset');
    if (!isTokenSide(b.selectedAsset, b)) {
      if (!positive(b.amountXrp, AMOUNT_DECIMALS))
        issue(
          LIQUIDITY_MESSAGES.enterAmount(
            b.selectedAsset.currency === 'RLUSD' ? 'RLUSD' : (b.baseAsset ?? 'XRP'),
          ),
          'amountXrp',
        );
      return;
    }
    if (garbage(b.amountToken)) return issue(LIQUIDITY_MESSAGES.invalidToken, 'amountToken');
    if (!positive(b.amountToken, 15))
      issue(
        LIQUIDITY_MESSAGES.enterAmount(/^[0-9A-F]{40}$/i.test(b.token) ? 'the token' : b.token),
        'amountToken',
      );
  });

/** 'double' / 'single', also accepting the deposit spelling ('double-asset'). */
const withdrawMode = z
  .string({ message: 'mode must be single or double.' })
  .transform((v) => v.replace(/-asset$/, ''))
  .pipe(z.enum(WITHDRAW_MODES, { message: 'mode must be single or double.' }));

/**
 * POST /api/remove-liquidity. `amountLp` LP tokens are redeemed: for both assets pro rata
 * ('double', no fee) or for `selectedAsset` only ('single', the pool's fee applies). `limitPrice`
 * (LP tokens per unit of the asset, single only) is the worst effective price accepted.
 */
export const removeLiquiditySchema = z
  .object({
    wallet: classicAddressSchema('wallet'),
    issuer: classicAddressSchema('issuer'),
    token: tokenCode,
    amountLp: text,
    mode: withdrawMode,
    selectedAsset: poolAssetSchema.nullable().optional(),
    limitPrice: text,
    baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
  })
  .superRefine((b, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (!positive(b.amountLp, 15)) return issue(LIQUIDITY_MESSAGES.enterLp, 'amountLp');
    if (b.mode === 'single' && !b.selectedAsset)
      return issue(LIQUIDITY_MESSAGES.chooseAsset, 'selectedAsset');
    if (b.mode === 'single' && b.limitPrice !== '' && !positive(b.limitPrice, 15))
      issue(LIQUIDITY_MESSAGES.invalidLimitPrice, 'limitPrice');
  });

/** POST /api/lp-token-balance. */
export const lpBalanceSchema = z.object({
  wallet: classicAddressSchema('wallet'),
  issuer: classicAddressSchema('issuer'),
  token: tokenCode,
  baseCurrency: z.string().trim().max(40).optional(),
  baseIssuer: z.union([classicAddressSchema('baseIssuer'), z.literal(''), z.null()]).optional(),
});

/** POST /api/amm-vote: `tradingFee` is the percent × 1000 (0–1000 = 0%–1%). */
export const ammVoteSchema = z.object({
  wallet: classicAddressSchema('wallet'),
  issuer: classicAddressSchema('issuer'),
  token: tokenCode,
  tradingFee: z
    .union([z.number(), z.string()], { message: LIQUIDITY_MESSAGES.fillAll })
    .refine((v) => String(v).trim() !== '', LIQUIDITY_MESSAGES.fillAll)
    .transform(Number)
    .refine((v) => Number.isInteger(v) && v >= 0 && v <= FEE_VOTE_MULTIPLIER, LIQUIDITY_MESSAGES.feeRange),
  baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
});

/**
 * POST /api/get-lp-price. With `amountLp` (this server's addition) the answer also carries what
 * redeeming that many LP tokens would withdraw now, in each mode.
 */
export const lpPriceSchema = z.object({
  issuer: classicAddressSchema('issuer'),
  token: tokenCode,
  baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
  amountLp: text,
  /**
   * This server's addition for the Add form: with deposit amounts the answer also says how many LP
   * tokens that deposit would issue now (both assets: the two maxima; one asset: either alone).
   */
  depositBase: text,
  depositToken: text,
});

/** Amounts of a pool's two sides, decimal strings (XRP in XRP). */
const poolAmountsSchema = z.object({ base: z.string(), token: z.string() });
export type PoolAmounts = z.infer<typeof poolAmountsSchema>;

/** POST /api/add-liquidity. */
export const addLiquidityResultSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  hash: z.string(),
  /** LP tokens the deposit issued to the wallet. */
  lpTokens: z.string(),
  /** What went into the pool. */
  deposited: poolAmountsSchema,
});
export type AddLiquidityResult = z.infer<typeof addLiquidityResultSchema>;

/** POST /api/remove-liquidity. */
export const removeLiquidityResultSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  hash: z.string(),
  /** LP tokens redeemed. */
  lpTokens: z.string(),
  withdrawn: poolAmountsSchema,
});
export type RemoveLiquidityResult = z.infer<typeof removeLiquidityResultSchema>;

/** POST /api/lp-token-balance. */
export const lpBalanceResultSchema = z.object({
  status: z.literal('success'),
  balance: z.string(),
  /** The pool's LP token currency (03…) and AMM account; absent when the token has no pool. */
  lpCurrency: z.string().optional(),
  ammAccount: z.string().optional(),
});
export type LpBalanceResult = z.infer<typeof lpBalanceResultSchema>;

/** POST /api/amm-vote. */
export const ammVoteResultSchema = z.object({
  status: z.literal('success'),
  hash: z.string(),
  /** The pool's trading fee after the vote (percent × 1000). */
  tradingFee: z.number(),
  /** The vote's weight in the pool: the voter's share of the LP tokens, percent (2 decimals). */
  voteWeightPercent: z.string(),
  /** 'Your vote (weight 0.07%) is recorded; the pool fee is now 0.300%' */
  message: z.string(),
});
export type AmmVoteResult = z.infer<typeof ammVoteResultSchema>;

/** POST /api/get-lp-price. */
export const lpPriceResultSchema = z.object({
  status: z.literal('success'),
  /** LP tokens per 1 unit of the base asset / of the token: lpTotal ÷ (2 × pool side). */
  lpPerBase: z.string(),
  lpPerToken: z.string(),
  lpTotal: z.string(),
  pool: poolAmountsSchema,
  /** The pool's trading fee, percent × 1000. */
  tradingFee: z.number(),
  /** With `amountLp`: what redeeming it withdraws now. */
  expected: z
    .object({ double: poolAmountsSchema, singleBase: z.string(), singleToken: z.string() })
    .optional(),
  /**
   * With `depositBase` and/or `depositToken`: the LP tokens a deposit would issue now (rounded down
   * to 15 digits): both assets (with both, the pool ratio taking what fits: `used`), or each alone
   * (the pool's fee applies).
   */
  deposit: z
    .object({
      double: z.object({ lpTokens: z.string(), used: poolAmountsSchema }).optional(),
      singleBase: z.string().optional(),
      singleToken: z.string().optional(),
    })
    .optional(),
});
export type LpPriceResult = z.infer<typeof lpPriceResultSchema>;

/** POST /api/lp-position: the wallet's share of a pool, and how it has done (docs/liquidity.md). */
export const lpPositionSchema = z.object({
  wallet: classicAddressSchema('wallet'),
  issuer: classicAddressSchema('issuer'),
  token: tokenCode,
  baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
});

/** One event of a wallet's position in a pool, read from the ledger. Amounts: the wallet's side. */
export const lpPositionEventSchema = z.object({
  hash: z.string(),
  ledgerIndex: z.number().int(),
  /** Unix ms of the ledger's close, when known. */
  time: z.number().nullable(),
  /** create / deposit / withdraw: the wallet's own AMM transaction; transfer: LP tokens moved otherwise; bid: an auction slot bid or its refund. */
  kind: z.enum(['create', 'deposit', 'withdraw', 'transfer', 'bid']),
  /** What the wallet put in (positive) or took out (negative) of each side, and the LP tokens it gained (positive) or gave (negative). */
  base: z.string(),
  token: z.string(),
  lp: z.string(),
});
export type LpPositionEvent = z.infer<typeof lpPositionEventSchema>;

/** POST /api/lp-position. */
export const lpPositionResultSchema = z.object({
  status: z.literal('success'),
  quote: z.enum(QUOTE_ASSETS),
  lpBalance: z.string(),
  lpTotal: z.string(),
  /** Percent of the pool, up to 6 decimals. */
  share: z.string(),
  /** The share's amounts now, and their value in the base asset at the pool's price. */
  current: poolAmountsSchema.extend({ value: z.string() }),
  /** What is still deposited (average cost: a withdrawal takes its share of the deposits). */
  deposited: poolAmountsSchema,
  /** The deposited amounts valued at today's pool price: what simply holding them would be worth. */
  holdValue: z.string(),
  /** value − holdValue = feesEarned + impermanentLoss, in the base asset. */
  pnl: z.string(),
  feesEarned: z.string(),
  impermanentLoss: z.string(),
  history: z.array(lpPositionEventSchema),
});
export type LpPositionResult = z.infer<typeof lpPositionResultSchema>;

/** POST /api/amm-auction: the pool's auction slot and what a bid costs now. */
export const ammAuctionSchema = z.object({
  issuer: classicAddressSchema('issuer'),
  token: tokenCode,
  baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
});

export const ammAuctionViewSchema = z.object({
  status: z.literal('success'),
  /** The holder and until when (ISO); null when the slot is empty or expired. */
  holder: z.string().nullable(),
  expiresAt: z.string().nullable(),
  /** 0–19: the slot's 72-minute interval now; null when empty or expired. */
  interval: z.number().int().nullable(),
  /** The pool's fee and the slot holder's (TradingFee / 10), percent × 1000. */
  tradingFee: z.number(),
  discountedFee: z.number(),
  /** LP tokens a bid costs now, and what the current holder would get back of its price. */
  price: z.string(),
  refund: z.string(),
  lpCurrency: z.string(),
});
export type AmmAuctionView = z.infer<typeof ammAuctionViewSchema>;

/** POST /api/amm-bid: bid for the slot, paying at most `maxPrice` LP tokens (the price shown). */
export const ammBidSchema = z.object({
  wallet: classicAddressSchema('wallet'),
  issuer: classicAddressSchema('issuer'),
  token: tokenCode,
  baseAsset: z.enum(QUOTE_ASSETS, { message: 'baseAsset must be XRP or RLUSD.' }).optional(),
  maxPrice: text.refine((v) => positive(v, 15), 'maxPrice must be the positive LP-token price shown.'),
});

export const ammBidResultSchema = z.object({
  status: z.literal('success'),
  hash: z.string(),
  /** LP tokens the bid paid. */
  paid: z.string(),
  slot: ammAuctionViewSchema,
});
export type AmmBidResult = z.infer<typeof ammBidResultSchema>;

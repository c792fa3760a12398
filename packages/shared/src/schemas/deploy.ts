import { z } from 'zod';
import { DEPLOY_DESCRIPTION_MAX, TICKER_MAX, TICKER_MIN, TOKEN_NAME_MAX, TOKEN_NAME_MIN } from '../constants';
import { BONDING_TOTAL_SUPPLY, LAUNCH_TYPES, type LaunchType } from '../bonding';
import { idSchema, multiLineText, stripHtml } from './common';

export { stripHtml };
import { Decimal } from '../money';
import { IDENTITY_MESSAGES, isRlusdTicker } from '../token-identity';
import { vestingSchema } from './vesting';
import { FIRST_BUY_XRP } from '../first-buy';

// The deploy form of spec 001 §3/§5, one schema for the web form and POST /api/deploy-token.
// Amounts are decimal strings; percentages too. Nothing here is ever a float that gets charged.

export const DEPLOY_MESSAGES = {
  name: 'Token name must be 2-30 characters and contain only letters, numbers, and spaces.',
  ticker: 'Ticker must be 2-10 characters: letters, numbers or ?!@#$%^&*.',
  tickerXrp: 'XRP is reserved by the XRP Ledger. Please choose another ticker.',
  // The spec's form says 1000 by mistake; the limit is 500 and so is the message.
  description: `Description must be less than ${DEPLOY_DESCRIPTION_MAX} characters.`,
  supply: 'Supply must be a positive number.',
  supplyPrecision: 'Supply can have at most 15 significant digits (the XRP Ledger keeps 16).',
  devAllocation: 'Dev allocation must be between 0% and 100%.',
  liquidity: 'Liquidity amount must be a positive number.',
  ammFee: 'AMM fee must be between 0% and 1%',
  twitter: 'Twitter link must start with https://x.com/ or https://twitter.com/',
  telegram: 'Telegram link must be a valid public or invite link starting with https://t.me/',
  website: 'Website must start with http(s):// and be a valid URL.',
  // Issue 35: links are https only and carry no user name or password.
  websiteHttps: 'Website must be an https:// link.',
  linkUserinfo: 'Links may not contain a user name or password (user:pw@).',
  wallet: 'Please select a wallet to deploy the token.',
  logo: 'Please upload a logo.',
  formErrors: 'Please correct the errors in the form.',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  noWallet: 'No wallet selected or wallet address is invalid.',
  failed: 'Failed to deploy token. Please try again.',
  timedOut: 'Deployment timed out. Please try again.',
  deploymentFailed: (error: string) => `Token deployment failed: ${error}`,
  bondingSupply: 'A bonding curve launch has a supply of 1,000,000,000.',
  bondingDev: 'A bonding curve launch has no dev allocation: everyone buys on the curve.',
  bondingBlackhole: 'A bonding curve launch blackholes its issuer: the supply is fixed.',
  bondingRequireAuth: 'A bonding curve launch cannot require authorization: anyone may buy.',
  firstBuy: 'First buy must be an amount of XRP with at most 6 decimals.',
  firstBuyPair: 'A first buy needs an instant launch paired with XRP.',
  // An instant launch's anti-sniper window (docs/launch-protection.md): a pre-pool ladder, then the pool.
  windowPair: 'An anti-sniper window on an instant launch needs a pool paired with XRP.',
  windowKeepLp:
    "An anti-sniper window's pool always burns its LP tokens: turn on 'Burn the LP', or launch without the window.",
  windowBlackhole: 'An anti-sniper window blackholes its issuer: the supply is fixed before the pool opens.',
  windowRequireAuth: 'An anti-sniper window cannot require authorization: anyone may buy on its ladder.',
  windowSelfCustody:
    'An anti-sniper window on an instant launch needs a custodial wallet for now: launch from a self-custody wallet without the window.',
  windowFirstBuy: "A first buy with an anti-sniper window must be less than the pool's XRP.",
  windowTooFewTokens: (least: string) =>
    `An anti-sniper window needs at least ${least} tokens in the pool (two for each of its ladder's steps).`,
} as const;

/** A text input as the forms send it: HTML tags stripped, then trimmed. */
export const cleanText = () => z.string().transform((v) => stripHtml(v).trim());
const text = cleanText;

const NAME = /^[A-Za-z0-9 ]+$/;
/** 2–30 letters, digits and spaces (the deploy and listing forms' name rule). */
export const isTokenName = (v: string): boolean =>
  v.length >= TOKEN_NAME_MIN && v.length <= TOKEN_NAME_MAX && NAME.test(v);
const TICKER = /^[A-Za-z0-9?!@#$%^&*]+$/;

/** A positive decimal written as text (or a JSON number, converted to text, never used as a float). */
const decimalText = (message: string) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    .refine((v) => /^\d+(\.\d+)?$/.test(v), message);

/** Zod runs every refinement even after one failed: later ones must not choke on non-numbers. */
const isDecimal = (v: string) => /^\d+(\.\d+)?$/.test(v);

const positive = (message: string) =>
  decimalText(message).refine((v) => isDecimal(v) && new Decimal(v).gt(0), message);

const percent = (min: string, max: string, message: string) =>
  decimalText(message).refine(
    (v) => isDecimal(v) && new Decimal(v).gte(min) && new Decimal(v).lte(max),
    message,
  );

/** Where each labelled link may point (a 'Twitter' link goes to X/Twitter, a 'Telegram' one to t.me). */
const LINK_HOSTS = {
  twitter: ['x.com', 'twitter.com', 'www.x.com', 'www.twitter.com', 'mobile.twitter.com', 'mobile.x.com'],
  telegram: ['t.me', 'telegram.me'],
} as const;
export type LinkKind = 'twitter' | 'telegram' | 'website';

/**
 * Why a labelled link is refused, or null (issue 35, every door: deploy, listing, claims, airdrops,
 * admin, and the view of rows stored before the rule): https only, no user name or password (a
 * 'https://x.com@evil.example' reads as X and goes elsewhere), and the label matches the target.
 */
export function linkRefusal(kind: LinkKind, value: string): string | null {
  const message =
    kind === 'twitter'
      ? DEPLOY_MESSAGES.twitter
      : kind === 'telegram'
        ? DEPLOY_MESSAGES.telegram
        : DEPLOY_MESSAGES.website;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return message;
  }
  if (url.username !== '' || url.password !== '' || /^[a-z]+:\/\/[^/?#]*@/i.test(value))
    return DEPLOY_MESSAGES.linkUserinfo;
  if (kind === 'website') {
    if (url.protocol === 'http:') return DEPLOY_MESSAGES.websiteHttps;
    return url.protocol === 'https:' && url.hostname.includes('.') ? null : message;
  }
  const hosts: readonly string[] = LINK_HOSTS[kind];
  return url.protocol === 'https:' && hosts.includes(url.hostname.toLowerCase()) && url.pathname.length > 1
    ? null
    : message;
}

const optionalLink = (kind: LinkKind) =>
  text()
    .superRefine((v, ctx) => {
      if (v === '' || v === 'N/A') return;
      const why = linkRefusal(kind, v);
      if (why) ctx.addIssue({ code: 'custom', message: why });
    })
    .optional();

/**
 * The Twitter, Telegram and Website links of the token forms (deploy and listing, spec 001 §5):
 * optional, 'N/A' or empty means none.
 */
export const tokenLinkFields = {
  twitterLink: optionalLink('twitter'),
  telegramLink: optionalLink('telegram'),
  websiteLink: optionalLink('website'),
};

export const LIQUIDITY_PAIRS = ['XRP', 'RLUSD'] as const;
export type LiquidityPair = (typeof LIQUIDITY_PAIRS)[number];

const deployFields = z.object({
  name: text().refine(isTokenName, DEPLOY_MESSAGES.name),
  ticker: text()
    .refine((v) => v.length >= TICKER_MIN && v.length <= TICKER_MAX && TICKER.test(v), DEPLOY_MESSAGES.ticker)
    .refine((v) => v.toUpperCase() !== 'XRP', DEPLOY_MESSAGES.tickerXrp)
    // RLUSD's own currency code under a new issuer would impersonate the stablecoin (issue 24).
    .refine((v) => !isRlusdTicker(v), IDENTITY_MESSAGES.rlusdTicker),
  description: text()
    .pipe(multiLineText('description', 100_000))
    .refine((v) => v.length <= DEPLOY_DESCRIPTION_MAX, DEPLOY_MESSAGES.description),
  supply: positive(DEPLOY_MESSAGES.supply).refine(
    (v) => !isDecimal(v) || (new Decimal(v).precision(true) <= 15 && new Decimal(v).lt('1e15')),
    DEPLOY_MESSAGES.supplyPrecision,
  ),
  devAllocation: percent('0', '100', DEPLOY_MESSAGES.devAllocation).default('0'),
  /** Positive for an instant AMM launch; a curve launch starts with no liquidity (checked below). */
  liquidityAmount: decimalText(DEPLOY_MESSAGES.liquidity).default('0'),
  ammFee: percent('0', '1', DEPLOY_MESSAGES.ammFee).refine(
    // Entered in steps of 0.01%; the ledger's TradingFee is in 1/1000 of a percent.
    (v) => !isDecimal(v) || new Decimal(v).mul(100).isInteger(),
    DEPLOY_MESSAGES.ammFee,
  ),
  ...tokenLinkFields,
  logoUrl: z.string().min(1, DEPLOY_MESSAGES.logo).max(512),
  telegramFileId: z.string().max(256).nullable().optional(),
  blackholeIssuer: z.boolean().default(true),
  requireAuth: z.boolean().default(false),
  /**
   * 'Burn the LP' (issue 37): after the pool opens, the hot wallet that holds the creator's LP tokens
   * is blackholed in the deploy's own transactions, so no key can ever withdraw the pool. The web form
   * sends it on by default; an API request without it keeps the LP tokens, as before (like `vesting`),
   * and the kept LP is marked. Instant AMM launches only (a curve's graduation always burns).
   */
  burnLp: z.boolean().optional(),
  /**
   * The anti-sniper window (issue 37, docs/launch-protection.md): for the first minutes of a curve
   * launch its sell offers carry a surcharge decaying to 0 (the admin's start rate and window, fixed
   * at deploy). The web form sends it on by default; an API request without it launches without, as
   * before (like `burnLp`). On an instant launch paired with XRP it is the pre-pool ladder: the token
   * sells on a surcharged ladder along the future pool's curve for the window, then the pool opens
   * with what it raised and its LP burned.
   */
  antiSniper: z.boolean().optional(),
  /**
   * The creator's first buy, in XRP (issue 37): the paying wallet buys from the new pool in the
   * pool's own all-or-nothing Batch, so no one trades between them. Empty or '0': none.
   */
  firstBuyXrp: z
    .string()
    .trim()
    .refine((v) => v === '' || FIRST_BUY_XRP.test(v), DEPLOY_MESSAGES.firstBuy)
    .optional(),
  liquidityPairType: z.enum(LIQUIDITY_PAIRS).default('XRP'),
  /** 'amm': an instant AMM pool (the default); 'bonding': a bonding curve (docs/bonding-curve.md). */
  launchType: z.enum(LAUNCH_TYPES).default('amm'),
  /**
   * 'Lock the dev allocation' (issue 28). The web form sends it on by default when the allocation is
   * above 0; an API request without it deploys unlocked, as before (docs/vesting.md).
   */
  vesting: vestingSchema.optional(),
  /** Hidden field: people leave it empty, bots fill it. */
  honeypot: z.string().max(1000).optional(),
});

/**
 * A curve launch has the curve's fixed supply, no dev allocation (everyone buys on the curve), no
 * liquidity of its own and a blackholed issuer; an instant launch needs its liquidity.
 */
function launchRules(
  v: {
    launchType: LaunchType;
    liquidityAmount: string;
    supply: string;
    devAllocation: string;
    liquidityPairType: LiquidityPair;
    firstBuyXrp?: string;
  },
  ctx: z.RefinementCtx,
): void {
  const buys = v.firstBuyXrp !== undefined && isDecimal(v.firstBuyXrp) && new Decimal(v.firstBuyXrp).gt(0);
  if (buys && (v.launchType !== 'amm' || v.liquidityPairType !== 'XRP'))
    ctx.addIssue({ code: 'custom', path: ['firstBuyXrp'], message: DEPLOY_MESSAGES.firstBuyPair });
  if (v.launchType === 'amm') {
    if (!isDecimal(v.liquidityAmount) || !new Decimal(v.liquidityAmount).gt(0))
      ctx.addIssue({ code: 'custom', path: ['liquidityAmount'], message: DEPLOY_MESSAGES.liquidity });
    return;
  }
  if (isDecimal(v.supply) && !new Decimal(v.supply).eq(BONDING_TOTAL_SUPPLY.toString()))
    ctx.addIssue({ code: 'custom', path: ['supply'], message: DEPLOY_MESSAGES.bondingSupply });
  if (isDecimal(v.devAllocation) && !new Decimal(v.devAllocation).eq(0))
    ctx.addIssue({ code: 'custom', path: ['devAllocation'], message: DEPLOY_MESSAGES.bondingDev });
}

export const deployFormSchema = deployFields.superRefine(launchRules);

/** POST /api/deploy-token: the form plus the wallet that pays. */
export const deployRequestSchema = deployFields
  .extend({
    walletId: idSchema('walletId'),
    csrf_token: z.string().optional(),
  })
  .superRefine(launchRules);
export type DeployRequest = z.output<typeof deployRequestSchema>;

/** POST /api/deploy-token's 202: the deploy job started (GET /api/job-status/{jobId} follows it). */
export const deployStartedSchema = z.object({ jobId: z.string() });
export type DeployStarted = z.infer<typeof deployStartedSchema>;

/**
 * The deploy form's values that the web form holds and the deploy job keeps alike (the links and the
 * wallet differ: the form holds text, the job nulls and ids).
 */
export type DeployFormCore = Pick<
  DeployRequest,
  | 'name'
  | 'ticker'
  | 'description'
  | 'supply'
  | 'devAllocation'
  | 'liquidityAmount'
  | 'ammFee'
  | 'logoUrl'
  | 'blackholeIssuer'
  | 'requireAuth'
  | 'burnLp'
  | 'antiSniper'
  | 'firstBuyXrp'
  | 'liquidityPairType'
>;

/** The pool's trading fee as the ledger writes it (TradingFee, 1/100,000): percent × 1000. */
export function ammFeeToTradingFee(percent: string): number {
  return new Decimal(percent).mul(1000).toNumber();
}

import type { z } from 'zod';
import { OWNER_USER_ID, RLUSD_PAIR_HOT_WALLET_RESERVE_XRP } from '../constants';
import type { LaunchType } from '../bonding';
import type { feesConfigSchema, tokenViewSchema } from './public-api';
import type { tokenLpBurnedSchema } from './token-identity';
import type { LiquidityPair } from './deploy';
import { Decimal, dropsToDecimal, platformFeeDrops, xrpToDrops } from '../money';
import { FIRST_BUY_NETWORK_XRP, FIRST_BUY_XRP } from '../first-buy';
import { vestingTrancheCount } from '../vesting';
import { VESTING_MAX_TRANCHES } from '../vesting';

// Tokens as the API returns them (spec 000 §3 "Token", spec 001 §3 "Token (deploy/dashboard)"),
// the fee configuration of GET /api/config/fees, the deploy's cost rule shared by the preview and
// the server, and the job-status shape the progress modal reads.

/** A token as the API returns it: the type of `tokenViewSchema` (public-api.ts). */
export type TokenView = z.infer<typeof tokenViewSchema>;
export type TokenLinks = TokenView['links'];

/** `TokenView.lp_burned`: percent of the pool's LP tokens burned (2 places, above 0). */
export type TokenLpBurned = z.infer<typeof tokenLpBurnedSchema>;

/** The list's mark: 'LP burned' when all of it is, else the share. */
export const lpBurnedLabel = (b: TokenLpBurned): string =>
  b.percent === '100' ? 'LP burned' : `LP ${b.percent}% burned`;

/** The mark's tooltip: what it means for a buyer. */
export const lpBurnedTitle = (b: TokenLpBurned): string =>
  `${b.percent}% of the pool’s LP tokens are held by accounts that can never sign: that part of the pool can never be withdrawn.`;

export const TOKEN_MESSAGES = {
  notFoundForIssuer: 'No tokens found for this issuer.',
  /** Issue 35: one page (and one risk report, trade list, history) per token, not per issuer. */
  severalTokens: 'This issuer has several listed tokens: add ?currency= with the one you mean.',
  notFoundForCurrency: 'This issuer has no listed token with that currency.',
  alreadyListed: 'Token Already Listed',
} as const;

/** GET /api/config/fees. XRP amounts are decimal strings of XRP. */
export type FeesConfig = z.infer<typeof feesConfigSchema>;

interface DeployCostInput {
  liquidityPairType: LiquidityPair;
  liquidityAmount: string;
  devAllocation: string;
  launchType?: LaunchType;
  /** The dev allocation locked in escrows: each tranche's escrow holds one owner reserve. */
  vesting?: { enabled: boolean; cliffPercent: string; months: number };
  /** The creator's first buy in XRP (docs/launch-protection.md). */
  firstBuyXrp?: string;
  /** Require authorization on the issuer (a self-custody deploy's issuer pre-authorizes a line). */
  requireAuth?: boolean;
  /** The anti-sniper window; on an instant XRP launch, its pre-pool ladder (docs/launch-protection.md). */
  antiSniper?: boolean;
}

/**
 * Whether an instant launch opens with an anti-sniper window (its pre-pool ladder, docs/
 * launch-protection.md): asked for, paired with XRP, and the admin's window and start rate above 0.
 * The server's deploy and the web preview decide it with this one rule.
 */
export function instantWindow(
  form: Pick<DeployCostInput, 'launchType' | 'antiSniper' | 'liquidityPairType'>,
  fees: Pick<FeesConfig, 'bonding'>,
): boolean {
  return (
    (form.launchType ?? 'amm') === 'amm' &&
    form.antiSniper === true &&
    form.liquidityPairType === 'XRP' &&
    Number(fees.bonding.anti_sniper_window_seconds) > 0 &&
    new Decimal(fees.bonding.anti_sniper_start_percent).gt(0)
  );
}

export interface DeployCostOptions {
  /**
   * Funded from a wallet whose key the server never holds (docs/self-custody.md "Deploy"): the
   * deploy's accounts write Checks to it and pre-authorize its line, which their fundings carry.
   */
  selfCustody?: boolean;
}

interface DeployCost {
  /** XRP the paying wallet must have available (balance minus its reserve). */
  xrp: string;
  /** RLUSD it must hold (RLUSD pair only, else '0'). */
  rlusd: string;
  serviceFee: string;
  issuerReserve: string;
  hotWalletReserve: string;
  /** XRP liquidity (XRP pair only). */
  liquidityXrp: string;
  /** Reserve of the trust line and the vesting escrows the deploy opens in the paying wallet, and network fees. */
  extras: string;
  /** The first buy and the platform's trading fee on it ('0' without a first buy). */
  firstBuy: string;
  firstBuyFee: string;
  /**
   * A self-custody deploy only ('0' otherwise): what the issuer's funding carries beyond a custodial
   * deploy's — one owner reserve for the dev allocation's Check, and under RequireAuth one for its
   * side of the creator's pre-authorized line with that TrustSet's network fee.
   */
  selfCustodyIssuer: string;
  /**
   * And the hot wallet's (the curve account's): the network fee of the service fee it pays, with
   * a first buy one owner reserve and one network fee for the Check of the bought tokens, and with
   * an RLUSD pair the network fee of its CheckCash of the wallet's RLUSD.
   */
  selfCustodyHot: string;
}

/**
 * Spec 001 §5: available XRP ≥ liquidity (XRP pair) + service fee (none for user id 1) + issuer
 * reserve + hot wallet reserve (2 for RLUSD pairs); RLUSD ≥ liquidity for RLUSD pairs. Beyond the
 * spec's formula it counts what the ledger would otherwise refuse halfway: the owner reserve of the
 * dev-allocation trust line opened in the paying wallet, and the network fees it pays.
 */
export function deployCost(
  form: DeployCostInput,
  fees: FeesConfig,
  userId: number,
  opts: DeployCostOptions = {},
): DeployCost {
  const rlusdPair = form.liquidityPairType === 'RLUSD';
  const bonding = form.launchType === 'bonding';
  const serviceFee = userId === OWNER_USER_ID ? new Decimal(0) : new Decimal(fees.service_fee);
  const issuerReserve = new Decimal(fees.issuer_reserve);
  // A curve launch funds the curve account instead of a hot wallet, and brings no liquidity. An
  // instant launch with a window funds a curve account too (its pre-pool ladder), with the pool's XRP.
  const hotWalletReserve = new Decimal(
    bonding || instantWindow(form, fees)
      ? rlusdPair
        ? fees.bonding.deposit_xrp_rlusd_pair
        : fees.bonding.deposit_xrp
      : rlusdPair
        ? RLUSD_PAIR_HOT_WALLET_RESERVE_XRP
        : fees.hot_wallet_reserve,
  );
  const liquidityXrp = rlusdPair || bonding ? new Decimal(0) : new Decimal(form.liquidityAmount);
  const buyDrops =
    !bonding && !rlusdPair && form.firstBuyXrp && FIRST_BUY_XRP.test(form.firstBuyXrp)
      ? xrpToDrops(form.firstBuyXrp)
      : 0n;
  const buyFeeDrops = buyDrops > 0n ? platformFeeDrops(buyDrops, fees.trading_fee_percent ?? '0') : 0n;
  const firstBuy = dropsToDecimal(buyDrops);
  const firstBuyFee = dropsToDecimal(buyFeeDrops);
  // The first buy lands in the paying wallet's own trust line: one owner reserve, as the dev line's.
  const devLine =
    !bonding && (new Decimal(form.devAllocation || '0').gt(0) || buyDrops > 0n)
      ? new Decimal(fees.owner_reserve)
      : new Decimal(0);
  // Each escrow is an object the paying wallet owns until it is released: one owner reserve each.
  const escrows =
    devLine.gt(0) && form.vesting?.enabled
      ? new Decimal(fees.owner_reserve).mul(vestingTrancheCount(form.vesting))
      : new Decimal(0);
  const extras = devLine
    .plus(escrows)
    .plus(fees.network_fee_allowance)
    .plus(buyDrops > 0n ? FIRST_BUY_NETWORK_XRP : 0);
  const self = opts.selfCustody === true;
  const owner = new Decimal(fees.owner_reserve);
  const txFee = new Decimal(fees.base_fee ?? DEFAULT_BASE_FEE_XRP);
  const dev = !bonding && new Decimal(form.devAllocation || '0').gt(0);
  const selfCustodyIssuer = !self
    ? new Decimal(0)
    : (dev ? owner : new Decimal(0)).plus(form.requireAuth && (dev || buyDrops > 0n) ? owner.plus(txFee) : 0);
  const selfCustodyHot = !self
    ? new Decimal(0)
    : (serviceFee.gt(0) ? txFee : new Decimal(0))
        .plus(buyDrops > 0n ? owner.plus(txFee) : 0)
        // An RLUSD pair: the hot wallet cashes the wallet's Check of the pool's RLUSD (its fee).
        .plus(rlusdPair && !bonding ? txFee : 0);
  const xrp = liquidityXrp
    .plus(serviceFee)
    .plus(issuerReserve)
    .plus(hotWalletReserve)
    .plus(extras)
    .plus(firstBuy)
    .plus(firstBuyFee)
    .plus(selfCustodyIssuer)
    .plus(selfCustodyHot);
  return {
    xrp: xrp.toFixed(),
    rlusd: rlusdPair && !bonding ? new Decimal(form.liquidityAmount).toFixed() : '0',
    serviceFee: serviceFee.toFixed(),
    issuerReserve: issuerReserve.toFixed(),
    hotWalletReserve: hotWalletReserve.toFixed(),
    liquidityXrp: liquidityXrp.toFixed(),
    extras: extras.toFixed(),
    firstBuy: firstBuy.toFixed(),
    firstBuyFee: firstBuyFee.toFixed(),
    selfCustodyIssuer: selfCustodyIssuer.toFixed(),
    selfCustodyHot: selfCustodyHot.toFixed(),
  };
}

/** The network fee of one ordinary transaction (XRP) when the fees view does not carry the ledger's. */
const DEFAULT_BASE_FEE_XRP = '0.00001';

/** The deploy job's steps in order, with the label the progress modal shows for each. */
/**
 * The deploy progress modal's groups (issue 25: steps that run side by side show as one line). A
 * group holds steps of one kind that never wait for each other — the deploy plan submits them
 * together (apps/server/test/deploy/step-groups.test.ts checks this against every plan); a step
 * alone is a group of one. In plan order.
 */
export const DEPLOY_STEP_GROUPS: ReadonlyArray<{ label: string; steps: readonly string[] }> = [
  { label: 'Create the issuer and hot wallets', steps: ['create-wallets'] },
  { label: 'Fund the new wallets', steps: ['fund-issuer', 'fund-hot-wallet', 'fund-curve'] },
  { label: 'Enable rippling on the issuer', steps: ['issuer-default-ripple'] },
  { label: 'Require authorization on the issuer', steps: ['issuer-require-auth'] },
  { label: 'Allow token escrow on the issuer', steps: ['issuer-allow-locking'] },
  {
    label: 'Open the trust lines',
    steps: ['hot-trust-line', 'rlusd-trust-line', 'dev-trust-line', 'curve-trust-line', 'curve-rlusd-line'],
  },
  { label: 'Authorize the trust lines', steps: ['authorize-hot-line', 'authorize-dev-line'] },
  { label: 'Issue the supply', steps: ['issue-supply', 'dev-allocation', 'send-rlusd', 'issue-to-curve'] },
  {
    label: 'Lock the dev allocation on the ledger',
    steps: Array.from({ length: VESTING_MAX_TRANCHES }, (_, i) => `lock-dev-${i + 1}`),
  },
  { label: 'Create the AMM pool', steps: ['create-amm'] },
  { label: 'Your first buy', steps: ['first-buy'] },
  { label: 'Platform fee on your first buy', steps: ['first-buy-fee'] },
  { label: 'Your first buy: a Check of its tokens to your wallet', steps: ['first-buy-check'] },
  { label: 'Service fee', steps: ['service-fee'] },
  { label: 'Burn the LP tokens: lock the hot wallet’s regular key', steps: ['burn-lp-regular-key'] },
  { label: 'Burn the LP tokens: disable the hot wallet’s master key', steps: ['burn-lp-disable-master'] },
  { label: 'Blackhole: set the regular key', steps: ['blackhole-regular-key'] },
  { label: 'Blackhole: disable the master key', steps: ['blackhole-disable-master'] },
  { label: 'List the token', steps: ['list-token'] },
];

export const DEPLOY_STEP_LABELS: Record<string, string> = {
  'create-wallets': 'Create issuer and hot wallets',
  'fund-issuer': 'Fund the issuer wallet',
  'fund-hot-wallet': 'Fund the hot wallet',
  'issuer-default-ripple': 'Enable rippling on the issuer',
  'issuer-require-auth': 'Require authorization on the issuer',
  'issuer-allow-locking': 'Allow token escrow on the issuer',
  ...Object.fromEntries(
    Array.from({ length: VESTING_MAX_TRANCHES }, (_, i) => [`lock-dev-${i + 1}`, `Lock tranche ${i + 1}`]),
  ),
  'hot-trust-line': 'Hot wallet trust line',
  'rlusd-trust-line': 'Hot wallet RLUSD trust line',
  'dev-trust-line': 'Your wallet trust line',
  'authorize-hot-line': 'Authorize the hot wallet trust line',
  'authorize-dev-line': 'Authorize your trust line',
  'issue-supply': 'Issue the supply to the hot wallet',
  'dev-allocation': 'Dev allocation to your wallet',
  'send-rlusd': 'Send RLUSD liquidity to the hot wallet',
  'create-amm': 'Create the AMM pool',
  'first-buy': 'Your first buy',
  'first-buy-fee': 'Platform fee on your first buy',
  'first-buy-check': 'Your first buy: a Check of its tokens to your wallet',
  'service-fee': 'Service fee',
  'burn-lp-regular-key': 'Burn the LP tokens: lock the hot wallet’s regular key',
  'burn-lp-disable-master': 'Burn the LP tokens: disable the hot wallet’s master key',
  'blackhole-regular-key': 'Blackhole: set the regular key',
  'blackhole-disable-master': 'Blackhole: disable the master key',
  'list-token': 'List the token',
  // Curve launches.
  'fund-curve': 'Fund the curve account',
  'curve-trust-line': 'Curve account trust line',
  'curve-rlusd-line': 'Curve account RLUSD trust line',
  'issue-to-curve': 'Issue the supply to the curve',
};

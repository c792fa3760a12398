import {
  MONEY_MESSAGES,
  RLUSD_CURRENCY_HEX,
  SWAP_MESSAGES,
  dropsToXrp,
  insufficientBalanceLabel,
  parseXrpDrops,
  platformFee,
  platformFeeDrops,
  plainDecimal,
  shortfall,
  slippageSchema,
  tradeAmountSchema,
  xrpNeeded,
  Decimal,
  type AssetAmount,
  type Holdings,
  type LedgerReserves,
  type TradeDisclosure,
  type WalletBalance,
} from '@ledgerpad/shared';
import { availableXrp, hasTrustLine, tokenBalance } from '../../lib/wallet-funds';
import { randomRange } from './batch';

// Whether the swap box can send, and if not, the button's own words (issue 25: "buttons are
// disabled with a reason until the form can be sent"; issue 23: 'Insufficient XRP balance' on the
// button itself, nothing sent). The reasons are the spec's sentences where it has one.

/** What a wallet can pay with: available XRP (balance − reserve), RLUSD, and the token. */
export function holdingsOf(
  wallet: WalletBalance,
  token: { code: string; issuer: string } | null,
  rlusdIssuer: string | null,
): Holdings {
  const out: Record<string, string> = { XRP: availableXrp(wallet) };
  if (rlusdIssuer) out.RLUSD = tokenBalance(wallet, RLUSD_CURRENCY_HEX, rlusdIssuer);
  if (token) out[token.code] = tokenBalance(wallet, token.code, token.issuer);
  return out;
}

export interface NeedsInput {
  kind: 'market' | 'limit';
  side: 'BUY' | 'SELL';
  /** The asset the token is priced in (XRP or RLUSD). */
  quoteAsset: string;
  token: { code: string; issuer: string };
  amount: string;
  /** The platform's fee rate (the user's own comes with the quote). */
  feePercent: string | undefined;
  reserves: LedgerReserves | undefined;
}

/**
 * What an order needs before a quote says it exactly (multi-wallet and randomized orders, limit
 * orders): the amount, the platform fee on a buy, and — once the ledger's figures are known — the
 * network fees and the reserves its new objects lock (a trust line for a buy without one, the
 * resting offer of a limit order), by the shared rule (`xrpNeeded`).
 */
export function estimatedNeeds(wallet: WalletBalance, o: NeedsInput): AssetAmount[] {
  const opensLine = o.side === 'BUY' && !hasTrustLine(wallet, o.token.code, o.token.issuer);
  const transactions = 1 + (opensLine ? 1 : 0) + (o.kind === 'market' ? 1 : 0);
  const newObjects = (opensLine ? 1 : 0) + (o.kind === 'limit' ? 1 : 0);
  const needs: AssetAmount[] = [];
  let xrpAmount = 0n;
  let xrpFee = 0n;
  if (o.side === 'SELL') needs.push({ asset: o.token.code, amount: o.amount });
  else if (o.quoteAsset === 'XRP') {
    xrpAmount = parseXrpDrops(o.amount) ?? 0n;
    xrpFee = o.feePercent ? platformFeeDrops(xrpAmount, o.feePercent) : 0n;
  } else {
    const fee = o.feePercent ? platformFee(o.amount, o.feePercent, 'iou') : new Decimal(0);
    needs.push({ asset: o.quoteAsset, amount: plainDecimal(new Decimal(o.amount).plus(fee)) });
  }
  const xrp = o.reserves
    ? xrpNeeded({ amount: xrpAmount, platformFee: xrpFee, transactions, newObjects }, o.reserves)
    : xrpAmount + xrpFee;
  if (xrp > 0n) needs.unshift({ asset: 'XRP', amount: dropsToXrp(xrp) });
  return needs;
}

export interface Shortfall {
  /** The button's words: 'Insufficient XRP balance'. */
  label: string;
  /** The sentence beside it: 'Insufficient balance: you have X XRP available, this needs Y XRP.' */
  detail: string;
}

/** The first asset `wallet` cannot cover, in people's words; null when it can pay. */
export function walletShortfall(
  needs: readonly AssetAmount[],
  has: Holdings,
  assetName: (asset: string) => string,
): Shortfall | null {
  const short = shortfall(needs, has);
  if (!short) return null;
  const name = assetName(short.asset);
  return {
    label: insufficientBalanceLabel(name),
    detail: MONEY_MESSAGES.insufficient(short.have, plainDecimal(short.amount), name),
  };
}

export type QuoteState =
  | { state: 'none' }
  | { state: 'pending' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; disclosure: TradeDisclosure };

export interface ReadinessInput {
  hasWallet: boolean;
  multi: boolean;
  targets: number;
  hasToken: boolean;
  randomized: boolean;
  range: { min: string; max: string };
  amount: string;
  kind: 'market' | 'limit';
  price: string;
  slippage: string;
  /** The first wallet that cannot pay, and why. */
  short: Shortfall | null;
  /** Single-wallet market orders wait for their quote: the disclosure comes before the click. */
  needsQuote: boolean;
  quote: QuoteState;
  impactAccepted: boolean;
}

export type Readiness = { sendable: true } | { sendable: false; reason: string; detail?: string };

const PRICE_RE = /^\d+(\.\d{1,15})?$/;

export function readiness(r: ReadinessInput): Readiness {
  const no = (reason: string, detail?: string): Readiness => ({ sendable: false, reason, detail });
  // The spec's sentence where both are missing; otherwise only what is (issue 39).
  if (!r.hasWallet) return no(r.hasToken ? SWAP_MESSAGES.selectWallet : SWAP_MESSAGES.selectWalletAndToken);
  if (r.multi && r.targets === 0) return no(SWAP_MESSAGES.selectWallets);
  if (!r.hasToken) return no(SWAP_MESSAGES.selectToken);
  if (r.randomized) {
    if (r.range.min === '' && r.range.max === '') return no('Enter a min and max amount');
    if (typeof randomRange(r.range.min, r.range.max) === 'string') return no(SWAP_MESSAGES.randomRange);
  } else {
    if (r.amount === '') return no('Enter an amount');
    if (!tradeAmountSchema.safeParse(r.amount).success) return no(SWAP_MESSAGES.invalidAmount);
  }
  if (r.kind === 'limit' && !(PRICE_RE.test(r.price) && new Decimal(r.price).gt(0)))
    return no(SWAP_MESSAGES.limitPrice);
  if (r.kind === 'market' && !slippageSchema.safeParse(r.slippage).success) return no(SWAP_MESSAGES.slippage);
  if (r.short) return no(r.short.label, r.short.detail);
  if (r.needsQuote) {
    if (r.quote.state === 'failed') return no(r.quote.message);
    if (r.quote.state !== 'ready') return no('Estimating…');
    if (r.quote.disclosure.level === 'block' && !r.impactAccepted)
      return no(
        'Price impact too high',
        `This trade would move the price by ${r.quote.disclosure.priceImpactPercent}%. Tick 'I understand' to trade anyway.`,
      );
  }
  return { sendable: true };
}

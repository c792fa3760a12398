import { randomUUID } from 'node:crypto';
import {
  AMOUNT_DECIMALS,
  Decimal,
  ORDER_MESSAGES,
  ORDERS_LIST_LIMIT,
  RESTING_STATUSES,
  RLUSD_CURRENCY_HEX,
  SWAP_BATCH_MESSAGES,
  SWAP_MESSAGES,
  TRUSTLINE_MESSAGES,
  WALLET_MESSAGES,
  amountValue,
  currencyToTicker,
  fixedDecimals,
  ledgerResultMessage,
  minimumReceived,
  platformFeeDrops,
  toLedgerValue,
  xrpToDrops,
  type AddTrustlineResult,
  type CheckOrdersResult,
  type LedgerAmount,
  type LimitOrderResult,
  type OrderView,
  type QuoteAsset,
  type QuoteView,
  type SwapBatchItem,
  type SwapBatchQuote,
  type SwapBatchQuoteItem,
  type SwapBatchResult,
  type SwapResult,
  type TradeSide,
  type addTrustlineSchema,
  type limitOrderSchema,
  type ordersQuerySchema,
  type quoteRequestSchema,
  type swapBatchSchema,
  type swapRequestSchema,
  type IntentRequired,
  type WalletKind,
  SELF_CUSTODY_MESSAGES,
  serverSigns,
  dropsToXrp,
  TRUST_LINE_MAX_LIMIT,
  curveFeeInside,
  microsToUnits,
  unitsToMicros,
  type AntiSniperQuote,
  DELEGATION_MESSAGES,
  type DelegatedPermission,
} from '@ledgerpad/shared';
import { and, eq, inArray, max } from 'drizzle-orm';
import {
  decode,
  getBalanceChanges,
  GlobalFlags,
  type Client,
  type Currency,
  type TransactionMetadata,
} from 'xrpl';
import { batchedRead } from '../../db/batched';
import type { Db } from '../../db/client';
import { readIssuerFacts } from '../../ledger/account-root';
import { ledgerFailure } from '../../ledger/errors';
import type { LedgerReader } from '../../ledger/local-ledger';
import type { Funds } from '../../ledger/funds';
import { ledgerSubmissions } from '../../ledger/schema';
import type {
  BalanceChanges,
  BatchRequest,
  SubmissionOutcome,
  SubmissionService,
  SubmitRequest,
  TxRequest,
} from '../../ledger/submission-service';
import { AppError, badRequest, notFound, serviceDisabled } from '../../lib/errors';
import type { IntentFinisher, IntentService } from '../../platform/intents';
import type { FeeSettlement } from './fee-paid';
import type { Parsed } from '../../lib/validation';
import type { JobRunner } from '../../platform/jobs';
import type { LedgerReadCache } from '../../platform/read-cache';
import type { PlatformSettings } from '../../platform/settings';
import type { TokenRegistry } from '../tokens';
import type { DelegationsApi, WalletsApi } from '../wallets';
import { unrestedOffer } from './offers';
import { quoteAssetOf } from './quote-asset';
import { toOrderView, type OrderRecords, type OrderUpdate } from './orders';
import { FEE_PURPOSE, type CurveAccounts, type TradeRecorder } from './trade-records';
import { tradingTrades } from './schema';
import {
  ledgerAmount,
  marketOffer,
  marketPayment,
  minimumReceive,
  sequentialShares,
  tradeMoved,
  tradingFee,
  type Asset,
  type MarketDepth,
} from './plan';

// Market trades from custodial wallets: a quote is the trade itself simulated against the open
// ledger from the same wallet (rippled's `simulate`: book and pool together, as the payment engine
// executes them), and the swap submits that payment with the slippage floor as DeliverMin. Where the
// ledger has Batch, a trade through an AMM pair and its platform fee's payment are one all-or-nothing
// Batch (a trade that fails charges nothing, one that fills pays its fee); otherwise (and for a token
// on its bonding curve, a market without a pool) the fee is a separate payment after the trade
// validates, made by a persisted job (once). docs/batch-in-the-app.md.

/** The limit of the trust lines trading opens: far above any supply a token launched here can have. */
const TRUST_LIMIT = TRUST_LINE_MAX_LIMIT;

export interface TradingDeps {
  db: Db;
  client: Client;
  /**
   * The trade's reads (the trust line, simulate, the pool): `client`, or the embedded ledger in this
   * thread answering in-process, the same handlers without the socket (ledger/local-ledger.ts).
   */
  reader?: LedgerReader;
  submissions: SubmissionService;
  funds: Funds;
  jobs: JobRunner;
  settings: PlatformSettings;
  tokens: TokenRegistry;
  wallets: WalletsApi;
  rlusdIssuer: () => Promise<string | undefined>;
  orders: OrderRecords;
  recorder: TradeRecorder;
  /** Curve launches: a buy that meets the anti-snipe cap is told so. */
  curves?: CurveAccounts;
  /** Intents of self-custody wallets (docs/self-custody.md). */
  intents?: IntentService;
  /** The platform fee wallet's address (a self-custody swap pays its fee to it in its own intent). */
  feeWallet: () => Promise<string | undefined>;
  /**
   * Whether a custodial market trade through an AMM pays its platform fee inside its own
   * all-or-nothing Batch (issue 36, docs/batch-in-the-app.md): the setting and the ledger's Batch
   * amendment. Absent or false: the fee job pays it after the trade.
   */
  feeInBatch?: () => Promise<boolean>;
  /**
   * Where a self-custody swap's fee, paid by its own intent, is recorded with the creator's and the
   * referrer's shares (fee-paid.ts: the one place a fee becomes paid).
   */
  settlement: Pick<FeeSettlement, 'settleIntent' | 'settleOwed'>;
  /**
   * Delegated trading of self-custody wallets (docs/self-custody.md "Delegated trading"): the
   * user's delegate account when the wallet's ledger entry grants it the permission.
   */
  delegations?: DelegationsApi;
  /** Pushes `orderUpdated` to the order owner's sockets. */
  publishOrderUpdate: (u: OrderUpdate) => Promise<void> | void;
  /**
   * The platform's per-ledger read cache (platform/read-cache.ts): a quote's database reads — the
   * user's wallets and fee rate, the token row, its curve account — kept until the next indexed
   * ledger or a local change (a listing, a curve, an admin's fee setting). Quotes only: a swap reads
   * everything anew.
   */
  cache?: Pick<LedgerReadCache, 'get'>;
}

interface Market {
  token: Asset & { kind: 'iou' };
  quote: Asset;
  quoteName: QuoteAsset;
  tokenId: number | null;
}

interface Simulated {
  result: string;
  spent: Decimal;
  received: Decimal;
  changes?: BalanceChanges;
  /** The simulated transaction's network fee, in drops. */
  feeDrops?: bigint;
  /** The simulation had to open the trust line (a buy without one). */
  opensLine?: boolean;
}

type WalletRow = Awaited<ReturnType<WalletsApi['list']>>[number];

/** One market order of one wallet, as the swap and batch routes hand it to `trade`. */
interface Order {
  type: TradeSide;
  /** The amount to spend (the quote asset on a BUY, tokens on a SELL), as typed. */
  amount: string;
  slippage: string;
  /** What the screen's quote said the trade receives (the slippage floor's base), if it sent it. */
  expected?: string;
  /** `expected` is the batch quote's, after the batch's earlier wallets: the user's own trades before it are in it. */
  expectedInBatch?: boolean;
}

/** An order checked and ready to trade: its exact spend, and the intent its transactions use. */
interface ReadyOrder extends Order {
  wallet: WalletRow;
  intent: string;
  /** A SELL of the whole balance: the line's exact value, so no dust is left behind. */
  sendMax?: string;
  /** The trade and its fee go in one all-or-nothing Batch (`inBatch`). */
  batch: boolean;
  /**
   * A self-custody wallet's trade sent by its delegate (docs/self-custody.md "Multi-wallet buys"):
   * an immediate-or-cancel OfferCreate with the slippage floor as its price, its fee owed.
   */
  delegate?: string;
}

/** tfInnerBatchTxn: what marks a Batch's inner transaction (XLS-56). */
const TF_INNER_BATCH_TXN: number = GlobalFlags.tfInnerBatchTxn;

/** What a trade and its fee payment cost in network fees: two transactions, or one Batch of both. */
const TRADE_AND_FEE_BATCH = ['Payment', 'Payment'];

/**
 * The balance changes of a simulated trade's metadata, by the metadata object: the embedded ledger
 * answering in-process hands out its memoized answer (the same object for the same question on
 * the same open ledger, read-only), so a repeated quote does not derive them again.
 */
type SwapInput = Parsed<typeof swapRequestSchema>;

/** What a self-custody swap's checks need again when it is signed. */
interface SwapIntentCheck {
  type: TradeSide;
  amount: string;
  /** The exact spend (the whole balance on a 100% sell). */
  spend: string;
  line: boolean;
}

/** A self-custody swap's intent context: what its finisher needs. */
interface SwapIntentContext {
  market: {
    token: { currency: string; issuer: string };
    quote: Asset;
    quoteName: QuoteAsset;
    tokenId: number | null;
  };
  order: Pick<Order, 'type' | 'amount'>;
  check: SwapIntentCheck;
  /** The platform fee the intent pays (in the quote asset). */
  fee: string;
  opensLine: boolean;
}
type LimitOrderInput = Parsed<typeof limitOrderSchema>;

/** A function's parameters after the first (the `db` a service passes from its deps). */
type OmitFirst<T extends unknown[]> = T extends [unknown, ...infer R] ? R : never;

const balanceChangesOf = new WeakMap<TransactionMetadata, BalanceChanges>();

/** Rounds of ensureLine: its own TrustSet, then again after ones that did not apply. */
const LINE_ROUNDS = 3;

/** A TrustSet that opens (or keeps) the line `asset`: a positive limit to its issuer. */
function opensLine(tx: Record<string, unknown>, asset: { currency: string; issuer: string }): boolean {
  const limit = tx.LimitAmount as { currency?: string; issuer?: string; value?: string } | undefined;
  return (
    tx.TransactionType === 'TrustSet' &&
    limit?.currency === asset.currency &&
    limit.issuer === asset.issuer &&
    new Decimal(limit.value ?? 0).gt(0)
  );
}

const fixed6 = (d: Decimal) => fixedDecimals(d, AMOUNT_DECIMALS);
const plain = (d: Decimal) => toLedgerValue(d);

/**
 * One user's trades in one market run one at a time, each simulated right before it is signed on
 * the pool and book the earlier ones left (docs/money.md "Multi-wallet buys"). `stale` tells a trade
 * that another of the user's trades in this market executed since it arrived, so the quote its
 * screen sent is out of date.
 */
class OwnTrades {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly traded = new Map<string, number>();
  private clock = 0;

  run<T>(key: string, fn: (stale: boolean) => Promise<T>): Promise<T> {
    const arrived = ++this.clock;
    const go = async () => {
      try {
        return await fn((this.traded.get(key) ?? 0) > arrived);
      } finally {
        this.traded.set(key, ++this.clock);
      }
    };
    const next = (this.chains.get(key) ?? Promise.resolve()).then(go, go);
    const settled = next.catch(() => {});
    this.chains.set(key, settled);
    void settled.then(() => {
      if (this.chains.get(key) === settled) {
        this.chains.delete(key);
        this.traded.delete(key);
      }
    });
    return next;
  }
}

export class TradingService {
  private readonly own = new OwnTrades();

  private readonly reader: LedgerReader;

  constructor(private readonly deps: TradingDeps) {
    this.reader = deps.reader ?? deps.client;
  }

  /** A swap's or a limit order's paying wallet (either of the spec's two field names) and its market. */
  private async walletAndMarket(userId: number, r: SwapInput | LimitOrderInput) {
    const wallet = await this.wallet(userId, r.walletAddress ?? r.wallet);
    return { wallet, m: await this.market(r.issuer, r.token, r.baseAsset) };
  }

  private async wallet(userId: number, address: string | undefined) {
    const all = await this.deps.wallets.list(userId);
    const row = address ? all.find((w) => w.address === address) : all[0];
    if (!row) throw notFound(address ? WALLET_MESSAGES.notFound : SWAP_MESSAGES.selectWalletAndToken);
    return row;
  }

  /** `currency` is the ledger code the shared token-code schema already produced. */
  private async market(issuer: string, currency: string, baseAsset: QuoteAsset | undefined): Promise<Market> {
    const {
      listed,
      name: quoteName,
      asset: quote,
    } = await quoteAssetOf({ ...this.deps, client: this.reader }, issuer, currency, baseAsset);
    if (quote.kind === 'iou' && quote.currency === currency && quote.issuer === issuer)
      throw badRequest(SWAP_MESSAGES.selectWalletAndToken);
    return { token: { kind: 'iou', currency, issuer }, quote, quoteName, tokenId: listed?.id ?? null };
  }

  private tokenName(m: Market): string {
    return currencyToTicker(m.token.currency);
  }

  /**
   * The trade simulated from `account` against the open ledger: what it would move. It is the
   * swap's own Payment when the wallet can receive the token (a SELL, or a BUY with its trust
   * line); a BUY without the line (the swap adds it first) is simulated as an offer at any price,
   * which crosses the same book and pools and opens the line itself.
   */
  private async simulate(
    account: string,
    side: TradeSide,
    m: Market,
    amount: string,
    minReceive?: Decimal,
  ): Promise<Simulated> {
    const [pay, get] = side === 'BUY' ? [m.quote, m.token] : [m.token, m.quote];
    const canReceive = await this.canHold(account, get);
    const tx = canReceive
      ? marketPayment(account, pay, amount, get, minReceive)
      : marketOffer(pay, amount, get, minReceive);
    const res = (await this.reader.request({
      command: 'simulate',
      tx_json: { ...tx, Account: account },
    } as never)) as {
      result: { engine_result: string; meta?: TransactionMetadata; tx_json: { Fee: string } };
    };
    const { engine_result: result, meta, tx_json: sent } = res.result;
    if (!meta || !result.startsWith('tes'))
      return { result, spent: new Decimal(0), received: new Decimal(0) };
    let changes = balanceChangesOf.get(meta);
    if (!changes) balanceChangesOf.set(meta, (changes = getBalanceChanges(meta)));
    const moved = tradeMoved(changes, account, pay, get, sent.Fee);
    return { result, ...moved, changes, feeDrops: BigInt(sent.Fee), opensLine: !canReceive };
  }

  private async hasLine(account: string, m: Market): Promise<boolean> {
    return this.canHold(account, m.token);
  }

  /** XRP, or an issued asset the account has a trust line for. */
  private async canHold(account: string, asset: Asset): Promise<boolean> {
    if (asset.kind === 'xrp') return true;
    const lines = await this.deps.wallets.lines(account, asset.issuer, this.reader);
    return lines.some((l) => l.currency === asset.currency);
  }

  /**
   * The trust line a market order needs before it can receive what it buys: the token on a BUY,
   * the quote asset (RLUSD) on a SELL of an RLUSD-quoted token; undefined when it has it already.
   */
  private async missingLine(
    account: string,
    m: Market,
    type: TradeSide,
  ): Promise<(Asset & { kind: 'iou' }) | undefined> {
    const get = type === 'BUY' ? m.token : m.quote;
    if (get.kind === 'xrp' || (await this.canHold(account, get))) return undefined;
    return get;
  }

  private async spotPrice(m: Market): Promise<Decimal | null> {
    try {
      const r = await this.reader.request({
        command: 'amm_info',
        asset:
          m.quote.kind === 'xrp'
            ? { currency: 'XRP' }
            : { currency: m.quote.currency, issuer: m.quote.issuer },
        asset2: { currency: m.token.currency, issuer: m.token.issuer },
        ledger_index: 'current',
      });
      const quoteSide = amountValue(r.result.amm.amount as LedgerAmount);
      const tokenSide = amountValue(r.result.amm.amount2 as LedgerAmount);
      return tokenSide.gt(0) ? quoteSide.div(tokenSide) : null;
    } catch {
      return null;
    }
  }

  /**
   * The anti-sniper line of a buy on a curve in its window (issue 37): the rate, the time left and
   * the surcharge inside what the buy pays the curve. The curve's sell offers ask V' + ⌊V'·f⌋ with
   * V' = V + ⌊V·r⌋ (shared `desiredLadder`), so the surcharge inside V' = paid − fee is read back as
   * the fee is (`curveFeeInside`): within a micro per crossed offer.
   */
  private async antiSniperLine(
    m: Market,
    onCurve: Decimal,
    feeInPrice: Decimal,
  ): Promise<AntiSniperQuote | undefined> {
    const now = await this.deps.curves?.antiSniper?.(m.token.issuer, m.token.currency);
    if (!now) return undefined;
    const priced = unitsToMicros(onCurve) - unitsToMicros(feeInPrice);
    return {
      percent: new Decimal(now.ppm.toString()).div(10_000).toFixed(),
      endsInSeconds: now.endsInSeconds,
      fee: plain(microsToUnits(curveFeeInside('sell', priced, now.ppm))),
    };
  }

  /**
   * Without a pool, the price the trade's first fill would pay (quote asset per token): the best
   * offer on the side it takes — a bonding curve's next chunk (its price with the curve's fee in
   * it, as the trade pays it) or the book's best order. A curve or book trade's impact is measured
   * against it (issue 39), as a pool trade's is against the pool's spot.
   */
  private async nextOfferPrice(m: Market, type: TradeSide): Promise<Decimal | null> {
    const token: Currency = { currency: m.token.currency, issuer: m.token.issuer };
    const quote: Currency =
      m.quote.kind === 'xrp' ? { currency: 'XRP' } : { currency: m.quote.currency, issuer: m.quote.issuer };
    try {
      const r = await this.reader.request({
        command: 'book_offers',
        // A buy takes offers giving the token; a sell takes offers giving the quote asset.
        taker_gets: type === 'BUY' ? token : quote,
        taker_pays: type === 'BUY' ? quote : token,
        limit: 1,
        ledger_index: 'current',
      });
      const [best] = r.result.offers;
      if (!best) return null;
      const gets = amountValue((best.taker_gets_funded ?? best.TakerGets) as LedgerAmount);
      const pays = amountValue((best.taker_pays_funded ?? best.TakerPays) as LedgerAmount);
      const [q, t] = type === 'BUY' ? [pays, gets] : [gets, pays];
      return t.gt(0) && q.gt(0) ? q.div(t) : null;
    } catch {
      return null;
    }
  }

  /** 'Insufficient Liquidity', or the launch protection's cap when that is what a buy met. */
  private async noLiquidity(m: Market, type: 'BUY' | 'SELL', details?: Record<string, unknown>) {
    const cap =
      type === 'BUY'
        ? await this.deps.curves?.launchProtection?.(m.token.issuer, m.token.currency)
        : undefined;
    return badRequest(cap ?? SWAP_MESSAGES.insufficientLiquidity, details);
  }

  /** A quote's database read, kept per ledger when the read cache is there (`TradingDeps.cache`). */
  private kept<T>(key: string, read: () => Promise<T>): Promise<T> {
    return this.deps.cache ? this.deps.cache.get(`trading:${key}`, read) : read();
  }

  /** The quote's wallet from the kept list; a wallet made since the list was kept is read anew. */
  private async quoteWallet(userId: number, address: string | undefined): Promise<WalletRow> {
    const all = await this.kept(`wallets:${userId}`, () => this.deps.wallets.list(userId));
    return (address ? all.find((w) => w.address === address) : all[0]) ?? this.wallet(userId, address);
  }

  async quote(userId: number, q: Parsed<typeof quoteRequestSchema>): Promise<QuoteView> {
    // Independent reads side by side, each once and kept per ledger: a quote is asked for on every
    // keystroke pause, and each of these reads is a query (PGlite answers one at a time).
    const [wallet, m, feePercent, curve] = await Promise.all([
      this.quoteWallet(userId, q.wallet),
      this.kept(`market:${q.issuer}:${q.token}:${q.baseAsset ?? ''}`, () =>
        this.market(q.issuer, q.token, q.baseAsset),
      ),
      this.kept(`fee:${userId}`, () => this.deps.recorder.feePercent(userId)),
      this.kept(`curve:${q.issuer}:${q.token}`, async () =>
        this.deps.curves?.activeCurveAccount(q.issuer, q.token),
      ),
    ]);
    const amount = (q.tradeType === 'BUY' ? q.amountXrp : q.amountToken)!;
    const [sim, spot, next] = await Promise.all([
      this.simulate(wallet.address, q.tradeType, m, amount),
      this.spotPrice(m),
      this.nextOfferPrice(m, q.tradeType),
    ]);
    if (sim.received.lte(0) || sim.spent.lte(0)) throw await this.noLiquidity(m, q.tradeType);
    const tokens = q.tradeType === 'BUY' ? sim.received : sim.spent;
    const notional = q.tradeType === 'BUY' ? sim.spent : sim.received;
    const price = notional.div(tokens);
    // Impact against the pool's spot; without a pool, against the first offer the trade takes (a
    // curve's next price, or the book's best): a curve buy is warned and guarded as a pool buy is.
    const reference = spot ?? next;
    const impactAgainst = spot ? 'pool' : next ? (curve ? 'curve' : 'book') : undefined;
    const impact =
      reference && reference.gt(0)
        ? Decimal.max(
            0,
            (q.tradeType === 'BUY' ? price.minus(reference) : reference.minus(price)).div(reference).mul(100),
          ).toDecimalPlaces(2)
        : null;
    const fees = await this.deps.recorder.feeBreakdown(
      userId,
      m.token,
      m.quote,
      q.tradeType,
      notional,
      sim.changes ?? [],
      { feePercent, curve },
    );
    // Every transaction the swap signs pays the network fee: the trust line a buy opens first, the
    // trade, and the fee payment after it — or, where the trade and its fee go in one Batch, that
    // Batch's fee (twice the base fee plus each inner one's). A new trust line locks one owner reserve.
    const txFee = sim.feeDrops ?? this.deps.submissions.reserves.baseFee;
    const batch = fees.fee.gt(0) && (await this.inBatch(m, { curve, pool: spot !== null }));
    const antiSniper =
      q.tradeType === 'BUY' && fees.onCurve.gt(0)
        ? await this.antiSniperLine(m, fees.onCurve, fees.feeInPrice)
        : undefined;
    const tradeFees = batch
      ? this.deps.submissions.batchFee(TRADE_AND_FEE_BATCH)
      : txFee * (1n + (fees.fee.gt(0) ? 1n : 0n));
    return {
      status: 'success',
      tokenAmountRounded: fixed6(sim.received),
      spend: plain(sim.spent),
      receive: plain(sim.received),
      quote: m.quoteName,
      effectivePrice: plain(price),
      spotPrice: reference ? plain(reference) : null,
      priceImpactPercent: impact ? impact.toFixed(2) : null,
      ...(impactAgainst ? { impactAgainst } : {}),
      fee: plain(fees.fee),
      partial: sim.spent.lt(amount),
      feePercent,
      feeInPrice: plain(fees.feeInPrice),
      ...(fees.curveFeePercent ? { curveFeePercent: fees.curveFeePercent } : {}),
      ...(antiSniper ? { antiSniper } : {}),
      networkFee: dropsToXrp((sim.opensLine ? txFee : 0n) + tradeFees),
      reserve: dropsToXrp(sim.opensLine ? this.deps.submissions.reserves.reserveIncrement : 0n),
      opensTrustLine: sim.opensLine === true,
    };
  }

  /**
   * POST /api/swap (both of the spec's shapes). Checked before anything is signed: the wallet pays
   * the amount, the platform fee, the network fees and the new trust line's reserve, and the market
   * can fill it; then the trust line when a BUY needs one, then the trade with the slippage floor
   * as DeliverMin. The ledger refuses to execute below the floor; nothing executed = no platform fee.
   */
  async swap(userId: number, s: SwapInput, idempotencyKey?: string): Promise<SwapResult | IntentRequired> {
    const { wallet, m } = await this.walletAndMarket(userId, s);
    const given = s.expected ?? '';
    const order: Order = {
      type: s.type,
      amount: s.amount,
      slippage: s.slippage,
      ...(/^\d+(\.\d+)?$/.test(given) && new Decimal(given).gt(0) ? { expected: given } : {}),
    };
    const intent = `swap:${userId}:${idempotencyKey ?? randomUUID()}`;
    if (!serverSigns(wallet.kind as WalletKind)) return this.swapIntent(userId, wallet, m, order, intent);
    // A retried request (same Idempotency-Key) gets the first one's trade: nothing checked or signed again.
    const done = await this.deps.submissions.existing(`${intent}:trade`);
    if (done) return this.swapResult(wallet.address, m, order, done);
    const ready = await this.prepareTrade(userId, wallet, m, order, intent);
    return this.trade(userId, m, ready);
  }

  /**
   * A market swap of a self-custody wallet (docs/self-custody.md): the same checks as a custodial
   * one (balances with the fee, network fees and a new line's reserve, authorization, liquidity),
   * then one intent the wallet signs at once — the trust line a BUY needs, the trade with its
   * slippage floor, and the platform fee as a payment to the fee wallet (the quote's fee, the
   * amount the box disclosed) — each submitted only after the one before succeeded. Where the
   * ledger has Batch, these become one all-or-nothing Batch (the intent's 'batch' mode).
   */
  private async swapIntent(
    userId: number,
    wallet: WalletRow,
    m: Market,
    order: Order,
    intentKey: string,
  ): Promise<IntentRequired> {
    const intents = this.intents;
    const known = await intents.known(intentKey);
    if (known) return { status: 'sign', intent: known };
    const line = await this.missingLine(wallet.address, m, order.type);
    if (order.type === 'BUY') await this.requireAuthorized(wallet.address, m);
    const sendMax = await this.wholeBalance(wallet.address, m, order);
    const spend = sendMax ?? order.amount;
    const feeWallet = await this.deps.feeWallet();
    const check: SwapIntentCheck = {
      type: order.type,
      amount: order.amount,
      spend,
      line: line !== undefined,
    };
    await this.checkSwapIntent(userId, wallet.address, m, check);
    const sim = await this.simulate(wallet.address, order.type, m, spend);
    if (sim.received.lte(0) || sim.spent.lte(0)) throw await this.noLiquidity(m, order.type);
    const expected = order.expected ? new Decimal(order.expected) : sim.received;
    const [pay, get] = order.type === 'BUY' ? [m.quote, m.token] : [m.token, m.quote];
    const payment = marketPayment(wallet.address, pay, spend, get, minimumReceive(expected, order.slippage));
    if (sendMax) payment.SendMax = { currency: m.token.currency, issuer: m.token.issuer, value: sendMax };
    // The fee the quote disclosed: on what the simulated trade moves (the part on a bonding curve
    // pays its fee inside the curve's price).
    const notional = order.type === 'BUY' ? sim.spent : sim.received;
    const { fee } = await this.deps.recorder.feeBreakdown(
      userId,
      m.token,
      m.quote,
      order.type,
      notional,
      sim.changes ?? [],
    );
    if (fee.gt(0) && !feeWallet) throw serviceDisabled('The platform fee wallet is not set up yet.');
    const txs: Array<{ tx: TxRequest; purpose: string }> = [];
    if (line)
      txs.push({
        tx: this.trustLineRequest(userId, wallet, line, '', 'swap-trustline').tx,
        purpose: 'swap-trustline',
      });
    txs.push({ tx: { ...payment }, purpose: 'swap' });
    if (fee.gt(0))
      txs.push({
        tx: { TransactionType: 'Payment', Destination: feeWallet!, Amount: ledgerAmount(m.quote, fee) },
        purpose: 'trading-fee',
      });
    const context: SwapIntentContext = {
      market: { token: m.token, quote: m.quote, quoteName: m.quoteName, tokenId: m.tokenId },
      order: { type: order.type, amount: order.amount },
      check,
      fee: plain(fee),
      opensLine: line !== undefined,
    };
    const prepared = await intents.prepare({
      userId,
      wallet,
      purpose: 'swap',
      intentKey,
      txs,
      context: context as unknown as Record<string, unknown>,
    });
    return { status: 'sign', intent: prepared };
  }

  /** The funds a self-custody swap needs, checked when it is prepared and again when it is signed. */
  private async checkSwapIntent(
    userId: number,
    address: string,
    m: Market,
    c: SwapIntentCheck,
  ): Promise<void> {
    const { funds } = this.deps;
    const xrp = await this.xrpSpend(userId, m, c.type, c.amount);
    if (c.type === 'BUY') await this.requireQuoteToken(userId, address, m, c.amount);
    else await funds.requireToken(address, m.token, c.spend, this.tokenName(m));
    await funds.requireXrp(address, {
      ...xrp,
      transactions: 2 + (c.line ? 1 : 0),
      newObjects: c.line ? 1 : 0,
    });
  }

  /** The finisher of self-custody swaps (registered with the intents by the module). */
  swapFinisher(): IntentFinisher {
    const marketOf = (ctx: SwapIntentContext): Market => ({
      token: { kind: 'iou', currency: ctx.market.token.currency, issuer: ctx.market.token.issuer },
      quote: ctx.market.quote,
      quoteName: ctx.market.quoteName,
      tokenId: ctx.market.tokenId,
    });
    return {
      recheck: async (intent) => {
        const ctx = intent.context as unknown as SwapIntentContext;
        // The trust line may have been opened meanwhile; the funds are counted as prepared.
        await this.checkSwapIntent(intent.userId, intent.account, marketOf(ctx), ctx.check);
      },
      finish: async (intent, outcomes) => {
        const ctx = intent.context as unknown as SwapIntentContext;
        let at = 0;
        if (ctx.opensLine) {
          const opened = outcomes[0]!;
          if (opened.status !== 'success')
            throw ledgerFailure(
              opened,
              `${TRUSTLINE_MESSAGES.failed}: ${ledgerResultMessage(opened.result)}`,
            );
          at = 1;
        }
        const trade = outcomes[at]!;
        const m = marketOf(ctx);
        const result = await this.swapResult(intent.account, m, ctx.order, trade);
        const feeOutcome = outcomes[at + 1];
        await this.deps.settlement.settleIntent(
          trade.hash,
          ctx.fee,
          feeOutcome ? { hash: feeOutcome.hash, status: feeOutcome.status } : undefined,
        );
        return { ...result, fee: ctx.fee };
      },
    };
  }

  private get intents(): IntentService {
    if (!this.deps.intents) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
    return this.deps.intents;
  }

  /**
   * POST /api/swap/batch: a multi-wallet market trade. Every wallet is checked and gets its trust
   * line first (side by side), then the wallets trade one after another, each on the market the
   * earlier ones left. The answer names each wallet's outcome.
   */
  async swapBatch(
    userId: number,
    b: Parsed<typeof swapBatchSchema>,
    idempotencyKey?: string,
  ): Promise<SwapBatchResult> {
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const all = await this.deps.wallets.list(userId);
    const key = idempotencyKey ?? randomUUID();
    const failure = (walletAddress: string, err: unknown): SwapBatchItem => {
      if (!(err instanceof AppError)) throw err;
      const result = err.details?.result;
      return {
        walletAddress,
        status: 'failed',
        error: err.message,
        ...(typeof result === 'string' ? { result } : {}),
      };
    };
    const prepared = await Promise.all(
      b.orders.map(async (o, i): Promise<ReadyOrder | SwapBatchItem> => {
        const wallet = all.find((w) => w.address === o.walletAddress);
        const intent = `swap-batch:${userId}:${key}:${i}`;
        try {
          if (!wallet) throw notFound(WALLET_MESSAGES.notFound);
          // The batch quote's figure for this wallet (after the wallets before it): its floor as shown.
          const order: Order = {
            type: b.type,
            amount: o.amount,
            slippage: b.slippage,
            ...(o.expected ? { expected: o.expected, expectedInBatch: true } : {}),
          };
          const done = await this.deps.submissions.existing(`${intent}:trade`);
          if (done) return this.item(o.walletAddress, await this.swapResult(wallet.address, m, order, done));
          if (!serverSigns(wallet.kind as WalletKind)) {
            // A self-custody wallet trades through its delegate when it granted one, otherwise
            // its swap is the intent it signs (the same one POST /api/swap answers).
            const delegate = await this.delegateFor(userId, wallet, 'OfferCreate');
            if (delegate === null) {
              const signing = await this.swapIntent(userId, wallet, m, order, intent);
              return { walletAddress: o.walletAddress, status: 'sign', intent: signing.intent };
            }
            return await this.prepareDelegated(userId, wallet, m, order, intent, delegate!);
          }
          return await this.prepareTrade(userId, wallet, m, order, intent);
        } catch (err) {
          return failure(o.walletAddress, err);
        }
      }),
    );
    const results: SwapBatchItem[] = [];
    for (const p of prepared) {
      if (!('wallet' in p)) {
        results.push(p);
        continue;
      }
      try {
        results.push(this.item(p.wallet.address, await this.trade(userId, m, p)));
      } catch (err) {
        results.push(failure(p.wallet.address, err));
      }
    }
    const failed = results.filter((r) => r.status === 'failed').length;
    const toSign = results.filter((r) => r.status === 'sign').length;
    const succeeded = results.length - failed - toSign;
    return {
      status: failed === 0 ? 'success' : succeeded === 0 && toSign === 0 ? 'failed' : 'partial',
      succeeded,
      failed,
      ...(toSign ? { toSign } : {}),
      message: failed === 0 ? SWAP_BATCH_MESSAGES.success(succeeded) : SWAP_BATCH_MESSAGES.failed(failed),
      results,
    };
  }

  /**
   * POST /api/swap/batch/quote (issue 39): each wallet's own quote before the click — its amount,
   * the platform fee, network fees, a new trust line and its reserve — with what it receives after
   * the wallets before it traded (`sequentialShares` on the market's depth scales its own simulated
   * figure), and the floor its trade will sign: `minimumReceived` of that, the same shared rule the
   * batch's trade applies to the `expected` the screen sends back.
   */
  async quoteBatch(userId: number, b: Parsed<typeof swapBatchSchema>): Promise<SwapBatchQuote> {
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const quotes = await Promise.all(
      b.orders.map(async (o) => {
        try {
          return await this.quote(userId, {
            issuer: b.issuer,
            token: b.token,
            tradeType: b.type,
            ...(b.type === 'BUY' ? { amountXrp: o.amount } : { amountToken: o.amount }),
            ...(b.baseAsset ? { baseAsset: b.baseAsset } : {}),
            wallet: o.walletAddress,
          });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          return err.message;
        }
      }),
    );
    // Only the wallets that can trade move the market for the ones after them.
    const depth = await this.marketDepth(m, b.type);
    const trading = b.orders.filter((_, i) => typeof quotes[i] !== 'string');
    const shares = depth
      ? sequentialShares(
          depth,
          trading.map((o) => o.amount),
        )
      : [];
    let k = 0;
    const wallets: SwapBatchQuoteItem[] = b.orders.map((o, i) => {
      const q = quotes[i]!;
      if (typeof q === 'string') return { walletAddress: o.walletAddress, amount: o.amount, error: q };
      const share = shares[k++] ?? new Decimal(1);
      const receive = new Decimal(q.receive).mul(share);
      const received =
        m.quote.kind === 'xrp' && b.type === 'SELL'
          ? receive.toDecimalPlaces(6, Decimal.ROUND_DOWN)
          : receive.toSignificantDigits(15, Decimal.ROUND_DOWN);
      const tokens = b.type === 'BUY' ? received : new Decimal(q.spend);
      const notional = b.type === 'BUY' ? new Decimal(q.spend) : received;
      const price = tokens.gt(0) ? notional.div(tokens) : new Decimal(q.effectivePrice);
      const spot = q.spotPrice ? new Decimal(q.spotPrice) : null;
      const impact =
        spot && spot.gt(0)
          ? Decimal.max(0, (b.type === 'BUY' ? price.minus(spot) : spot.minus(price)).div(spot).mul(100))
          : null;
      const quote: QuoteView = {
        ...q,
        receive: plain(received),
        tokenAmountRounded: fixed6(received),
        effectivePrice: plain(price),
        priceImpactPercent: impact ? impact.toFixed(2) : q.priceImpactPercent,
        // A sell's fee is on what it receives.
        ...(b.type === 'SELL' ? { fee: plain(this.feeOn(new Decimal(q.fee), share, m)) } : {}),
      };
      return {
        walletAddress: o.walletAddress,
        amount: o.amount,
        quote,
        minimumReceived: minimumReceived(
          quote.receive,
          b.slippage,
          b.type === 'SELL' && m.quote.kind === 'xrp',
        ),
      };
    });
    return { status: 'success', wallets };
  }

  /** A sell's fee scaled with what it receives: XRP down to the drop, an issued amount to 15 digits. */
  private feeOn(fee: Decimal, share: Decimal, m: Market): Decimal {
    const scaled = fee.mul(share);
    return m.quote.kind === 'xrp'
      ? scaled.toDecimalPlaces(6, Decimal.ROUND_DOWN)
      : scaled.toSignificantDigits(15);
  }

  /** The pool (reserves and fee, the trade's input side first) or, without one, the book it takes. */
  private async marketDepth(m: Market, type: TradeSide): Promise<MarketDepth | null> {
    const quote: Currency =
      m.quote.kind === 'xrp' ? { currency: 'XRP' } : { currency: m.quote.currency, issuer: m.quote.issuer };
    const token: Currency = { currency: m.token.currency, issuer: m.token.issuer };
    try {
      const r = await this.reader.request({
        command: 'amm_info',
        asset: quote,
        asset2: token,
        ledger_index: 'current',
      });
      const q = amountValue(r.result.amm.amount as LedgerAmount);
      const t = amountValue(r.result.amm.amount2 as LedgerAmount);
      const feeFraction = new Decimal(r.result.amm.trading_fee).div(100_000);
      return type === 'BUY'
        ? { kind: 'pool', input: q, output: t, feeFraction }
        : { kind: 'pool', input: t, output: q, feeFraction };
    } catch {
      // No pool: the book (a bonding curve's ladder, or orders).
    }
    try {
      const r = await this.reader.request({
        command: 'book_offers',
        taker_gets: type === 'BUY' ? token : quote,
        taker_pays: type === 'BUY' ? quote : token,
        limit: 200,
        ledger_index: 'current',
      });
      return {
        kind: 'book',
        offers: r.result.offers.map((o) => ({
          takes: amountValue((o.taker_pays_funded ?? o.TakerPays) as LedgerAmount),
          gives: amountValue((o.taker_gets_funded ?? o.TakerGets) as LedgerAmount),
        })),
      };
    } catch {
      return null;
    }
  }

  private item(walletAddress: string, swap: SwapResult): SwapBatchItem {
    return { walletAddress, status: swap.status, swap };
  }

  /** The XRP a market trade of `order` takes besides network fees (and the platform fee on a BUY). */
  private async xrpSpend(userId: number, m: Market, type: TradeSide, amount: string) {
    if (type === 'SELL' || m.quote.kind !== 'xrp') return { amount: 0n, platformFee: 0n };
    const drops = xrpToDrops(amount);
    return {
      amount: drops,
      platformFee: platformFeeDrops(drops, await this.deps.recorder.feePercent(userId)),
    };
  }

  /** A BUY paid in RLUSD: the wallet holds the amount and the fee in RLUSD (nothing to check for XRP). */
  private async requireQuoteToken(userId: number, address: string, m: Market, amount: string): Promise<void> {
    if (m.quote.kind !== 'iou') return;
    const fee = tradingFee(amount, await this.deps.recorder.feePercent(userId), m.quote);
    await this.deps.funds.requireToken(address, m.quote, new Decimal(amount).plus(fee), m.quoteName);
  }

  /**
   * Whether a custodial market trade in `m` and its platform fee go in one all-or-nothing Batch
   * (docs/batch-in-the-app.md): the setting and the ledger's Batch amendment (`feeInBatch`), a pool in
   * the pair (an AMM takes any input, so the trade spends what it was told and the fee signed with
   * it is the fee on what it moves), and no bonding curve on the token (its fee is inside its
   * prices; it stays on the fee job's path, as book-only markets and limit orders do). `known`: the
   * token's curve account and whether the pair has a pool, when the caller read them.
   */
  private async inBatch(m: Market, known?: { curve: string | undefined; pool: boolean }): Promise<boolean> {
    if (!(await this.deps.feeInBatch?.())) return false;
    const curve = known
      ? known.curve
      : await this.deps.curves?.activeCurveAccount(m.token.issuer, m.token.currency);
    if (curve) return false;
    return known ? known.pool : (await this.spotPrice(m)) !== null;
  }

  /**
   * The platform fee's payment of a trade in a Batch: the fee on what the trade, simulated right
   * before it is signed, moves (the quote's rule); undefined when it rounds to nothing.
   */
  private async feePayment(
    userId: number,
    m: Market,
    type: TradeSide,
    sim: Simulated,
  ): Promise<TxRequest | undefined> {
    const notional = type === 'BUY' ? sim.spent : sim.received;
    const { fee } = await this.deps.recorder.feeBreakdown(
      userId,
      m.token,
      m.quote,
      type,
      notional,
      sim.changes ?? [],
    );
    const feeWallet = await this.deps.feeWallet();
    if (!fee.gt(0) || !feeWallet) return undefined;
    return { TransactionType: 'Payment', Destination: feeWallet, Amount: ledgerAmount(m.quote, fee) };
  }

  /**
   * Everything checked before the first signature: the balances (the trade, its fee, the network
   * fees and the trust line's reserve), the token's authorization, the market's liquidity. Then the
   * trust line a BUY needs, signed under the wallet's funds lease with the whole action checked again.
   */
  private async prepareTrade(
    userId: number,
    wallet: WalletRow,
    m: Market,
    order: Order,
    intent: string,
  ): Promise<ReadyOrder> {
    const { funds } = this.deps;
    const line = await this.missingLine(wallet.address, m, order.type);
    const needsLine = line !== undefined;
    if (order.type === 'BUY') await this.requireAuthorized(wallet.address, m);
    const sendMax = await this.wholeBalance(wallet.address, m, order);
    const batch = await this.inBatch(m);
    const whole = async () => {
      const spend = await this.xrpSpend(userId, m, order.type, order.amount);
      if (order.type === 'BUY') await this.requireQuoteToken(userId, wallet.address, m, order.amount);
      // The trade, the platform fee's payment (as two transactions, or one Batch of both: four base
      // fees) and, for a new line, its TrustSet and its reserve.
      await funds.requireXrp(wallet.address, {
        ...spend,
        transactions: (batch ? 4 : 2) + (needsLine ? 1 : 0),
        newObjects: needsLine ? 1 : 0,
      });
    };
    await whole();
    // Nothing is signed, not even the trust line, for a trade the market cannot fill.
    const probe = await this.simulate(wallet.address, order.type, m, sendMax ?? order.amount);
    if (probe.received.lte(0)) throw await this.noLiquidity(m, order.type);
    if (line) await this.openLine(userId, wallet, line, `${intent}:line`, whole);
    return { ...order, wallet, intent, batch, ...(sendMax ? { sendMax } : {}) };
  }

  /**
   * prepareTrade for a self-custody wallet's delegate: the same checks (the wallet pays the trade,
   * the fee it will owe and a new line's reserve; the delegate pays the network fees), the trust
   * line a BUY needs by a delegated TrustSet.
   */
  private async prepareDelegated(
    userId: number,
    wallet: WalletRow,
    m: Market,
    order: Order,
    intent: string,
    delegate: string,
  ): Promise<ReadyOrder> {
    const { funds } = this.deps;
    const line = await this.missingLine(wallet.address, m, order.type);
    if (order.type === 'BUY') await this.requireAuthorized(wallet.address, m);
    const sendMax = await this.wholeBalance(wallet.address, m, order);
    const whole = async () => {
      const spend = await this.xrpSpend(userId, m, order.type, order.amount);
      if (order.type === 'BUY') await this.requireQuoteToken(userId, wallet.address, m, order.amount);
      await funds.requireXrp(wallet.address, { ...spend, transactions: 0, newObjects: line ? 1 : 0 });
    };
    await whole();
    const probe = await this.simulate(wallet.address, order.type, m, sendMax ?? order.amount);
    if (probe.received.lte(0)) throw await this.noLiquidity(m, order.type);
    if (line) await this.openLine(userId, wallet, line, `${intent}:line`, whole, delegate);
    return { ...order, wallet, intent, batch: false, delegate, ...(sendMax ? { sendMax } : {}) };
  }

  /**
   * A SELL needs the tokens. "100%" of a balance with more than 6 decimals arrives as its 6-decimal
   * floor: then the exact balance, so the position closes without dust (undefined otherwise).
   */
  private async wholeBalance(address: string, m: Market, order: Order): Promise<string | undefined> {
    if (order.type !== 'SELL') return undefined;
    const held = await this.deps.funds.requireToken(address, m.token, order.amount, this.tokenName(m));
    return held.gt(order.amount) && fixed6(held) === fixed6(new Decimal(order.amount))
      ? held.toFixed()
      : undefined;
  }

  /** The trade itself: one at a time per user and market, simulated right before it is signed. */
  private trade(userId: number, m: Market, o: ReadyOrder): Promise<SwapResult> {
    const key = `${userId}|${m.token.currency}|${m.token.issuer}|${m.quoteName}`;
    return this.own.run(key, async (stale) => {
      const { funds, submissions } = this.deps;
      const spend = o.sendMax ?? o.amount;
      // The screen's quote is the floor's base, unless the user's own trades in this market moved it.
      let expected = o.expected && (!stale || o.expectedInBatch) ? new Decimal(o.expected) : undefined;
      // In a Batch the fee is signed with the trade: on what the trade simulated right now moves.
      let sim: Simulated | undefined;
      if (!expected || o.batch) {
        sim = await this.simulate(o.wallet.address, o.type, m, spend);
        if (sim.received.lte(0)) throw await this.noLiquidity(m, o.type);
        expected ??= sim.received;
      }
      const [pay, get] = o.type === 'BUY' ? [m.quote, m.token] : [m.token, m.quote];
      const payment = marketPayment(o.wallet.address, pay, spend, get, minimumReceive(expected, o.slippage));
      if (o.sendMax)
        payment.SendMax = { currency: m.token.currency, issuer: m.token.issuer, value: o.sendMax };
      if (o.delegate) {
        // The delegate's immediate-or-cancel offer: the whole spend at no worse than the floor.
        const offer = marketOffer(pay, spend, get, minimumReceive(expected, o.slippage));
        const req: SubmitRequest = {
          intentKey: `${o.intent}:trade`,
          account: o.wallet.address,
          tx: { ...offer },
          purpose: 'swap',
          userId,
          walletId: o.wallet.id,
          delegate: o.delegate,
        };
        const row = await funds.withAccount(o.wallet.address, async () => {
          const spendXrp = await this.xrpSpend(userId, m, o.type, o.amount);
          if (o.type === 'SELL')
            await funds.requireToken(o.wallet.address, m.token, spend, this.tokenName(m));
          else await this.requireQuoteToken(userId, o.wallet.address, m, o.amount);
          await funds.requireXrp(o.wallet.address, { ...spendXrp, transactions: 0 });
          await this.catchUpSequence(o.wallet.address);
          return submissions.prepare(req);
        });
        return this.swapResult(o.wallet.address, m, o, await submissions.follow(req, row));
      }
      const feeTx = o.batch && sim ? await this.feePayment(userId, m, o.type, sim) : undefined;
      // Under the wallet's funds lease: the whole action checked again right before it is signed.
      const check = async (transactions: number) => {
        const spendXrp = await this.xrpSpend(userId, m, o.type, o.amount);
        if (o.type === 'SELL') await funds.requireToken(o.wallet.address, m.token, spend, this.tokenName(m));
        else await this.requireQuoteToken(userId, o.wallet.address, m, o.amount);
        await funds.requireXrp(o.wallet.address, { ...spendXrp, transactions });
      };
      if (feeTx) {
        // One intent, one all-or-nothing Batch: the trade, then its fee to the fee wallet. A trade
        // that fails rolls the fee back with it; one that fills has paid it (recorded as paid).
        const batch: BatchRequest = {
          intentKey: `${o.intent}:batch`,
          account: o.wallet.address,
          mode: 'allOrNothing',
          purpose: 'swap-batch',
          userId,
          walletId: o.wallet.id,
          inner: [
            { intentKey: `${o.intent}:trade`, tx: { ...payment }, purpose: 'swap' },
            { intentKey: `${o.intent}:fee`, tx: feeTx, purpose: FEE_PURPOSE },
          ],
        };
        const row = await funds.withAccount(o.wallet.address, async () => {
          await check(4);
          return submissions.prepareBatch(batch);
        });
        const { inner } = await submissions.followBatch(batch, row);
        return this.swapResult(o.wallet.address, m, o, inner[0]!);
      }
      const req: SubmitRequest = {
        intentKey: `${o.intent}:trade`,
        account: o.wallet.address,
        tx: { ...payment },
        purpose: 'swap',
        userId,
        walletId: o.wallet.id,
      };
      const row = await funds.withAccount(o.wallet.address, async () => {
        await check(2);
        return submissions.prepare(req);
      });
      return this.swapResult(o.wallet.address, m, o, await submissions.follow(req, row));
    });
  }

  /** The answer for a trade's final outcome (also for a retried request's recorded one). */
  private async swapResult(
    address: string,
    m: Market,
    order: Pick<Order, 'type' | 'amount'>,
    outcome: SubmissionOutcome,
  ): Promise<SwapResult> {
    const [pay, get] = order.type === 'BUY' ? [m.quote, m.token] : [m.token, m.quote];
    const txFee = await this.txFee(outcome.hash);
    const moved = tradeMoved(outcome.balanceChanges, address, pay, get, txFee);
    if (outcome.status !== 'success' || moved.received.lte(0)) {
      // A trade rolled back with its Batch left no result on the ledger: its simulation now names
      // the cause (the record keeps 'rolled-back'; nothing moved and no platform fee was paid).
      const result =
        outcome.result === 'rolled-back' ? await this.rolledBackCause(outcome.hash) : outcome.result;
      // tecPATH_PARTIAL: less than DeliverMin was available — the market moved past the slippage.
      if (result === 'tecPATH_PARTIAL') throw ledgerFailure(outcome, SWAP_MESSAGES.slippageExceeded);
      if (result === 'tecPATH_DRY' || outcome.status === 'success')
        throw await this.noLiquidity(m, order.type, { result: outcome.result, hash: outcome.hash });
      throw ledgerFailure(outcome);
    }
    // The record and its fee job, from the validated transaction (the sweep does the same after a crash).
    const trade = await this.deps.recorder.record(outcome.hash);
    const fee = new Decimal(trade?.fee ?? 0);
    const partial = moved.spent.lt(order.amount);
    return {
      status: partial ? 'partial' : 'success',
      swappedAmount: fixed6(moved.received),
      spent: plain(moved.spent),
      received: plain(moved.received),
      quote: m.quoteName,
      hash: outcome.hash,
      fee: plain(fee),
      message: partial
        ? `⚠️ Partly filled: spent ${plain(moved.spent)} of ${order.amount}.`
        : m.token.currency === RLUSD_CURRENCY_HEX && m.quote.kind === 'xrp'
          ? // XRP ⇄ RLUSD (spec 001 §8): '✅ Swapped {amount} XRP → {x} RLUSD' or the reverse.
            order.type === 'BUY'
            ? `✅ Swapped ${fixed6(moved.spent)} XRP → ${fixed6(moved.received)} RLUSD`
            : `✅ Swapped ${fixed6(moved.spent)} RLUSD → ${fixed6(moved.received)} XRP`
          : '✅ 1 swap(s) successful!',
    };
  }

  /**
   * Why the trade of a rolled-back Batch failed, as far as the ledger can tell now: its inner
   * transaction simulated alone against the open ledger (its engine result; 'rolled-back' when it
   * would apply now, or cannot be simulated).
   */
  private async rolledBackCause(hash: string): Promise<string> {
    const blob = await this.signedBlob(hash);
    if (!blob) return 'rolled-back';
    // As a transaction of its own: no inner flag, and the fee and sequence simulate fills in.
    const tx = decode(blob) as Record<string, unknown>;
    for (const field of ['Sequence', 'Fee', 'SigningPubKey']) delete tx[field];
    tx.Flags = (Number(tx.Flags ?? 0) & ~TF_INNER_BATCH_TXN) >>> 0;
    try {
      const res = (await this.reader.request({ command: 'simulate', tx_json: tx } as never)) as {
        result: { engine_result: string };
      };
      const result = res.result.engine_result;
      return result.startsWith('tes') ? 'rolled-back' : result;
    } catch {
      return 'rolled-back';
    }
  }

  /** The network fee the trade transaction paid, in drops: from the blob the submission service signed. */
  private async txFee(hash: string): Promise<string> {
    const blob = await this.signedBlob(hash);
    if (!blob) return '0';
    const tx = decode(blob) as { Fee?: string; Delegate?: string };
    // A delegated transaction's fee is the delegate's: the wallet's balance never paid it.
    return tx.Delegate ? '0' : String(tx.Fee ?? '0');
  }

  /** Signed blobs by hash: the swaps of a burst that validated together read theirs in one statement. */
  private readonly signedBlob = batchedRead(async (hashes: string[]) => {
    const rows = await this.deps.db
      .select({ hash: ledgerSubmissions.hash, blob: ledgerSubmissions.txBlob })
      .from(ledgerSubmissions)
      .where(inArray(ledgerSubmissions.hash, hashes));
    return new Map(rows.map((r) => [r.hash, r.blob]));
  });

  /**
   * The trust line `asset` of `wallet`, signed once however many actions need it at the same time
   * (issue 34: 50 concurrent buys from 10 wallets signed 50 TrustSets for 20 lines). Under the
   * wallet's funds lease — across instances — a line already on the ledger is used; a TrustSet of
   * this line already in flight (another buy, tab or instance, or the add-trustline button) is
   * followed; only otherwise is one signed, `check` run right before it. When the TrustSet that was
   * followed fails without applying (expired, sequence taken: nothing charged), the next action to
   * come signs another; one that applied and failed (tec: the reserve, the issuer's rules) fails every
   * action that waited for it, with its sentence — theirs would fail the same way. Undefined when
   * the line was there already.
   */
  private async ensureLine(
    userId: number,
    wallet: WalletRow,
    asset: { currency: string; issuer: string },
    intentKey: string,
    purpose: string,
    check: () => Promise<unknown>,
    delegate?: string,
  ): Promise<SubmissionOutcome | undefined> {
    const { funds, submissions } = this.deps;
    for (let round = 1; ; round++) {
      const step = await funds.withAccount(wallet.address, async () => {
        if (await this.canHold(wallet.address, { kind: 'iou', ...asset })) return undefined;
        const [open] = await submissions.inFlight(wallet.address, (tx) => opensLine(tx, asset));
        if (open) return { row: open };
        await check();
        const req = this.trustLineRequest(
          userId,
          wallet,
          asset,
          round === 1 ? intentKey : `${intentKey}:again-${round}`,
          purpose,
          delegate,
        );
        if (delegate) await this.catchUpSequence(wallet.address);
        return { row: await submissions.prepare(req), req };
      });
      if (!step) return undefined;
      const outcome = step.req
        ? await submissions.follow(step.req, step.row)
        : ((await submissions.existing(step.row.intentKey)) ?? (await submissions.wait(step.row.hash)));
      if (outcome.status === 'success') return outcome;
      if (step.req || outcome.result.startsWith('tec') || round >= LINE_ROUNDS) return outcome;
    }
  }

  /** ensureLine for a trade: a line that could not be opened stops the trade with its sentence. */
  private async openLine(
    userId: number,
    wallet: WalletRow,
    asset: { currency: string; issuer: string },
    intentKey: string,
    check: () => Promise<unknown>,
    delegate?: string,
  ): Promise<void> {
    const opened = await this.ensureLine(userId, wallet, asset, intentKey, 'swap-trustline', check, delegate);
    if (opened && opened.status !== 'success')
      throw ledgerFailure(opened, `${TRUSTLINE_MESSAGES.failed}: ${ledgerResultMessage(opened.result)}`);
  }

  private trustLineRequest(
    userId: number,
    wallet: WalletRow,
    asset: { currency: string; issuer: string },
    intentKey: string,
    purpose: string,
    delegate?: string,
  ): SubmitRequest {
    return {
      intentKey,
      account: wallet.address,
      tx: {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: asset.currency, issuer: asset.issuer, value: TRUST_LIMIT },
      },
      purpose,
      userId,
      walletId: wallet.id,
      ...(delegate ? { delegate } : {}),
    };
  }

  /**
   * POST /api/add-trustline: the wallet's trust line to a token (nothing sent when it exists). The
   * multi-wallet screen calls it for several wallets at once: each wallet has its own sequence, and
   * the submission service orders a wallet's own transactions. Checked first: the line's reserve
   * and its network fee.
   */
  async addTrustline(
    userId: number,
    b: Parsed<typeof addTrustlineSchema>,
    idempotencyKey?: string,
  ): Promise<AddTrustlineResult | IntentRequired> {
    const wallet = await this.wallet(userId, b.wallet);
    const m = await this.market(b.issuer, b.token, undefined);
    const intentKey = `trustline:${userId}:${idempotencyKey ?? randomUUID()}`;
    if (!serverSigns(wallet.kind as WalletKind)) {
      // The wallet signs its own TrustSet (docs/self-custody.md); the 'add-trustline' finisher
      // answers as below. A line already there sends nothing.
      const known = idempotencyKey ? await this.intents.known(intentKey) : undefined;
      if (known) return { status: 'sign', intent: known };
      if (await this.canHold(wallet.address, m.token)) return { status: 'success', existed: true };
      await this.deps.funds.requireXrp(wallet.address, { transactions: 1, newObjects: 1 });
      const intent = await this.intents.prepare({
        userId,
        wallet,
        purpose: 'add-trustline',
        intentKey,
        txs: [
          {
            tx: this.trustLineRequest(userId, wallet, m.token, '', 'add-trustline').tx,
            purpose: 'add-trustline',
          },
        ],
        context: {},
      });
      return { status: 'sign', intent };
    }
    const done = await this.deps.submissions.existing(intentKey);
    const res =
      done ??
      (await this.ensureLine(userId, wallet, m.token, intentKey, 'add-trustline', () =>
        this.deps.funds.requireXrp(wallet.address, { transactions: 1, newObjects: 1 }),
      ));
    if (!res) return { status: 'success', existed: true };
    return lineResult(res);
  }

  /** The finisher of a self-custody wallet's add-trustline (registered by the module). */
  addTrustlineFinisher(): IntentFinisher {
    return {
      recheck: async (intent) => {
        await this.deps.funds.requireXrp(intent.account, { transactions: 1, newObjects: 1 });
      },
      finish: async (_intent, [outcome]) => lineResult(outcome!),
    };
  }

  /** RequireAuth tokens need the wallet's line authorized by the issuer before a BUY. */
  private async requireAuthorized(address: string, m: Market): Promise<void> {
    const facts = await readIssuerFacts(this.deps.client, m.token.issuer, 'current');
    if (!facts.requireAuth) return;
    const lines = await this.deps.wallets.lines(address, m.token.issuer);
    const line = lines.find((l) => l.currency === m.token.currency);
    if (!(line as { peer_authorized?: boolean } | undefined)?.peer_authorized)
      throw badRequest(SWAP_MESSAGES.requireAuth);
  }

  /**
   * POST /api/limit-order: a resting OfferCreate at the user's price (no flags: it crosses what is
   * already at that price or better, the rest rests). The order row is written from the validated
   * metadata, as the order indexer would write it.
   */
  async limitOrder(
    userId: number,
    b: LimitOrderInput,
    idempotencyKey?: string,
  ): Promise<LimitOrderResult | IntentRequired> {
    const { wallet, m } = await this.walletAndMarket(userId, b);
    const intent = `limit:${userId}:${idempotencyKey ?? randomUUID()}`;
    const { funds, submissions } = this.deps;
    // A retried request (same Idempotency-Key) answers from the first one's offer.
    const done = await submissions.existing(`${intent}:offer`);
    if (done) return this.limitResult(wallet.address, done);
    // A self-custody wallet: through its delegate when the ledger says it may, else signed by the wallet.
    const delegate = await this.delegateFor(userId, wallet, 'OfferCreate');
    if (delegate === null) {
      const known = await this.intents.known(intent);
      if (known) return { status: 'sign', intent: known };
    }
    const needsLine = b.type === 'BUY' && !(await this.hasLine(wallet.address, m));
    if (b.type === 'BUY') await this.requireAuthorized(wallet.address, m);
    // An offer's funds must be there when it is placed and when it fills; a resting offer locks an
    // owner reserve; a fill pays the platform fee on what it spends (charged on the whole amount).
    const check = async (line: boolean) => {
      if (b.type === 'SELL') await funds.requireToken(wallet.address, m.token, b.amount, this.tokenName(m));
      else await this.requireQuoteToken(userId, wallet.address, m, b.amount);
      await funds.requireXrp(wallet.address, {
        ...(await this.xrpSpend(userId, m, b.type, b.amount)),
        transactions: 2 + (line ? 1 : 0),
        newObjects: 1 + (line ? 1 : 0),
      });
    };
    await check(needsLine);
    const amount = new Decimal(b.amount);
    const price = new Decimal(b.price);
    const [takerGets, takerPays] =
      b.type === 'BUY'
        ? // Pays `amount` of the quote for amount ÷ price tokens (rounded down: never above the price).
          [ledgerAmount(m.quote, amount, 'down'), ledgerAmount(m.token, amount.div(price), 'down')]
        : // Sells `amount` tokens for amount × price (rounded up: never below the price).
          [ledgerAmount(m.token, amount, 'down'), ledgerAmount(m.quote, amount.mul(price), 'up')];
    const zero = (a: typeof takerGets) => new Decimal(typeof a === 'string' ? a : a.value).lte(0);
    if (zero(takerGets) || zero(takerPays)) throw badRequest(SWAP_MESSAGES.invalidAmount);
    let expiration: number | undefined;
    if (b.expiresInMinutes) {
      // From the ledger's own clock: its close times are what Expiration is compared with.
      const closed = await this.deps.client.request({ command: 'ledger', ledger_index: 'validated' });
      expiration = Number(closed.result.ledger.close_time) + b.expiresInMinutes * 60;
    }
    const offer: TxRequest = {
      TransactionType: 'OfferCreate',
      TakerGets: takerGets,
      TakerPays: takerPays,
      ...(expiration ? { Expiration: expiration } : {}),
    };
    if (delegate === null) {
      // No delegation: the wallet signs the trust line (if a buy needs one) and the offer.
      const txs: Array<{ tx: TxRequest; purpose: string }> = [];
      if (needsLine)
        txs.push({
          tx: this.trustLineRequest(userId, wallet, m.token, '', 'swap-trustline').tx,
          purpose: 'swap-trustline',
        });
      txs.push({ tx: offer, purpose: 'limit-order' });
      const prepared = await this.intents.prepare({
        userId,
        wallet,
        purpose: 'limit-order',
        intentKey: intent,
        txs,
        context: { type: b.type, amount: b.amount, opensLine: needsLine },
      });
      return { status: 'sign', intent: prepared };
    }
    if (needsLine)
      await this.openLine(userId, wallet, m.token, `${intent}:line`, () => check(true), delegate);
    const req: SubmitRequest = {
      intentKey: `${intent}:offer`,
      account: wallet.address,
      tx: offer,
      purpose: 'limit-order',
      userId,
      walletId: wallet.id,
      ...(delegate ? { delegate } : {}),
    };
    const row = await funds.withAccount(wallet.address, async () => {
      await check(false);
      if (delegate) await this.catchUpSequence(wallet.address);
      return submissions.prepare(req);
    });
    return this.limitResult(wallet.address, await submissions.follow(req, row));
  }

  /**
   * Who signs a trading transaction of `wallet`: undefined for a custodial wallet (the server, with
   * its key); the delegate's address for a self-custody wallet whose ledger entry grants it the
   * permission (docs/self-custody.md "Delegated trading") — refused while the wallet owes platform
   * fees of earlier delegated trades, except a cancel —; null when the wallet must sign itself.
   */
  private async delegateFor(
    userId: number,
    wallet: WalletRow,
    permission: DelegatedPermission,
  ): Promise<string | undefined | null> {
    if (serverSigns(wallet.kind as WalletKind)) return undefined;
    const delegate = await this.deps.delegations?.activeDelegate(userId, wallet, permission);
    // Without delegation an action is an intent the wallet signs.
    if (!delegate) {
      if (!this.deps.intents) throw badRequest(SELF_CUSTODY_MESSAGES.notSupported);
      return null;
    }
    if (permission !== 'OfferCancel') {
      const owed = await this.owedFees(wallet.address);
      const parts = [
        ...(new Decimal(owed.xrp).gt(0) ? [`${owed.xrp} XRP`] : []),
        ...(new Decimal(owed.rlusd).gt(0) ? [`${owed.rlusd} RLUSD`] : []),
      ];
      if (parts.length) throw badRequest(DELEGATION_MESSAGES.feesOwed(parts.join(' and ')));
    }
    return delegate;
  }

  /**
   * A self-custody wallet signs its own transactions too (intents, or elsewhere): before the
   * delegate signs one with the wallet's sequence, ours moves past the ledger's open sequence and
   * every transaction of the wallet we are still following.
   */
  private async catchUpSequence(address: string): Promise<void> {
    const info = await this.deps.client.request({
      command: 'account_info',
      account: address,
      ledger_index: 'current',
    });
    const [open] = await this.deps.db
      .select({ top: max(ledgerSubmissions.sequence) })
      .from(ledgerSubmissions)
      .where(
        and(
          eq(ledgerSubmissions.account, address),
          inArray(ledgerSubmissions.status, ['pending', 'submitted']),
        ),
      );
    const top = open?.top ?? null;
    const next = Math.max(info.result.account_data.Sequence, top === null ? 0 : Number(top) + 1);
    await this.deps.submissions.sawSequence(address, next);
  }

  /**
   * Platform fees a self-custody wallet's delegated or signed limit trades owe (fee status 'owed':
   * nothing can sign their payment but the wallet), by quote currency.
   */
  async owedFees(address: string): Promise<{ xrp: string; rlusd: string }> {
    const rows = await this.deps.db
      .select({ quote: tradingTrades.quote, fee: tradingTrades.fee, id: tradingTrades.id })
      .from(tradingTrades)
      .where(and(eq(tradingTrades.walletAddress, address), eq(tradingTrades.feeStatus, 'owed')));
    const sum = (q: string) =>
      plain(rows.filter((r) => r.quote === q).reduce((t, r) => t.plus(r.fee), new Decimal(0)));
    return { xrp: sum('XRP'), rlusd: sum('RLUSD') };
  }

  /**
   * POST /api/wallets/{id}/owed-fees: the payment(s) to the fee wallet of every fee the wallet owes
   * now, as one intent the wallet signs; its finisher records those fees paid (FeeSettlement).
   */
  async payOwedFees(userId: number, walletId: number, idempotencyKey?: string): Promise<IntentRequired> {
    const wallet = await this.deps.wallets.owned(userId, walletId);
    if (serverSigns(wallet.kind as WalletKind)) throw badRequest(DELEGATION_MESSAGES.noFeesOwed);
    const intentKey = `owed-fees:${userId}:${idempotencyKey ?? randomUUID()}`;
    const known = await this.intents.known(intentKey);
    if (known) return { status: 'sign', intent: known };
    const rows = await this.deps.db
      .select({ quote: tradingTrades.quote, fee: tradingTrades.fee, id: tradingTrades.id })
      .from(tradingTrades)
      .where(and(eq(tradingTrades.walletAddress, wallet.address), eq(tradingTrades.feeStatus, 'owed')));
    if (rows.length === 0) throw badRequest(DELEGATION_MESSAGES.noFeesOwed);
    const feeWallet = await this.deps.feeWallet();
    if (!feeWallet) throw serviceDisabled('The platform fee wallet is not set up yet.');
    const rlusd = await this.deps.rlusdIssuer();
    const txs: Array<{ tx: TxRequest; purpose: string }> = [];
    const groups: Array<{ quote: string; ids: number[] }> = [];
    for (const q of ['XRP', 'RLUSD']) {
      const mine = rows.filter((r) => r.quote === q);
      const total = mine.reduce((t, r) => t.plus(r.fee), new Decimal(0));
      if (mine.length === 0 || total.lte(0)) continue;
      const asset: Asset =
        q === 'XRP' ? { kind: 'xrp' } : { kind: 'iou', currency: RLUSD_CURRENCY_HEX, issuer: rlusd! };
      txs.push({
        tx: { TransactionType: 'Payment', Destination: feeWallet, Amount: ledgerAmount(asset, total, 'up') },
        purpose: FEE_PURPOSE,
      });
      groups.push({ quote: q, ids: mine.map((r) => r.id) });
    }
    if (txs.length === 0) throw badRequest(DELEGATION_MESSAGES.noFeesOwed);
    const prepared = await this.intents.prepare({
      userId,
      wallet,
      purpose: 'owed-fees',
      intentKey,
      txs,
      context: { groups },
    });
    return { status: 'sign', intent: prepared };
  }

  /** The finishers of self-custody limit orders, cancels and owed-fee payments. */
  orderFinishers(): Record<'limit-order' | 'cancel-order' | 'owed-fees', IntentFinisher> {
    return {
      'limit-order': {
        finish: async (intent, outcomes) => {
          const ctx = intent.context as { opensLine?: boolean };
          if (ctx.opensLine) {
            const opened = outcomes[0];
            if (!opened || opened.status !== 'success')
              throw ledgerFailure(
                opened ?? { result: 'expired' },
                `${TRUSTLINE_MESSAGES.failed}: ${ledgerResultMessage(opened?.result ?? 'expired')}`,
              );
          }
          const offer = outcomes[ctx.opensLine ? 1 : 0];
          return this.limitResult(intent.account, offer ?? this.notSent(intent.account));
        },
      },
      'cancel-order': {
        finish: async (intent, [outcome]) => {
          const ctx = intent.context as { orderId: number };
          return this.cancelResult(
            intent.userId,
            ctx.orderId,
            intent.account,
            outcome ?? this.notSent(intent.account),
          );
        },
      },
      'owed-fees': {
        finish: async (intent, outcomes) => {
          const ctx = intent.context as { groups: Array<{ quote: string; ids: number[] }> };
          const paid: Array<{ quote: string; hash: string; trades: number }> = [];
          for (const [i, g] of ctx.groups.entries()) {
            const o = outcomes[i];
            if (!o || o.status !== 'success') throw ledgerFailure(o ?? { result: 'expired' });
            const n = await this.deps.settlement.settleOwed(g.ids, o.hash);
            paid.push({ quote: g.quote, hash: o.hash, trades: n });
          }
          return { status: 'success', paid, owed: await this.owedFees(intent.account) };
        },
      },
    };
  }

  /** An outcome for a step that was never submitted (a step before it failed). */
  private notSent(account: string): SubmissionOutcome {
    return {
      id: 0,
      intentKey: '',
      hash: '',
      account,
      sequence: 0,
      txType: '',
      status: 'failed',
      result: 'expired',
      ledgerIndex: null,
      balanceChanges: [],
    };
  }

  /**
   * The user's own settled OfferCreate/OfferCancel applied to the order rows at once (the order
   * indexer sees it a ledger later and finds nothing left to do), each change pushed to its owner.
   */
  private async applyOrderTx(...args: OmitFirst<Parameters<OrderRecords['applyTx']>>): Promise<void> {
    const updates = await this.deps.orders.applyTx(this.deps.db, ...args);
    for (const u of updates) await this.deps.publishOrderUpdate(u);
  }

  /** The answer for a limit order's final outcome: its order row, written from the validated metadata. */
  private async limitResult(address: string, outcome: SubmissionOutcome): Promise<LimitOrderResult> {
    if (outcome.status !== 'success' || !outcome.meta || outcome.ledgerIndex === null) {
      throw ledgerFailure(outcome, `${SWAP_MESSAGES.limitFailed}: ${ledgerResultMessage(outcome.result)}`);
    }
    const signed = await this.signedBlob(outcome.hash);
    const placed = decode(signed!) as { TakerGets: LedgerAmount; TakerPays: LedgerAmount };
    const [takerGets, takerPays] = [placed.TakerGets, placed.TakerPays];
    const tx = {
      TransactionType: 'OfferCreate',
      Account: address,
      Sequence: outcome.sequence,
      TakerGets: takerGets,
      TakerPays: takerPays,
    };
    const quoteIou = await this.deps.orders.quoteIou();
    const filledAtOnce = unrestedOffer(tx, outcome.meta, quoteIou);
    const filled = filledAtOnce ? [filledAtOnce] : [];
    await this.applyOrderTx(outcome.ledgerIndex, tx, outcome.hash, outcome.meta, quoteIou, filled);
    // What crossed at once is a trade with its fee; later fills are charged as the indexer sees them.
    await this.deps.recorder.record(outcome.hash);
    const order = await this.deps.orders.byOffer(address, outcome.sequence);
    if (!order)
      throw badRequest(`${SWAP_MESSAGES.limitFailed}: the ledger kept no offer`, { hash: outcome.hash });
    return { status: 'success', message: ORDER_MESSAGES.placed(1), order: toOrderView(order) };
  }

  /** DELETE /api/cancel-order/{orderId}: OfferCancel for the owner's resting order. */
  async cancelOrder(
    userId: number,
    orderId: number,
    idempotencyKey?: string,
  ): Promise<OrderView | IntentRequired> {
    const order = await this.deps.orders.get(orderId);
    // Someone else's order answers as a missing one: ids are not a way to learn about others.
    if (!order || order.userId !== userId) throw notFound(ORDER_MESSAGES.notFound);
    const wallet = await this.wallet(userId, order.walletAddress);
    const intentKey = `cancel-order:${userId}:${orderId}:${idempotencyKey ?? randomUUID()}`;
    const { funds, submissions } = this.deps;
    const retried = await submissions.existing(intentKey);
    if (retried) return this.cancelResult(userId, orderId, wallet.address, retried);
    const delegate = await this.delegateFor(userId, wallet, 'OfferCancel');
    if (delegate === null) {
      const known = await this.intents.known(intentKey);
      if (known) return { status: 'sign', intent: known };
    }
    if (!RESTING_STATUSES.includes(order.status as never)) throw badRequest(ORDER_MESSAGES.notCancellable);
    const tx: TxRequest = { TransactionType: 'OfferCancel', OfferSequence: order.offerSequence };
    if (delegate === null) {
      await funds.requireXrp(wallet.address, { transactions: 1 });
      const prepared = await this.intents.prepare({
        userId,
        wallet,
        purpose: 'cancel-order',
        intentKey,
        txs: [{ tx, purpose: 'cancel-order' }],
        context: { orderId },
      });
      return { status: 'sign', intent: prepared };
    }
    const req: SubmitRequest = {
      intentKey,
      account: wallet.address,
      tx,
      purpose: 'cancel-order',
      userId,
      walletId: wallet.id,
      ...(delegate ? { delegate } : {}),
    };
    const outcome = await submissions.follow(
      req,
      await funds.withAccount(wallet.address, async () => {
        await funds.requireXrp(wallet.address, { transactions: 1 });
        if (delegate) await this.catchUpSequence(wallet.address);
        return submissions.prepare(req);
      }),
    );
    return this.cancelResult(userId, orderId, wallet.address, outcome);
  }

  /** The answer for a cancel's final outcome: the order row, updated from the validated metadata. */
  private async cancelResult(
    userId: number,
    orderId: number,
    address: string,
    outcome: SubmissionOutcome,
  ): Promise<OrderView> {
    if (outcome.status !== 'success' || !outcome.meta || outcome.ledgerIndex === null) {
      throw ledgerFailure(outcome, `${ORDER_MESSAGES.cancelFailed} ${ledgerResultMessage(outcome.result)}`);
    }
    const order = (await this.deps.orders.get(orderId))!;
    const tx = {
      TransactionType: 'OfferCancel',
      Account: address,
      OfferSequence: order.offerSequence,
    };
    const quoteIou = await this.deps.orders.quoteIou();
    await this.applyOrderTx(outcome.ledgerIndex, tx, outcome.hash, outcome.meta, quoteIou);
    const after = await this.deps.orders.get(orderId);
    // The offer was already gone (filled or removed in a ledger not yet indexed): reconcile says which.
    if (after && RESTING_STATUSES.includes(after.status as never)) await this.checkOrders(userId);
    return toOrderView((await this.deps.orders.get(orderId))!);
  }

  /** One page of the user's orders (`page` from lib/paging.ts) and how many match in all. */
  async listOrders(
    userId: number,
    q: Parsed<typeof ordersQuerySchema>,
    page: { limit: number; offset: number } = { limit: ORDERS_LIST_LIMIT, offset: 0 },
  ): Promise<{ items: OrderView[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.deps.orders.list(userId, { ...q, ...page }),
      this.deps.orders.listCount(userId, q),
    ]);
    return { items: rows.map(toOrderView), total };
  }

  async checkOrders(userId: number): Promise<CheckOrdersResult> {
    const resting = await this.deps.orders.resting(userId);
    const updates = await this.deps.orders.reconcile(this.deps.client, userId);
    for (const u of updates) await this.deps.publishOrderUpdate(u);
    return { checked: resting.length, updated: updates.map(({ orderId, status }) => ({ orderId, status })) };
  }

  /** A user id in a path must be the session's own. */
}

/** The answer of POST /api/add-trustline from its TrustSet's outcome (both kinds of wallet). */
function lineResult(res: SubmissionOutcome): AddTrustlineResult {
  if (res.status !== 'success')
    return {
      status: 'error',
      hash: res.hash,
      result: res.result,
      error: `${TRUSTLINE_MESSAGES.failed}: ${ledgerResultMessage(res.result)}`,
    };
  return { status: 'success', hash: res.hash };
}

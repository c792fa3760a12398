import { randomUUID } from 'node:crypto';
import {
  AMOUNT_DECIMALS,
  RLUSD_CURRENCY_HEX,
  SWAP_MESSAGES,
  TRUSTLINE_MESSAGES,
  WALLET_MESSAGES,
  addTrustlineSchema,
  isHexCurrency,
  quoteRequestSchema,
  swapRequestSchema,
  tickerToCurrency,
  type AddTrustlineResult,
  type CheckOrdersResult,
  type LimitOrderResult,
  type OrderView,
  ORDER_MESSAGES,
  ORDERS_LIST_LIMIT,
  RESTING_STATUSES,
  limitOrderSchema,
  ordersQuerySchema,
  type QuoteAsset,
  type QuoteView,
  type SwapResult,
  type TradeSide,
  Decimal,
  amountValue,
  dropsToXrp,
  type LedgerAmount,
} from '@ledgerpad/shared';
import { eq } from 'drizzle-orm';
import { decode, getBalanceChanges, type Client, type TransactionMetadata } from 'xrpl';
import type { Db } from '../../db/client';
import { readIssuerFacts } from '../../ledger/account-root';
import { ledgerSubmissions } from '../../ledger/schema';
import type { BalanceChanges, SubmissionService } from '../../ledger/submission-service';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import type { JobRunner } from '../../platform/jobs';
import type { PlatformSettings } from '../../platform/settings';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { unrestedOffer } from './offers';
import { toOrderView, type OrderRecords, type OrderUpdate } from './orders';
import type { CurveAccounts, TradeRecorder } from './trade-records';
import { ledgerAmount, marketOffer, marketPayment, minimumReceive, tradeMoved, type Asset } from './plan';

// Market trades from custodial wallets: a quote is the trade itself simulated against the open
// ledger from the same wallet (rippled's `simulate`: book and pool together, as the payment engine
// executes them), and the swap submits that payment with the slippage floor as DeliverMin. The
// platform fee is a separate payment after the trade validates, made by a persisted job (once).

/** The limit of the trust lines trading opens: far above any supply a token launched here can have. */
const TRUST_LIMIT = '1000000000000000';

export interface TradingDeps {
  db: Db;
  client: Client;
  submissions: SubmissionService;
  jobs: JobRunner;
  settings: PlatformSettings;
  tokens: TokenRegistry;
  wallets: WalletsApi;
  rlusdIssuer: () => Promise<string | undefined>;
  orders: OrderRecords;
  recorder: TradeRecorder;
  /** Curve launches: a buy that meets the anti-snipe cap is told so. */
  curves?: CurveAccounts;
  /** Pushes `orderUpdated` to the order owner's sockets. */
  publishOrderUpdate: (u: OrderUpdate) => Promise<void> | void;
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

const fixed6 = (d: Decimal) =>
  d.toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN).toFixed(AMOUNT_DECIMALS);
const plain = (d: Decimal) => d.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed();

export class TradingService {
  constructor(private readonly deps: TradingDeps) {}

  private async wallet(userId: number, address: string | undefined) {
    const all = await this.deps.wallets.list(userId);
    const row = address ? all.find((w) => w.address === address) : all[0];
    if (!row) throw notFound(address ? WALLET_MESSAGES.notFound : SWAP_MESSAGES.selectWalletAndToken);
    return row;
  }

  private async market(issuer: string, token: string, baseAsset: QuoteAsset | undefined): Promise<Market> {
    let currency: string;
    try {
      currency = isHexCurrency(token) ? token.toUpperCase() : tickerToCurrency(token);
    } catch {
      throw badRequest(SWAP_MESSAGES.selectWalletAndToken);
    }
    const listed = await this.deps.tokens.byIssuer(issuer, currency);
    const quoteName: QuoteAsset = baseAsset ?? (listed?.liquidityPair === 'RLUSD' ? 'RLUSD' : 'XRP');
    let quote: Asset = { kind: 'xrp' };
    if (quoteName === 'RLUSD') {
      const rlusd = await this.deps.rlusdIssuer();
      if (!rlusd) throw badRequest('RLUSD is not available on this network.');
      quote = { kind: 'iou', currency: RLUSD_CURRENCY_HEX, issuer: rlusd };
    }
    return { token: { kind: 'iou', currency, issuer }, quote, quoteName, tokenId: listed?.id ?? null };
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
    const canReceive = side === 'SELL' || (await this.hasLine(account, m));
    const tx = canReceive
      ? marketPayment(account, pay, amount, get, minReceive)
      : marketOffer(pay, amount, get, minReceive);
    const res = (await this.deps.client.request({
      command: 'simulate',
      tx_json: { ...tx, Account: account },
    } as never)) as {
      result: { engine_result: string; meta?: TransactionMetadata; tx_json: { Fee: string } };
    };
    const { engine_result: result, meta, tx_json: sent } = res.result;
    if (!meta || !result.startsWith('tes'))
      return { result, spent: new Decimal(0), received: new Decimal(0) };
    const changes = getBalanceChanges(meta);
    const moved = tradeMoved(changes, account, pay, get, sent.Fee);
    return { result, ...moved, changes, feeDrops: BigInt(sent.Fee), opensLine: !canReceive };
  }

  private async hasLine(account: string, m: Market): Promise<boolean> {
    const lines = await this.deps.wallets.lines(account, m.token.issuer);
    return lines.some((l) => l.currency === m.token.currency);
  }

  private async spotPrice(m: Market): Promise<Decimal | null> {
    try {
      const r = await this.deps.client.request({
        command: 'amm_info',
        asset:
          m.quote.kind === 'xrp'
            ? { currency: 'XRP' }
            : { currency: m.quote.currency, issuer: m.quote.issuer },
        asset2: { currency: m.token.currency, issuer: m.token.issuer },
        ledger_index: 'current',
      });
      const value = (a: unknown) => amountValue(a as LedgerAmount);
      const quoteSide = value(r.result.amm.amount);
      const tokenSide = value(r.result.amm.amount2);
      return tokenSide.gt(0) ? quoteSide.div(tokenSide) : null;
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

  async quote(userId: number, body: unknown): Promise<QuoteView> {
    const q = parseInput(quoteRequestSchema, body);
    // Independent reads side by side: a quote is asked for on every keystroke pause.
    const [wallet, m] = await Promise.all([
      this.wallet(userId, q.wallet),
      this.market(q.issuer, q.token, q.baseAsset),
    ]);
    const amount = (q.tradeType === 'BUY' ? q.amountXrp : q.amountToken)!;
    const [sim, spot] = await Promise.all([
      this.simulate(wallet.address, q.tradeType, m, amount),
      this.spotPrice(m),
    ]);
    if (sim.received.lte(0) || sim.spent.lte(0)) throw await this.noLiquidity(m, q.tradeType);
    const tokens = q.tradeType === 'BUY' ? sim.received : sim.spent;
    const notional = q.tradeType === 'BUY' ? sim.spent : sim.received;
    const price = notional.div(tokens);
    const impact =
      spot && spot.gt(0)
        ? (q.tradeType === 'BUY' ? price.minus(spot) : spot.minus(price))
            .div(spot)
            .mul(100)
            .toDecimalPlaces(2)
        : null;
    const fees = await this.deps.recorder.feeBreakdown(
      userId,
      m.token,
      m.quote,
      q.tradeType,
      notional,
      sim.changes ?? [],
    );
    // Every transaction the swap signs pays the network fee: the trust line a buy opens first, the
    // trade, and the fee payment after it. A new trust line locks one owner reserve.
    const txFee = sim.feeDrops ?? this.deps.submissions.reserves.baseFee;
    const transactions = 1n + (sim.opensLine ? 1n : 0n) + (fees.fee.gt(0) ? 1n : 0n);
    return {
      status: 'success',
      tokenAmountRounded: fixed6(sim.received),
      spend: plain(sim.spent),
      receive: plain(sim.received),
      quote: m.quoteName,
      effectivePrice: plain(price),
      spotPrice: spot ? plain(spot) : null,
      priceImpactPercent: impact ? impact.toFixed(2) : null,
      fee: plain(fees.fee),
      partial: sim.spent.lt(amount),
      feePercent: fees.feePercent,
      feeInPrice: plain(fees.feeInPrice),
      ...(fees.curveFeePercent ? { curveFeePercent: fees.curveFeePercent } : {}),
      networkFee: dropsToXrp(txFee * transactions),
      reserve: dropsToXrp(sim.opensLine ? this.deps.submissions.reserves.reserveIncrement : 0n),
      opensTrustLine: sim.opensLine === true,
    };
  }

  /**
   * A market swap: the trust line first when a BUY needs one, then the offer with the slippage
   * floor (from the client's `expected` amount when it sent the quote it showed, else a fresh
   * quote). The ledger refuses to execute below the floor; nothing executed = no platform fee.
   */
  async swap(userId: number, body: unknown, idempotencyKey?: string): Promise<SwapResult> {
    const raw = (body ?? {}) as { expected?: unknown };
    const s = parseInput(swapRequestSchema, body);
    const wallet = await this.wallet(userId, s.walletAddress ?? s.wallet);
    const m = await this.market(s.issuer, s.token, s.baseAsset);
    const intent = `swap:${userId}:${idempotencyKey ?? randomUUID()}`;
    if (s.type === 'BUY') await this.ensureTrustLine(wallet.address, wallet.id, userId, m, intent);

    let expected: Decimal;
    const given =
      typeof raw.expected === 'string' || typeof raw.expected === 'number' ? String(raw.expected) : '';
    if (/^\d+(\.\d+)?$/.test(given) && new Decimal(given).gt(0)) {
      expected = new Decimal(given);
    } else {
      const sim = await this.simulate(wallet.address, s.type, m, s.amount);
      if (sim.received.lte(0)) throw await this.noLiquidity(m, s.type);
      expected = sim.received;
    }
    const floor = minimumReceive(expected, s.slippage);
    const [pay, get] = s.type === 'BUY' ? [m.quote, m.token] : [m.token, m.quote];
    const payment = marketPayment(wallet.address, pay, s.amount, get, floor);
    const outcome = await this.deps.submissions.submit({
      intentKey: `${intent}:trade`,
      account: wallet.address,
      tx: { ...payment },
      purpose: 'swap',
      userId,
      walletId: wallet.id,
    });
    const txFee = await this.txFee(outcome.hash);
    const moved = tradeMoved(outcome.balanceChanges, wallet.address, pay, get, txFee);
    if (outcome.status !== 'success' || moved.received.lte(0)) {
      // tecPATH_PARTIAL: less than DeliverMin was available — the market moved past the slippage.
      if (outcome.result === 'tecPATH_PARTIAL') {
        throw badRequest(SWAP_MESSAGES.slippageExceeded, { hash: outcome.hash });
      }
      if (outcome.result === 'tecPATH_DRY' || outcome.status === 'success') {
        throw await this.noLiquidity(m, s.type, { hash: outcome.hash });
      }
      throw new AppError('BAD_REQUEST', `${SWAP_MESSAGES.swapFailed}: ${outcome.result}`, {
        hash: outcome.hash,
      });
    }
    // The record and its fee job, from the validated transaction (the sweep does the same after a crash).
    const trade = await this.deps.recorder.record(outcome.hash);
    const fee = new Decimal(trade?.fee ?? 0);
    const partial = moved.spent.lt(s.amount);
    return {
      status: partial ? 'partial' : 'success',
      swappedAmount: fixed6(moved.received),
      spent: plain(moved.spent),
      received: plain(moved.received),
      quote: m.quoteName,
      hash: outcome.hash,
      fee: plain(fee),
      message: partial
        ? `⚠️ Partly filled: spent ${plain(moved.spent)} of ${s.amount}.`
        : m.token.currency === RLUSD_CURRENCY_HEX && m.quote.kind === 'xrp'
          ? // XRP ⇄ RLUSD (spec 001 §8): '✅ Swapped {amount} XRP → {x} RLUSD' or the reverse.
            s.type === 'BUY'
            ? `✅ Swapped ${fixed6(moved.spent)} XRP → ${fixed6(moved.received)} RLUSD`
            : `✅ Swapped ${fixed6(moved.spent)} RLUSD → ${fixed6(moved.received)} XRP`
          : '✅ 1 swap(s) successful!',
    };
  }

  /** The network fee the trade transaction paid, in drops: from the blob the submission service signed. */
  private async txFee(hash: string): Promise<string> {
    const [row] = await this.deps.db
      .select({ blob: ledgerSubmissions.txBlob })
      .from(ledgerSubmissions)
      .where(eq(ledgerSubmissions.hash, hash));
    return row ? String((decode(row.blob) as { Fee?: string }).Fee ?? '0') : '0';
  }

  /**
   * POST /api/add-trustline: the wallet's trust line to a token (nothing sent when it exists). The
   * multi-wallet screen calls it for several wallets at once: each wallet has its own sequence, and
   * the submission service orders a wallet's own transactions.
   */
  async addTrustline(userId: number, body: unknown, idempotencyKey?: string): Promise<AddTrustlineResult> {
    const b = parseInput(addTrustlineSchema, body);
    const wallet = await this.wallet(userId, b.wallet);
    const m = await this.market(b.issuer, b.token, undefined);
    if (await this.hasLine(wallet.address, m)) return { status: 'success', existed: true };
    const res = await this.deps.submissions.submit({
      intentKey: `trustline:${userId}:${idempotencyKey ?? randomUUID()}`,
      account: wallet.address,
      tx: {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: m.token.currency, issuer: m.token.issuer, value: TRUST_LIMIT },
      },
      purpose: 'add-trustline',
      userId,
      walletId: wallet.id,
    });
    if (res.status !== 'success') {
      return { status: 'error', hash: res.hash, error: `${TRUSTLINE_MESSAGES.failed}: ${res.result}` };
    }
    return { status: 'success', hash: res.hash };
  }

  /** A BUY needs the wallet's trust line to the token; RequireAuth tokens need it authorized. */
  private async ensureTrustLine(
    address: string,
    walletId: number,
    userId: number,
    m: Market,
    intent: string,
  ) {
    const lines = await this.deps.wallets.lines(address, m.token.issuer);
    const line = lines.find((l) => l.currency === m.token.currency);
    const facts = await readIssuerFacts(this.deps.client, m.token.issuer, 'current');
    if (facts.requireAuth && !(line as { peer_authorized?: boolean } | undefined)?.peer_authorized) {
      throw badRequest(SWAP_MESSAGES.requireAuth);
    }
    if (line) return;
    const res = await this.deps.submissions.submit({
      intentKey: `${intent}:line`,
      account: address,
      tx: {
        TransactionType: 'TrustSet',
        LimitAmount: { currency: m.token.currency, issuer: m.token.issuer, value: TRUST_LIMIT },
      },
      purpose: 'swap-trustline',
      userId,
      walletId,
    });
    if (res.status !== 'success') throw badRequest(`Failed to add trustline: ${res.result}`);
  }

  /**
   * POST /api/limit-order: a resting OfferCreate at the user's price (no flags: it crosses what is
   * already at that price or better, the rest rests). The order row is written from the validated
   * metadata, as the order indexer would write it.
   */
  async limitOrder(userId: number, body: unknown, idempotencyKey?: string): Promise<LimitOrderResult> {
    const b = parseInput(limitOrderSchema, body);
    const wallet = await this.wallet(userId, b.walletAddress ?? b.wallet);
    const m = await this.market(b.issuer, b.token, b.baseAsset);
    const intent = `limit:${userId}:${idempotencyKey ?? randomUUID()}`;
    if (b.type === 'BUY') await this.ensureTrustLine(wallet.address, wallet.id, userId, m, intent);
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
    const outcome = await this.deps.submissions.submit({
      intentKey: `${intent}:offer`,
      account: wallet.address,
      tx: {
        TransactionType: 'OfferCreate',
        TakerGets: takerGets,
        TakerPays: takerPays,
        ...(expiration ? { Expiration: expiration } : {}),
      },
      purpose: 'limit-order',
      userId,
      walletId: wallet.id,
    });
    if (outcome.status !== 'success' || !outcome.meta || outcome.ledgerIndex === null) {
      throw badRequest(`${SWAP_MESSAGES.limitFailed}: ${outcome.result}`, { hash: outcome.hash });
    }
    const tx = {
      TransactionType: 'OfferCreate',
      Account: wallet.address,
      Sequence: outcome.sequence,
      TakerGets: takerGets,
      TakerPays: takerPays,
    };
    const quoteIou = await this.deps.orders.quoteIou();
    const filledAtOnce = unrestedOffer(tx, outcome.meta, quoteIou);
    const updates = await this.deps.orders.applyTx(
      this.deps.db,
      outcome.ledgerIndex,
      tx,
      outcome.hash,
      outcome.meta,
      quoteIou,
      filledAtOnce ? [filledAtOnce] : [],
    );
    for (const u of updates) await this.deps.publishOrderUpdate(u);
    // What crossed at once is a trade with its fee; later fills are charged as the indexer sees them.
    await this.deps.recorder.record(outcome.hash);
    const order = await this.deps.orders.byOffer(wallet.address, outcome.sequence);
    if (!order)
      throw badRequest(`${SWAP_MESSAGES.limitFailed}: the ledger kept no offer`, { hash: outcome.hash });
    return { status: 'success', message: ORDER_MESSAGES.placed(1), order: toOrderView(order) };
  }

  /** DELETE /api/cancel-order/{orderId}: OfferCancel for the owner's resting order. */
  async cancelOrder(userId: number, orderId: number, idempotencyKey?: string): Promise<OrderView> {
    const order = await this.deps.orders.get(orderId);
    // Someone else's order answers as a missing one: ids are not a way to learn about others.
    if (!order || order.userId !== userId) throw notFound(ORDER_MESSAGES.notFound);
    if (!RESTING_STATUSES.includes(order.status as never)) throw badRequest(ORDER_MESSAGES.notCancellable);
    const wallet = await this.wallet(userId, order.walletAddress);
    const outcome = await this.deps.submissions.submit({
      intentKey: `cancel-order:${userId}:${orderId}:${idempotencyKey ?? randomUUID()}`,
      account: wallet.address,
      tx: { TransactionType: 'OfferCancel', OfferSequence: order.offerSequence },
      purpose: 'cancel-order',
      userId,
      walletId: wallet.id,
    });
    if (outcome.status !== 'success' || !outcome.meta || outcome.ledgerIndex === null) {
      throw badRequest(`${ORDER_MESSAGES.cancelFailed} ${outcome.result}`, { hash: outcome.hash });
    }
    const tx = {
      TransactionType: 'OfferCancel',
      Account: wallet.address,
      OfferSequence: order.offerSequence,
    };
    const updates = await this.deps.orders.applyTx(
      this.deps.db,
      outcome.ledgerIndex,
      tx,
      outcome.hash,
      outcome.meta,
      await this.deps.orders.quoteIou(),
    );
    for (const u of updates) await this.deps.publishOrderUpdate(u);
    const after = await this.deps.orders.get(orderId);
    // The offer was already gone (filled or removed in a ledger not yet indexed): reconcile says which.
    if (after && RESTING_STATUSES.includes(after.status as never)) await this.checkOrders(userId);
    return toOrderView((await this.deps.orders.get(orderId))!);
  }

  async listOrders(userId: number, query: unknown): Promise<OrderView[]> {
    const q = parseInput(ordersQuerySchema, query);
    const rows = await this.deps.orders.list(userId, { ...q, limit: ORDERS_LIST_LIMIT });
    return rows.map(toOrderView);
  }

  async checkOrders(userId: number): Promise<CheckOrdersResult> {
    const resting = await this.deps.orders.resting(userId);
    const updates = await this.deps.orders.reconcile(this.deps.client, userId);
    for (const u of updates) await this.deps.publishOrderUpdate(u);
    return { checked: resting.length, updated: updates.map(({ orderId, status }) => ({ orderId, status })) };
  }

  /** A user id in a path must be the session's own. */
  static ownUser(sessionUserId: number, param: string): void {
    if (!/^\d+$/.test(param)) throw badRequest('userId must be a number.');
    if (Number(param) !== sessionUserId) throw forbidden('You can only view your own orders.');
  }
}

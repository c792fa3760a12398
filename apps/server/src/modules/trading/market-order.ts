import { randomUUID } from 'node:crypto';
import {
  Decimal,
  RLUSD_CURRENCY_HEX,
  SWAP_BATCH_MESSAGES,
  SWAP_MESSAGES,
  TRUSTLINE_MESSAGES,
  WALLET_MESSAGES,
  ledgerResultMessage,
  amountValue,
  type LedgerAmount,
  type QuoteAsset,
  type SwapBatchItem,
  type SwapBatchResult,
  type SwapResult,
  type TradeSide,
  type swapBatchSchema,
  type IntentRequired,
  type WalletKind,
  serverSigns,
} from '@ledgerpad/shared';
import { decode, GlobalFlags } from 'xrpl';
import { decodedTx } from '../../ledger/decoded-tx';
import { ledgerFailure } from '../../ledger/errors';
import type {
  BatchRequest,
  SubmissionOutcome,
  SubmitRequest,
  TxRequest,
} from '../../ledger/submission-service';
import { AppError, notFound, serviceDisabled } from '../../lib/errors';
import type { IntentFinisher } from '../../platform/intents';
import type { Parsed } from '../../lib/validation';
import { FEE_PURPOSE } from './trade-records';
import { opensLine } from './trust-line';
import { ledgerAmount, marketOffer, marketPayment, minimumReceive, tradeMoved, type Asset } from './plan';
import { fixed6, plain, type Market, type Simulated, type SwapInput, type WalletRow } from './trading-base';
import { Quotes } from './quote';

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
   * The trust line a BUY still needs, opened inside the trade's own all-or-nothing Batch (issue 40:
   * a new holder's buy in one ledger, not the line's and then the trade's). Set only where the
   * custodial swaps sign Batches (`feeInBatch`); elsewhere the line is validated before the trade.
   */
  line?: Asset & { kind: 'iou' };
  /**
   * A self-custody wallet's trade sent by its delegate (docs/self-custody.md "Multi-wallet buys"):
   * an immediate-or-cancel OfferCreate with the slippage floor as its price, its fee owed.
   */
  delegate?: string;
}

/**
 * The network fees of a new holder's buy whose trust line is in the trade's Batch, in base fees: the
 * Batch's two and one per inner transaction — the line, the trade and the platform fee's payment
 * (inside the Batch, or the fee job's after it).
 */
const LINE_BATCH_FEES = 5;

/** Rounds of a trade that follows another action's TrustSet of its line (as ensureLine's). */
const LINE_ROUNDS_IN_TRADE = 3;

/**
 * Attempts at a custodial trade whose all-or-nothing Batch applied but rolled the trade back (issue
 * 40): the first and up to two more, each a new intent signed only after the one before it was
 * validated as rolled back (so two can never both execute), each with the first attempt's floor.
 */
const TRADE_ATTEMPTS = 3;

/** Validated ledgers a retry waits for the market to fill at the floor again (the keeper's next round). */
const RETRY_WAIT_LEDGERS = 2;

/** The intent of the n-th attempt of a trade (n ≥ 2); the first is the intent itself. */
const attemptIntent = (intent: string, n: number): string => (n === 1 ? intent : `${intent}#attempt-${n}`);

/** tfInnerBatchTxn: what marks a Batch's inner transaction (XLS-56). */
const TF_INNER_BATCH_TXN: number = GlobalFlags.tfInnerBatchTxn;

/** What a self-custody swap's checks need again when it is signed. */
interface SwapIntentCheck {
  type: TradeSide;
  amount: string;
  /** The exact spend (the whole balance on a 100% sell). */
  spend: string;
  line: boolean;
  /** Signed as one Batch (its network fee: four base fees, five with the trust line). */
  batch?: boolean;
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

// Market orders: POST /api/swap and /api/swap/batch, custodial, delegated or signed by the wallet.
export abstract class MarketOrders extends Quotes {
  private readonly own = new OwnTrades();

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
    const done = await this.recordedTrade(intent);
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
   * ledger has Batch (`feeInBatch`, the custodial swaps' test), these are one all-or-nothing Batch
   * of the wallet instead (the intent's 'batch' mode): the fee cannot be left out, and a trade that
   * fails rolls the fee back with it.
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
    // Every self-custody wallet is asked for the Batch first: a browser wallet signs it with our own
    // xrpl.js; a wallet app (GemWallet, Crossmark, Xaman, Ledger) that cannot may ask for the same
    // transactions as the checked sequence intent instead (`fallbackToSequence`; docs/self-custody.md
    // "Swaps and the platform fee").
    const canBatch = (await this.deps.feeInBatch?.()) ?? false;
    // The funds for a Batch's network fee when the ledger has Batch (the fee may still round to nothing).
    await this.checkSwapIntent(userId, wallet.address, m, { ...check, ...(canBatch ? { batch: true } : {}) });
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
        purpose: FEE_PURPOSE,
      });
    const batch = canBatch && fee.gt(0);
    if (batch) check.batch = true;
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
      ...(batch ? { batch: { purpose: 'swap-batch', fallback: wallet.kind === 'external' } } : {}),
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
      transactions: (c.batch ? 4 : 2) + (c.line ? 1 : 0),
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
      // Signed one by one, the trade and its fee pay one base fee each instead of the Batch's.
      asSequence: (context) => {
        const ctx = context as unknown as SwapIntentContext;
        const { batch: _batch, ...check } = ctx.check;
        return { ...context, check } as Record<string, unknown>;
      },
      finish: async (intent, outcomes) => {
        const ctx = intent.context as unknown as SwapIntentContext;
        let at = 0;
        if (ctx.opensLine) {
          const opened = outcomes[0]!;
          // In a Batch the line rolls back with a trade that failed: the trade's outcome names why.
          if (opened.status !== 'success' && !(intent.mode === 'batch' && opened.result === 'rolled-back'))
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
          const done = await this.recordedTrade(intent);
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

  private item(walletAddress: string, swap: SwapResult): SwapBatchItem {
    return { walletAddress, status: swap.status, swap };
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
    // The rate and the curve as the quote reads them, kept per ledger.
    const [feePercent, curve] = await Promise.all([this.feeRate(userId), this.curveOf(m)]);
    const { fee } = await this.deps.recorder.feeBreakdown(
      userId,
      m.token,
      m.quote,
      type,
      notional,
      sim.changes ?? [],
      { feePercent, curve },
    );
    // The fee wallet's address, kept per ledger too (issue 40: a burst of AMM buys read its row once each).
    const feeWallet = await this.kept('fee-wallet', () => this.deps.feeWallet());
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
    // Where custodial swaps sign Batches, a new line is the first inner transaction of the trade's
    // own Batch (issue 40): one ledger for a new holder's buy, and a trade that fails takes its
    // line (and the line's reserve) back with it.
    const lineInBatch = line !== undefined && ((await this.deps.feeInBatch?.()) ?? false);
    const whole = async () => {
      const spend = await this.xrpSpend(userId, m, order.type, order.amount);
      if (order.type === 'BUY') await this.requireQuoteToken(userId, wallet.address, m, order.amount);
      // The trade, the platform fee's payment (as two transactions, or one Batch of both: four base
      // fees) and, for a new line, its TrustSet and its reserve — with the line in the Batch, the
      // Batch's two base fees and one per inner transaction (line, trade, fee) or the fee job's.
      await funds.requireXrp(wallet.address, {
        ...spend,
        transactions: lineInBatch ? LINE_BATCH_FEES : (batch ? 4 : 2) + (needsLine ? 1 : 0),
        newObjects: needsLine ? 1 : 0,
      });
    };
    await whole();
    // Nothing is signed, not even the trust line, for a trade the market cannot fill. A trade in a
    // Batch, or one without the screen's quote, is simulated right before it is signed anyway
    // (trade's signNow, which refuses it with the same error): with no trust line to open first,
    // that one simulation is the check (issue 40: a hot launch's buy asked the ledger twice).
    const lineFirst = line !== undefined && !lineInBatch;
    const simulatedAtSigning = batch || order.expected === undefined;
    if (!simulatedAtSigning || lineFirst) {
      const probe = await this.simulate(wallet.address, order.type, m, sendMax ?? order.amount);
      if (probe.received.lte(0)) throw await this.noLiquidity(m, order.type);
    }
    if (line && lineFirst) await this.openLine(userId, wallet, line, `${intent}:line`, whole);
    return {
      ...order,
      wallet,
      intent,
      batch,
      ...(sendMax ? { sendMax } : {}),
      ...(lineInBatch ? { line } : {}),
    };
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
      const screen = o.expected && (!stale || o.expectedInBatch) ? new Decimal(o.expected) : undefined;
      // Otherwise the trade's simulation is; in a Batch the fee is signed with the trade: on what
      // the trade simulated right before signing moves.
      const simulated = async () => {
        const sim = await this.simulate(o.wallet.address, o.type, m, spend);
        if (sim.received.lte(0)) throw await this.noLiquidity(m, o.type);
        return sim;
      };
      const [pay, get] = o.type === 'BUY' ? [m.quote, m.token] : [m.token, m.quote];
      if (o.delegate) {
        const expected = screen ?? (await simulated()).received;
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
      // Under the wallet's funds lease: the whole action checked again, then (issue 40) the trade
      // simulated once more right before it is signed, so its floor and its Batch's fee are on the
      // market as it is now, not as it was before the wait for the lease and the checks (a burst of
      // buys moves a new curve past a 50% floor in that wait).
      const check = async (transactions: number) => {
        const spendXrp = await this.xrpSpend(userId, m, o.type, o.amount);
        if (o.type === 'SELL') await funds.requireToken(o.wallet.address, m.token, spend, this.tokenName(m));
        else await this.requireQuoteToken(userId, o.wallet.address, m, o.amount);
        await funds.requireXrp(o.wallet.address, { ...spendXrp, transactions });
      };
      // A later attempt keeps the first one's floor: the user's, not one moved with the market.
      let kept: Decimal | undefined;
      const signNow = async () => {
        const sim = (!screen && !kept) || o.batch ? await simulated() : undefined;
        const floor = kept ?? minimumReceive(screen ?? sim!.received, o.slippage);
        const trade = marketPayment(o.wallet.address, pay, spend, get, floor);
        if (o.sendMax)
          trade.SendMax = { currency: m.token.currency, issuer: m.token.issuer, value: o.sendMax };
        const feeTx = o.batch && sim ? await this.feePayment(userId, m, o.type, sim) : undefined;
        return { trade, feeTx };
      };
      // A new holder's line goes in the trade's Batch (`o.line`) unless the validated ledger has it
      // by now, or a TrustSet of it is in flight (the add-trustline button, a limit order, another
      // instance): that one is followed and the trade signed once it is final — one TrustSet per
      // line, as ensureLine (trust-line.ts) keeps it.
      let attempt = 1;
      for (let round = 1; ; round++) {
        const intent = attemptIntent(o.intent, attempt);
        const signed = await funds.withAccount(o.wallet.address, async () => {
          let line = o.line;
          if (line && (await this.canHold(o.wallet.address, line))) line = undefined;
          if (line) {
            const asset = line;
            const [open] = await submissions.inFlight(o.wallet.address, (tx) => opensLine(tx, asset));
            if (open) return { kind: 'wait' as const, row: open };
          }
          const { trade, feeTx } = await signNow();
          // One intent, one all-or-nothing Batch: the new line, the trade, then its fee to the fee
          // wallet. A trade that fails rolls the line and the fee back with it; one that fills has
          // paid the fee (recorded as paid).
          const inner: BatchRequest['inner'] = [
            ...(line
              ? [
                  {
                    intentKey: `${intent}:line`,
                    tx: this.trustLineRequest(userId, o.wallet, line, '', 'swap-trustline').tx,
                    purpose: 'swap-trustline',
                  },
                ]
              : []),
            { intentKey: `${intent}:trade`, tx: { ...trade }, purpose: 'swap' },
            ...(feeTx ? [{ intentKey: `${intent}:fee`, tx: feeTx, purpose: FEE_PURPOSE }] : []),
          ];
          if (inner.length > 1) {
            const batch: BatchRequest = {
              intentKey: `${intent}:batch`,
              account: o.wallet.address,
              mode: 'allOrNothing',
              purpose: 'swap-batch',
              userId,
              walletId: o.wallet.id,
              inner,
            };
            // The Batch's two base fees and one per inner transaction, and the fee job's payment
            // when the fee is not in it.
            await check(inner.length + 2 + (feeTx ? 0 : 1));
            return {
              kind: 'batch' as const,
              batch,
              at: line ? 1 : 0,
              row: await submissions.prepareBatch(batch),
            };
          }
          const req: SubmitRequest = {
            intentKey: `${intent}:trade`,
            account: o.wallet.address,
            tx: { ...trade },
            purpose: 'swap',
            userId,
            walletId: o.wallet.id,
          };
          await check(2);
          return { kind: 'one' as const, req, row: await submissions.prepare(req) };
        });
        if (signed.kind === 'wait') {
          const opened = await submissions.wait(signed.row.hash);
          // Applied and failed (a tec: the reserve, the issuer's rules): this trade's line would fail
          // the same way. Not applied (expired, rolled back with its Batch): the next round opens it.
          if (
            opened.status !== 'success' &&
            (opened.result.startsWith('tec') || round >= LINE_ROUNDS_IN_TRADE)
          )
            throw ledgerFailure(
              opened,
              `${TRUSTLINE_MESSAGES.failed}: ${ledgerResultMessage(opened.result)}`,
            );
          continue;
        }
        if (signed.kind === 'batch') {
          const { inner } = await submissions.followBatch(signed.batch, signed.row);
          const outcome = inner[signed.at]!;
          // Issue 40: the Batch applied but its trade failed, so all of it rolled back (validated:
          // it can never apply now). In a hot launch that is a buy that met the ladder mid-ledger
          // — its fine steps crossed by the buys signed beside it, the rest of the curve in blocks
          // priced at their average — while the curve itself is still within the floor, as the
          // keeper's next round shows. Tried again as a new intent, at the first attempt's floor,
          // once the market fills at that floor again.
          const floor = (signed.batch.inner[signed.at]!.tx as { DeliverMin?: LedgerAmount }).DeliverMin;
          if (
            outcome.result === 'rolled-back' &&
            floor !== undefined &&
            attempt < TRADE_ATTEMPTS &&
            (await this.fillsAgain(o.wallet.address, o.type, m, spend, amountValue(floor)))
          ) {
            kept = amountValue(floor);
            attempt += 1;
            continue;
          }
          return this.swapResult(o.wallet.address, m, o, outcome);
        }
        return this.swapResult(o.wallet.address, m, o, await submissions.follow(signed.req, signed.row));
      }
    });
  }

  /**
   * Whether a trade of `spend` would now receive at least `floor`: simulated against the open
   * ledger, and again after each of the next validated ledgers (the keeper re-splits a crossed
   * ladder right after the close) up to RETRY_WAIT_LEDGERS.
   */
  private async fillsAgain(
    address: string,
    side: TradeSide,
    m: Market,
    spend: string,
    floor: Decimal,
  ): Promise<boolean> {
    for (let waited = 0; ; waited++) {
      const sim = await this.simulate(address, side, m, spend);
      if (sim.received.gte(floor)) return true;
      if (waited >= RETRY_WAIT_LEDGERS || !(await this.nextLedger())) return false;
    }
  }

  /** Resolves true once a ledger after the one validated now is validated (false after 5 s without one). */
  private nextLedger(): Promise<boolean> {
    const { submissions } = this.deps;
    return submissions.validatedAfter(submissions.ledgerIndex, 5_000);
  }

  /**
   * The trade of an intent's last attempt: the first, or — where that one was rolled back with its
   * Batch and tried again — the latest attempt recorded (a retried request answers what happened).
   */
  private async recordedTrade(intent: string): Promise<SubmissionOutcome | undefined> {
    let done = await this.deps.submissions.existing(`${intent}:trade`);
    for (let n = 2; done?.result === 'rolled-back' && n <= TRADE_ATTEMPTS; n++) {
      const next = await this.deps.submissions.existing(`${attemptIntent(intent, n)}:trade`);
      if (!next) break;
      done = next;
    }
    return done;
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
        outcome.result === 'rolled-back'
          ? await this.rolledBackCause(outcome.hash, address, m, order.type)
          : outcome.result;
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
  private async rolledBackCause(hash: string, address: string, m: Market, side: TradeSide): Promise<string> {
    const blob = await this.signedBlob(hash);
    if (!blob) return 'rolled-back';
    // As a transaction of its own: no inner flag, and the fee and sequence simulate fills in.
    const tx = decode(blob) as Record<string, unknown>;
    const get = side === 'BUY' ? m.token : m.quote;
    if (get.kind === 'iou' && !(await this.canHold(address, get))) {
      // Its Batch opened the line it receives on (a new holder's buy), rolled back with it: alone
      // the Payment cannot deliver. The trade simulated as the quote does (an offer that opens the
      // line) against its floor names the cause.
      const sendMax = tx.SendMax as LedgerAmount | undefined;
      const floor = tx.DeliverMin as LedgerAmount | undefined;
      if (sendMax === undefined) return 'rolled-back';
      const sim = await this.simulate(address, side, m, amountValue(sendMax).toFixed());
      if (sim.received.lte(0)) return 'tecPATH_DRY';
      return floor !== undefined && sim.received.lt(amountValue(floor)) ? 'tecPATH_PARTIAL' : 'rolled-back';
    }
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
    const tx = decodedTx(blob) as { Fee?: string; Delegate?: string };
    // A delegated transaction's fee is the delegate's: the wallet's balance never paid it.
    return tx.Delegate ? '0' : String(tx.Fee ?? '0');
  }
}

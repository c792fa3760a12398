import { randomUUID } from 'node:crypto';
import {
  Decimal,
  ORDER_MESSAGES,
  ORDERS_LIST_LIMIT,
  RESTING_STATUSES,
  RLUSD_CURRENCY_HEX,
  SWAP_MESSAGES,
  TRUSTLINE_MESSAGES,
  ledgerResultMessage,
  type CheckOrdersResult,
  type LedgerAmount,
  type LimitOrderResult,
  type OrderView,
  type ordersQuerySchema,
  type IntentRequired,
  type WalletKind,
  serverSigns,
  DELEGATION_MESSAGES,
} from '@ledgerpad/shared';
import { and, eq } from 'drizzle-orm';
import { decode } from 'xrpl';
import { ledgerFailure } from '../../ledger/errors';
import type { SubmissionOutcome, SubmitRequest, TxRequest } from '../../ledger/submission-service';
import { badRequest, notFound, serviceDisabled } from '../../lib/errors';
import type { IntentFinisher } from '../../platform/intents';
import type { Parsed } from '../../lib/validation';
import { unrestedOffer } from './offers';
import { toOrderView, type OrderRecords } from './orders';
import { FEE_PURPOSE } from './trade-records';
import { tradingTrades } from './schema';
import { ledgerAmount, type Asset } from './plan';
import { type LimitOrderInput } from './trading-base';
import { MarketOrders } from './market-order';

/** A function's parameters after the first (the `db` a service passes from its deps). */
type OmitFirst<T extends unknown[]> = T extends [unknown, ...infer R] ? R : never;

// Limit orders: placing, cancelling and listing them, and the platform fees a self-custody wallet's
// delegated or signed trades owe.
export abstract class LimitOrders extends MarketOrders {
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
}

import { and, count, desc, eq, gte, inArray, isNull, lte, min } from 'drizzle-orm';
import type { OrderStatus as SharedOrderStatus, OrderView } from '@ledgerpad/shared';
import { RLUSD_CURRENCY_HEX, Decimal, platformFee } from '@ledgerpad/shared';
import { decode, rippleTimeToUnixTime, type Client, type TransactionMetadata } from 'xrpl';
import type { Db } from '../../db/client';
import { wallets } from '../../platform/custody-schema';
import type { IndexedLedger, LedgerHandler } from '../../platform/indexer/follower';
import { offerChanges, type OfferChange, type OrderStatus } from './offers';
import { tradingOrders, type OrderRow, type tradingTrades } from './schema';
import { owedByWallet, type TradeRecorder } from './trade-records';
import { ledgerSubmissions } from '../../ledger/schema';

// The wallets' orders: rows of `trading_orders` written from offer changes (offers.ts), by every
// path that sees a transaction — the limit-order and cancel routes right after validation, the
// order indexer for each ledger (crossings by other accounts, removals), the reconciliation — each
// write guarded by the ledger it came from, so an older view never overwrites a newer one.

export interface OrderUpdate {
  userId: number;
  orderId: number;
  status: OrderStatus;
}

type Tx = Record<string, unknown> & { TransactionType: string; Account: string };

const sig = (d: Decimal) => d.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed();

export function toOrderView(r: OrderRow): OrderView {
  return {
    id: r.id,
    wallet_address: r.walletAddress,
    status: r.status as SharedOrderStatus,
    order_type: r.orderType === 'SELL' ? 'SELL' : 'BUY',
    token_currency: r.tokenCurrency,
    token_issuer: r.tokenIssuer,
    quote: r.quote === 'RLUSD' ? 'RLUSD' : 'XRP',
    amount: r.amount,
    expected_tokens: r.expectedTokens,
    remaining_tokens: r.remainingTokens,
    price: r.price,
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
    hash: r.hash,
  };
}

type FillTrade = typeof tradingTrades.$inferInsert;

export class OrderRecords {
  constructor(
    private readonly db: Db,
    private readonly rlusdIssuer: () => Promise<string | undefined>,
    private readonly fills?: {
      recorder: TradeRecorder;
      feePercent: (userId: number) => Promise<string>;
      tokenId: (issuer: string, currency: string) => Promise<number | null>;
    },
  ) {}

  async quoteIou(): Promise<string | undefined> {
    const rlusd = await this.rlusdIssuer();
    return rlusd ? `${RLUSD_CURRENCY_HEX}.${rlusd}` : undefined;
  }

  /** Owners (user ids) of custodial user wallets among `addresses`. */
  private async owners(db: Db, addresses: string[]): Promise<Map<string, number>> {
    if (addresses.length === 0) return new Map();
    const rows = await db
      .select({ address: wallets.address, userId: wallets.userId })
      .from(wallets)
      .where(and(inArray(wallets.address, addresses), eq(wallets.role, 'user'), isNull(wallets.archivedAt)))
      .orderBy(wallets.id);
    const out = new Map<string, number>();
    for (const r of rows) if (r.userId !== null && !out.has(r.address)) out.set(r.address, r.userId);
    return out;
  }

  /**
   * Applies one validated transaction's offer changes for custodial wallets (all of them, or the
   * given `extra` changes such as an offer filled at once) and returns the status changes.
   */
  async applyTx(
    db: Db,
    ledgerIndex: number,
    tx: Tx & { hash?: string },
    hash: string,
    meta: TransactionMetadata,
    quoteIou: string | undefined,
    extra: OfferChange[] = [],
  ): Promise<OrderUpdate[]> {
    const all = offerChanges(tx, meta, () => true, quoteIou);
    const changes = [...all, ...extra];
    if (changes.length === 0) return [];
    const owners = await this.owners(db, [...new Set(changes.map((c) => c.owner))]);
    return this.applyChanges(db, ledgerIndex, hash, changes, owners);
  }

  /** The status changes of one transaction's offer changes, for the owners known to be custodial users. */
  private async applyChanges(
    db: Db,
    ledgerIndex: number,
    hash: string,
    changes: OfferChange[],
    owners: Map<string, number>,
  ): Promise<OrderUpdate[]> {
    const updates: OrderUpdate[] = [];
    for (const c of changes) {
      const userId = owners.get(c.owner);
      if (userId === undefined) continue;
      const u = await this.upsert(db, userId, c, hash, ledgerIndex);
      if (u) updates.push(u);
    }
    return updates;
  }

  private async upsert(
    db: Db,
    userId: number,
    c: OfferChange,
    hash: string,
    ledgerIndex: number,
  ): Promise<OrderUpdate | null> {
    const [prev] = await db
      .select({ id: tradingOrders.id, status: tradingOrders.status, ledgerIndex: tradingOrders.ledgerIndex })
      .from(tradingOrders)
      .where(and(eq(tradingOrders.walletAddress, c.owner), eq(tradingOrders.offerSequence, c.sequence)));
    if (prev && prev.ledgerIndex > ledgerIndex) return null;
    // A final status is final: a replayed older transaction never reopens it.
    if (prev && (prev.status === 'filled' || prev.status === 'canceled') && prev.ledgerIndex === ledgerIndex)
      return null;
    const quote = c.quoteCurrency === 'XRP' ? 'XRP' : 'RLUSD';
    const price = new Decimal(c.placedTokens).gt(0)
      ? sig(new Decimal(c.placedQuote).div(c.placedTokens))
      : '0';
    if (!prev) {
      const [row] = await db
        .insert(tradingOrders)
        .values({
          userId,
          walletAddress: c.owner,
          offerSequence: c.sequence,
          status: c.status,
          orderType: c.side,
          tokenCurrency: c.tokenCurrency,
          tokenIssuer: c.tokenIssuer,
          quote,
          amount: c.placedQuote,
          expectedTokens: c.placedTokens,
          price,
          remainingTokens: c.remainingTokens,
          hash,
          ledgerIndex,
          expiresAt: c.expiresAt ? new Date(c.expiresAt) : null,
        })
        .onConflictDoNothing()
        .returning({ id: tradingOrders.id });
      // Lost a race with another writer of the same transaction: theirs stands, same content.
      return row ? { userId, orderId: row.id, status: c.status } : null;
    }
    await db
      .update(tradingOrders)
      .set({ status: c.status, remainingTokens: c.remainingTokens, ledgerIndex, updatedAt: new Date() })
      .where(and(eq(tradingOrders.id, prev.id), lte(tradingOrders.ledgerIndex, ledgerIndex)));
    return prev.status === c.status ? null : { userId, orderId: prev.id, status: c.status };
  }

  /** Orders whose Expiration passed by `closeTime` (the ledger's close): no longer on the book. */
  async expire(db: Db, ledgerIndex: number, closeTime: number): Promise<OrderUpdate[]> {
    const rows = await db
      .update(tradingOrders)
      .set({ status: 'canceled', ledgerIndex, updatedAt: new Date() })
      .where(
        and(
          inArray(tradingOrders.status, ['open', 'partially_filled']),
          lte(tradingOrders.expiresAt, new Date(closeTime)),
          lte(tradingOrders.ledgerIndex, ledgerIndex),
        ),
      )
      .returning({ id: tradingOrders.id, userId: tradingOrders.userId });
    return rows.map((r) => ({ userId: r.userId, orderId: r.id, status: 'canceled' as const }));
  }

  async byOffer(walletAddress: string, sequence: number): Promise<OrderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(tradingOrders)
      .where(and(eq(tradingOrders.walletAddress, walletAddress), eq(tradingOrders.offerSequence, sequence)));
    return row;
  }

  async get(id: number): Promise<OrderRow | undefined> {
    const [row] = await this.db.select().from(tradingOrders).where(eq(tradingOrders.id, id));
    return row;
  }

  async list(
    userId: number,
    f: {
      wallet?: string;
      status?: string;
      type?: string;
      from?: Date;
      to?: Date;
      limit: number;
      offset?: number;
    },
  ): Promise<OrderRow[]> {
    return this.db
      .select()
      .from(tradingOrders)
      .where(this.listWhere(userId, f))
      .orderBy(desc(tradingOrders.createdAt), desc(tradingOrders.id))
      .limit(f.limit)
      .offset(f.offset ?? 0);
  }

  /** How many orders `list` pages through (X-Total-Count). */
  async listCount(
    userId: number,
    f: { wallet?: string; status?: string; type?: string; from?: Date; to?: Date },
  ): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(tradingOrders).where(this.listWhere(userId, f));
    return row?.n ?? 0;
  }

  private listWhere(
    userId: number,
    f: { wallet?: string; status?: string; type?: string; from?: Date; to?: Date },
  ) {
    const where = [eq(tradingOrders.userId, userId)];
    if (f.wallet) where.push(eq(tradingOrders.walletAddress, f.wallet));
    if (f.status) where.push(eq(tradingOrders.status, f.status));
    if (f.type) where.push(eq(tradingOrders.orderType, f.type));
    if (f.from) where.push(gte(tradingOrders.createdAt, f.from));
    if (f.to) where.push(lte(tradingOrders.createdAt, f.to));
    return and(...where);
  }

  /** The user's orders still resting by our records, with the lowest ledger each was last seen in. */
  async resting(userId: number): Promise<OrderRow[]> {
    return this.db
      .select()
      .from(tradingOrders)
      .where(
        and(eq(tradingOrders.userId, userId), inArray(tradingOrders.status, ['open', 'partially_filled'])),
      );
  }

  /**
   * Reconciles a user's resting orders with the ledger: replays each wallet's transactions since the
   * order was last seen (crossings, cancels and removals all touch the owner's account), then
   * expires what the validated ledger's close time passed.
   */
  async reconcile(client: Client, userId: number): Promise<OrderUpdate[]> {
    const rows = await this.resting(userId);
    if (rows.length === 0) return [];
    const quoteIou = await this.quoteIou();
    const updates: OrderUpdate[] = [];
    const byWallet = new Map<string, number>();
    for (const r of rows)
      byWallet.set(r.walletAddress, Math.min(byWallet.get(r.walletAddress) ?? r.ledgerIndex, r.ledgerIndex));
    for (const [account, since] of byWallet) {
      let marker: unknown;
      do {
        const res = await client.request({
          command: 'account_tx',
          account,
          ledger_index_min: since + 1,
          ledger_index_max: -1,
          forward: true,
          limit: 200,
          ...(marker ? { marker } : {}),
        } as never);
        const result = (res as { result: { transactions: unknown[]; marker?: unknown } }).result;
        for (const entry of result.transactions as Array<Record<string, unknown>>) {
          const tx = (entry.tx_json ?? entry.tx) as Tx | undefined;
          const meta = entry.meta as TransactionMetadata | undefined;
          const ledger = Number(
            entry.ledger_index ?? (tx as { ledger_index?: number } | undefined)?.ledger_index,
          );
          const hash = String(entry.hash ?? (tx as { hash?: string } | undefined)?.hash ?? '');
          if (!tx || !meta || typeof meta !== 'object' || !Number.isFinite(ledger)) continue;
          updates.push(...(await this.applyTx(this.db, ledger, tx, hash, meta, quoteIou)));
        }
        marker = result.marker;
      } while (marker);
    }
    const closed = await client.request({ command: 'ledger', ledger_index: 'validated' });
    const ledger = closed.result.ledger;
    const closeMs = rippleTimeToUnixTime(Number(ledger.close_time));
    updates.push(...(await this.expire(this.db, Number(ledger.ledger_index), closeMs)));
    return updates.filter((u) => u.userId === userId);
  }

  /**
   * The ledger's crossings of resting orders placed through Ledgerpad, by transactions of other
   * accounts, as trade records (the placing transaction's own crossing is recorded by the route).
   * One record per transaction and order: `fill:{hash}:{account}:{sequence}`.
   */
  private async fillTrades(ledger: IndexedLedger, quoteIou: string | undefined): Promise<FillTrade[]> {
    if (!this.fills) return [];
    const candidates: Array<{ change: OfferChange; hash: string }> = [];
    for (const t of ledger.transactions) {
      if (typeof t.meta !== 'object') continue;
      for (const c of offerChanges(t.tx, t.meta, (a) => a !== t.tx.Account, quoteIou)) {
        if (new Decimal(c.filledQuote).gt(0)) candidates.push({ change: c, hash: t.hash });
      }
    }
    if (candidates.length === 0) return [];
    const placed = await this.db
      .select({
        account: ledgerSubmissions.account,
        sequence: ledgerSubmissions.sequence,
        userId: ledgerSubmissions.userId,
        walletId: ledgerSubmissions.walletId,
        signer: ledgerSubmissions.signer,
        purpose: ledgerSubmissions.purpose,
        blob: ledgerSubmissions.txBlob,
      })
      .from(ledgerSubmissions)
      .where(
        and(
          eq(ledgerSubmissions.purpose, 'limit-order'),
          inArray(ledgerSubmissions.account, [...new Set(candidates.map((c) => c.change.owner))]),
        ),
      );
    const out: FillTrade[] = [];
    for (const { change: c, hash } of candidates) {
      const sub = placed.find((p) => p.account === c.owner && p.sequence === c.sequence);
      if (!sub || sub.userId === null || sub.walletId === null) continue;
      const fee = platformFee(
        c.filledQuote,
        await this.fills.feePercent(sub.userId),
        c.quoteIssuer ? 'iou' : 'xrp',
      );
      const owed = owedByWallet(sub, decode(sub.blob) as Tx);
      out.push({
        userId: sub.userId,
        walletId: sub.walletId,
        walletAddress: c.owner,
        issuer: c.tokenIssuer,
        currency: c.tokenCurrency,
        quote: c.quoteCurrency === 'XRP' ? 'XRP' : 'RLUSD',
        side: c.side,
        spent: c.side === 'BUY' ? c.filledQuote : c.filledTokens,
        received: c.side === 'BUY' ? c.filledTokens : c.filledQuote,
        hash: `fill:${hash}:${c.owner}:${c.sequence}`,
        ledgerIndex: ledger.index,
        fee: sig(fee),
        // A self-custody wallet's order (delegated or signed by it) owes its fee until it pays it.
        feeStatus: !fee.gt(0) ? 'none' : owed ? 'owed' : 'pending',
        tokenId: await this.fills.tokenId(c.tokenIssuer, c.tokenCurrency),
      });
    }
    return out;
  }

  /** The indexer's handler: every ledger's offer changes for custodial wallets, then expiries. */
  handler(
    publish: (u: OrderUpdate) => Promise<void> | void,
  ): LedgerHandler<{ updates: OrderUpdate[]; quoteIou: string | undefined; fills: FillTrade[] }> {
    return {
      name: 'orders',
      // Read before the ledger's database transaction: inside it only `db` (the transaction) is usable.
      prepare: async (ledger: IndexedLedger) => {
        const quoteIou = await this.quoteIou();
        return { updates: [], quoteIou, fills: await this.fillTrades(ledger, quoteIou) };
      },
      write: async (ledger: IndexedLedger, db: Db, prepared) => {
        await this.applyLedger(db, ledger, prepared);
        prepared.updates.push(...(await this.expire(db, ledger.index, ledger.closeTime)));
      },
      // Catching up, ledgers come in batches: one read of the earliest expiry still resting instead of
      // an expiry statement per ledger, since a ledger that closed before it has nothing to expire.
      writeMany: async (ledgers, db) => {
        let earliest = await this.earliestExpiry(db);
        for (const { ledger, prepared } of ledgers) {
          // A new order may rest with an expiry: read the earliest again.
          if (await this.applyLedger(db, ledger, prepared)) earliest = await this.earliestExpiry(db);
          if (earliest === null || ledger.closeTime < earliest) continue;
          prepared.updates.push(...(await this.expire(db, ledger.index, ledger.closeTime)));
          earliest = await this.earliestExpiry(db);
        }
      },
      committed: async (_ledger, prepared) => {
        for (const u of prepared.updates) await publish(u);
      },
    };
  }

  /**
   * One ledger's fills of orders placed here by other accounts (trades, with their fee) and offer
   * changes; true when an order row changed.
   */
  private async applyLedger(
    db: Db,
    ledger: IndexedLedger,
    prepared: { updates: OrderUpdate[]; quoteIou: string | undefined; fills: FillTrade[] },
  ): Promise<boolean> {
    for (const f of prepared.fills) await this.fills!.recorder.insert(f, db);
    const before = prepared.updates.length;
    // The owners of every offer the ledger changed, in one statement (issue 40: each buy of a hot
    // launch crosses the curve's offers, and each asked on its own whether their owner is a user).
    const changed: Array<{ hash: string; changes: OfferChange[] }> = [];
    for (const t of ledger.transactions) {
      // A failed (tec) transaction can still remove offers it found unfunded or expired.
      if (typeof t.meta !== 'object') continue;
      const changes = offerChanges(t.tx, t.meta, () => true, prepared.quoteIou);
      if (changes.length) changed.push({ hash: t.hash, changes });
    }
    if (changed.length === 0) return false;
    const owners = await this.owners(db, [...new Set(changed.flatMap((t) => t.changes.map((c) => c.owner)))]);
    for (const t of changed)
      prepared.updates.push(...(await this.applyChanges(db, ledger.index, t.hash, t.changes, owners)));
    return prepared.updates.length > before;
  }

  /** Unix milliseconds of the earliest expiry among resting orders; null when none has one. */
  private async earliestExpiry(db: Db): Promise<number | null> {
    const [row] = await db
      .select({ at: min(tradingOrders.expiresAt) })
      .from(tradingOrders)
      .where(inArray(tradingOrders.status, ['open', 'partially_filled']));
    return row?.at ? row.at.getTime() : null;
  }
}

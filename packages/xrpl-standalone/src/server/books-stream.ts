// The `books` subscription (rippled BookListeners): subscribe with a book, optionally its
// `snapshot` (book_offers now, or `bids`/`asks` with `both`), then every validated transaction
// that creates, changes or removes an offer of that book.
import type { ClosedLedgerRecord, JsonObject, TxRecord } from '../core/contract';
import { issueFromJson } from '../core/book/read';
import type { Issue } from '../amm/amount';
import type { MethodContext } from './context';
import { RpcError } from './errors';
import { bookOffersMethod } from './methods/book-offers';
import { subscribeExtensions } from './methods/subscribe';
import { isObject } from './params';
import { type SubscriptionHub, type Subscriber, validatedTxMessage } from './subscriptions';

interface BookSub {
  gets: Issue;
  pays: Issue;
  both: boolean;
}

const EXTENSION = 'books';
const hubsWithPublisher = new WeakSet<SubscriptionHub>();

function key(i: Issue): string {
  return `${i.currency}/${i.issuer}`;
}

function readBooks(value: unknown): Array<BookSub & { snapshot: boolean; taker?: string; raw: JsonObject }> {
  if (!Array.isArray(value)) throw new RpcError('invalidParams', "Invalid field 'books'.");
  return value.map((b) => {
    if (!isObject(b)) throw new RpcError('invalidParams', "Invalid field 'books'.");
    const gets = issueFromJson(b.taker_gets);
    const pays = issueFromJson(b.taker_pays);
    if (!pays) throw new RpcError('srcCurMalformed');
    if (!gets) throw new RpcError('dstAmtMalformed');
    return {
      gets,
      pays,
      both: b.both === true,
      snapshot: b.snapshot === true,
      taker: typeof b.taker === 'string' ? b.taker : undefined,
      raw: b,
    };
  });
}

function subsOf(subscriber: Subscriber): BookSub[] {
  let list = subscriber.extensions.get(EXTENSION) as BookSub[] | undefined;
  if (!list) {
    list = [];
    subscriber.extensions.set(EXTENSION, list);
  }
  return list;
}

/** The books (gets/pays keys) whose offers a transaction touched. */
function booksTouched(tx: TxRecord): Set<string> {
  const out = new Set<string>();
  for (const wrapper of (tx.meta.AffectedNodes as JsonObject[] | undefined) ?? []) {
    const node = Object.values(wrapper)[0] as JsonObject | undefined;
    if (!node || node.LedgerEntryType !== 'Offer') continue;
    const fields = (node.FinalFields ?? node.NewFields) as JsonObject | undefined;
    if (!fields) continue;
    const gets = amountIssue(fields.TakerGets);
    const pays = amountIssue(fields.TakerPays);
    if (gets && pays) out.add(`${key(gets)}|${key(pays)}`);
  }
  return out;
}

function amountIssue(a: unknown): Issue | undefined {
  if (typeof a === 'string') return { currency: 'XRP', issuer: '' };
  if (isObject(a) && typeof a.currency === 'string' && typeof a.issuer === 'string')
    return { currency: a.currency, issuer: a.issuer };
  return undefined;
}

function publish(record: ClosedLedgerRecord, hub: SubscriptionHub): void {
  for (const tx of record.transactions) {
    const touched = booksTouched(tx);
    if (touched.size === 0) continue;
    for (const sub of hub.subscribers) {
      const books = sub.extensions.get(EXTENSION) as BookSub[] | undefined;
      if (!books || books.length === 0) continue;
      const hit = books.some(
        (b) =>
          touched.has(`${key(b.gets)}|${key(b.pays)}`) ||
          (b.both && touched.has(`${key(b.pays)}|${key(b.gets)}`)),
      );
      if (hit) sub.send(validatedTxMessage(tx, record.header.ledger_hash, sub.apiVersion));
    }
  }
}

function snapshot(ctx: MethodContext, b: { raw: JsonObject }, gets: unknown, pays: unknown): JsonObject[] {
  const params: JsonObject = { taker_gets: gets, taker_pays: pays, ledger_index: 'validated' };
  if (b.raw.taker !== undefined) params.taker = b.raw.taker;
  // book_offers' handler is synchronous (it only reads the ledger).
  const r = bookOffersMethod.handler({ ...ctx, params }) as JsonObject;
  return (r.offers as JsonObject[]) ?? [];
}

subscribeExtensions.set(EXTENSION, {
  subscribe(ctx, subscriber, value) {
    const books = readBooks(value);
    if (!hubsWithPublisher.has(ctx.services.subscriptions)) {
      ctx.services.subscriptions.closePublishers.push(publish);
      hubsWithPublisher.add(ctx.services.subscriptions);
    }
    const list = subsOf(subscriber);
    for (const b of books) list.push({ gets: b.gets, pays: b.pays, both: b.both });
    const wantsSnapshot = books.filter((b) => b.snapshot);
    if (wantsSnapshot.length === 0) return undefined;
    const result: JsonObject = {};
    const add = (field: string, offers: JsonObject[]): void => {
      result[field] = [...((result[field] as JsonObject[] | undefined) ?? []), ...offers];
    };
    for (const b of wantsSnapshot) {
      if (b.both) {
        add('asks', snapshot(ctx, b, b.raw.taker_gets, b.raw.taker_pays));
        add('bids', snapshot(ctx, b, b.raw.taker_pays, b.raw.taker_gets));
      } else {
        add('offers', snapshot(ctx, b, b.raw.taker_gets, b.raw.taker_pays));
      }
    }
    return result;
  },
  unsubscribe(_ctx, subscriber, value) {
    const books = readBooks(value);
    const list = subsOf(subscriber);
    for (const b of books) {
      const at = list.findIndex((x) => key(x.gets) === key(b.gets) && key(x.pays) === key(b.pays));
      if (at >= 0) list.splice(at, 1);
    }
  },
});

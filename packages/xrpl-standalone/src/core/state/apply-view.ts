// The view one transaction applies through. It records every created/modified/deleted entry
// against the state it started from, can be nested (sandboxes the payment engine can discard),
// and at the end builds rippled's metadata (ApplyStateTable::apply): AffectedNodes sorted by index,
// PreviousFields/FinalFields/NewFields by field metadata flags, and PreviousTxnID threading of the
// touched entries and of the owners of created/deleted ones.
import type { CoreConfig, JsonObject, LedgerEntry } from '../contract';
import { accountRootKey } from '../keylets';
import { deepEqual, isDefaultValue, keyPlan } from './fields';

export interface StateReader {
  read(index: string): LedgerEntry | undefined;
}

interface Item {
  /** The entry as the base had it; undefined when created in this view. */
  orig: LedgerEntry | undefined;
  /** The current entry; null when erased. */
  cur: LedgerEntry | null;
  /** The entry as it was when erased (its FinalFields). */
  last?: LedgerEntry;
}

export interface ViewContext {
  /** Sequence of the ledger being built. */
  ledgerSeq: number;
  /** Close time of the parent ledger (rippled's view().parentCloseTime()). */
  parentCloseTime: number;
  /** Hash of the parent ledger (AMMCreate derives the AMM account from it). */
  parentHash?: string;
  config: CoreConfig;
}

/** Entry types carrying PreviousTxnID/PreviousTxnLgrSeq (threaded; incl. fixPreviousTxnID types). */
const THREADED_TYPES = new Set([
  'AccountRoot',
  'RippleState',
  'Offer',
  'Ticket',
  'Check',
  'Escrow',
  'PayChannel',
  'SignerList',
  'DepositPreauth',
  'Delegate',
  'NFTokenOffer',
  'NFTokenPage',
  'DirectoryNode',
  'AMM',
  'DID',
  'Oracle',
  'Credential',
  'MPToken',
  'MPTokenIssuance',
]);

export class ApplyView implements StateReader {
  private readonly items = new Map<string, Item>();
  private writes = 0;
  readonly base: StateReader;
  readonly ctx: ViewContext;

  constructor(base: StateReader, ctx: ViewContext) {
    this.base = base;
    this.ctx = ctx;
  }

  get config(): CoreConfig {
    return this.ctx.config;
  }

  get ledgerSeq(): number {
    return this.ctx.ledgerSeq;
  }

  read(index: string): LedgerEntry | undefined {
    const it = this.items.get(index);
    if (it) return it.cur ?? undefined;
    return this.base.read(index);
  }

  exists(index: string): boolean {
    return this.read(index) !== undefined;
  }

  /** A private copy to modify and hand back with update(); nested values must be replaced, not mutated. */
  peek(index: string): LedgerEntry | undefined {
    const e = this.read(index);
    return e ? { ...e } : undefined;
  }

  /**
   * Like peek, but an entry this view already modified comes back as the view's own object rather
   * than a second copy (a payment's sender was just charged the fee). Only for a caller that
   * changes it solely right before handing it back with update().
   */
  peekModified(index: string): LedgerEntry | undefined {
    const it = this.items.get(index);
    if (it !== undefined && it.cur !== null && it.orig !== undefined && it.cur !== it.orig) return it.cur;
    return this.peek(index);
  }

  insert(entry: LedgerEntry): void {
    this.writes += 1;
    const it = this.items.get(entry.index);
    if (it) {
      if (it.cur !== null) throw new Error(`insert of existing entry ${entry.index}`);
      it.cur = entry;
      return;
    }
    if (this.base.read(entry.index)) throw new Error(`insert of existing entry ${entry.index}`);
    this.items.set(entry.index, { orig: undefined, cur: entry });
  }

  update(entry: LedgerEntry): void {
    this.writes += 1;
    const it = this.items.get(entry.index);
    if (it) {
      if (it.cur === null) throw new Error(`update of erased entry ${entry.index}`);
      it.cur = entry;
      return;
    }
    const orig = this.base.read(entry.index);
    if (!orig) throw new Error(`update of missing entry ${entry.index}`);
    this.items.set(entry.index, { orig, cur: entry });
  }

  /** Delete an entry; pass the entry itself when it was modified just before (its final state). */
  erase(entryOrIndex: LedgerEntry | string): void {
    this.writes += 1;
    const index = typeof entryOrIndex === 'string' ? entryOrIndex : entryOrIndex.index;
    const it = this.items.get(index);
    if (it) {
      if (it.cur === null) throw new Error(`erase of erased entry ${index}`);
      if (it.orig === undefined) this.items.delete(index);
      else {
        it.last = typeof entryOrIndex === 'string' ? it.cur : entryOrIndex;
        it.cur = null;
      }
      return;
    }
    const orig = this.base.read(index);
    if (!orig) throw new Error(`erase of missing entry ${index}`);
    this.items.set(index, { orig, cur: null, last: typeof entryOrIndex === 'string' ? orig : entryOrIndex });
  }

  /** A nested view whose changes reach this one only on apply() (rippled's Sandbox). */
  sandbox(): ApplyView {
    return new ApplyView(this, this.ctx);
  }

  /** Push this sandbox's changes into its parent view. */
  apply(): void {
    const parent = this.base;
    if (!(parent instanceof ApplyView)) throw new Error('apply() on a top-level view');
    for (const [index, it] of this.items) {
      if (it.cur === null) parent.erase(it.last ?? index);
      else if (it.orig === undefined) parent.insert(it.cur);
      else parent.update(it.cur);
    }
    this.items.clear();
  }

  /** Forget every change (used before claiming the fee of a tec transaction). */
  discard(): void {
    this.writes += 1;
    this.items.clear();
  }

  get changeCount(): number {
    return this.items.size;
  }

  /**
   * Bumped by every change made here (insert, update, erase, a sandbox applied into it, discard):
   * while it stays the same and nothing writes to the views below (as during one payment flow, whose
   * writes all go through this view), what reads through this view is unchanged.
   */
  get version(): number {
    return this.writes;
  }

  /** For succ(): the smallest touched key in (after, before] whose entry exists in this view. */
  firstLiveKey(after: string, before: string): string | undefined {
    let best: string | undefined;
    for (const [k, it] of this.items) {
      if (it.cur && k > after && k <= before && (best === undefined || k < best)) best = k;
    }
    return best;
  }

  /** For succ(): the entry exists in the base but this view deleted it. */
  deletedHere(index: string): boolean {
    const it = this.items.get(index);
    return it !== undefined && it.orig !== undefined && it.cur === null;
  }

  /** Net changes: index -> final entry, or null when deleted. */
  changes(): Array<[string, LedgerEntry | null]> {
    const out: Array<[string, LedgerEntry | null]> = [];
    for (const [index, it] of this.items) {
      if (it.orig === undefined && it.cur === null) continue;
      out.push([index, it.cur]);
    }
    return out;
  }

  /**
   * Thread the transaction through the touched entries and produce the metadata. After this call
   * `changes()` returns the threaded entries to commit.
   */
  buildMetadata(txId: string, txIndex: number, result: string, deliveredAmount?: unknown): JsonObject {
    const seq = this.ctx.ledgerSeq;
    const threadedOwners: string[] = [];
    for (const it of this.items.values()) {
      if (it.cur === null) {
        if (it.orig) pushOwners(it.orig, threadedOwners);
      } else if (it.orig === undefined) {
        pushOwners(it.cur, threadedOwners);
      }
    }
    // Owners of created/deleted entries are threaded too (ApplyStateTable::threadOwners).
    let mustThread: Set<string> | undefined;
    if (threadedOwners.length) {
      mustThread = new Set<string>();
      for (const owner of threadedOwners) {
        const key = accountRootKey(owner);
        mustThread.add(key);
        const it = this.items.get(key);
        if (it) continue; // already affected: threaded below
        const orig = this.base.read(key);
        if (orig) this.items.set(key, { orig, cur: orig });
      }
    }

    const nodes: Array<[string, JsonObject]> = [];
    for (const [index, it] of this.items) {
      if (it.orig === undefined && it.cur === null) continue;
      if (it.cur === null) {
        const orig = it.orig as LedgerEntry;
        const last = it.last ?? orig;
        const node: JsonObject = { LedgerEntryType: orig.LedgerEntryType, LedgerIndex: index };
        const finalKeys = keyPlan(last).deleteFinal;
        if (finalKeys.length) node.FinalFields = pick(last, finalKeys);
        const prev = previousFields(orig, last);
        if (prev) node.PreviousFields = prev;
        nodes.push([index, { DeletedNode: node }]);
      } else if (it.orig === undefined) {
        const cur = threadEntry(it.cur, txId, seq, undefined, true);
        it.cur = cur;
        const node: JsonObject = { LedgerEntryType: cur.LedgerEntryType, LedgerIndex: index };
        const fresh = newFields(cur);
        if (fresh) node.NewFields = fresh;
        nodes.push([index, { CreatedNode: node }]);
      } else {
        const orig = it.orig;
        const isThreadOnly = it.cur === orig || (mustThread !== undefined && mustThread.has(index));
        if (!isThreadOnly && deepEqual(orig, it.cur)) continue;
        const prevTxn: JsonObject = {};
        // A modified entry is this view's own copy (peek/update), threaded in place; a thread-only
        // one is still the base's object and is copied.
        const cur = threadEntry(it.cur, txId, seq, prevTxn, it.cur !== orig);
        it.cur = cur;
        const node: JsonObject = { LedgerEntryType: orig.LedgerEntryType, LedgerIndex: index };
        const finalKeys = keyPlan(cur).changeNew;
        if (finalKeys.length) node.FinalFields = pick(cur, finalKeys);
        const prev = previousFields(orig, cur);
        if (prev) node.PreviousFields = prev;
        if (prevTxn.PreviousTxnID !== undefined) {
          node.PreviousTxnID = prevTxn.PreviousTxnID;
          node.PreviousTxnLgrSeq = prevTxn.PreviousTxnLgrSeq;
        }
        nodes.push([index, { ModifiedNode: node }]);
      }
    }
    // Unchanged entries (e.g. a thread-only owner whose entry was already current) dropped out above.
    sortByIndex(nodes);
    const affected: JsonObject[] = new Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) affected[i] = (nodes[i] as [string, JsonObject])[1];
    const meta: JsonObject = {
      AffectedNodes: affected,
      TransactionIndex: txIndex,
      TransactionResult: result,
    };
    if (deliveredAmount !== undefined) meta.DeliveredAmount = deliveredAmount;
    return meta;
  }
}

// The helpers below are module-level functions rather than closures inside buildMetadata: it runs
// for every transaction, and per-call closures (which tsx/esbuild also wrap in __name calls) showed
// up in profiles.

function byIndex(a: [string, JsonObject], b: [string, JsonObject]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

/**
 * Sorts the affected nodes by ledger index (unique keys, so any correct sort gives one order). Most
 * transactions touch a handful of entries: those are sorted in place by insertion, because
 * Array.prototype.sort allocates work arrays on every call (~0.8 KB per payment in an allocation
 * profile); longer lists (offer crossings) keep the library sort.
 */
function sortByIndex(nodes: Array<[string, JsonObject]>): void {
  if (nodes.length > 16) {
    nodes.sort(byIndex);
    return;
  }
  for (let i = 1; i < nodes.length; i++) {
    const item = nodes[i] as [string, JsonObject];
    let j = i - 1;
    while (j >= 0 && (nodes[j] as [string, JsonObject])[0] > item[0]) {
      nodes[j + 1] = nodes[j] as [string, JsonObject];
      j--;
    }
    nodes[j + 1] = item;
  }
}

function isAllZeros(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== 48) return false;
  return true;
}

/**
 * The entry with PreviousTxnID/PreviousTxnLgrSeq pointing at this transaction (when its type is
 * threaded and not already threaded to it). The values it replaces go to `prevTxn` when given.
 * An entry `owned` by the view (created or modified in it, never shared with the base) is updated
 * in place: assigning keeps the key order the spread copy had (existing keys stay, new ones last).
 */
function threadEntry(
  entry: LedgerEntry,
  txId: string,
  seq: number,
  prevTxn: JsonObject | undefined,
  owned: boolean,
): LedgerEntry {
  if (!THREADED_TYPES.has(entry.LedgerEntryType)) return entry;
  const prevId = entry.PreviousTxnID as string | undefined;
  if (prevId === txId) return entry;
  if (prevTxn && prevId !== undefined && !isAllZeros(prevId)) {
    prevTxn.PreviousTxnID = prevId;
    prevTxn.PreviousTxnLgrSeq = entry.PreviousTxnLgrSeq;
  }
  if (!owned) return { ...entry, PreviousTxnID: txId, PreviousTxnLgrSeq: seq };
  entry.PreviousTxnID = txId;
  entry.PreviousTxnLgrSeq = seq;
  return entry;
}

/** The accounts owning an entry (whose roots are threaded when it is created or deleted). */
function pushOwners(entry: LedgerEntry, out: string[]): void {
  switch (entry.LedgerEntryType) {
    case 'AccountRoot':
      return;
    case 'RippleState':
      out.push((entry.LowLimit as { issuer: string }).issuer, (entry.HighLimit as { issuer: string }).issuer);
      return;
    default:
      if (typeof entry.Account === 'string') out.push(entry.Account);
      if (typeof entry.Destination === 'string') out.push(entry.Destination);
  }
}

/** The listed keys of `obj`, in that (canonical) order. */
function pick(obj: LedgerEntry, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of keys) out[k] = obj[k];
  return out;
}

/** NewFields of a created entry: its non-default reportable fields. */
function newFields(cur: LedgerEntry): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (const k of keyPlan(cur).changeNew) {
    const v = cur[k];
    if (isDefaultValue(k, v)) continue;
    out ??= {};
    out[k] = v;
  }
  return out;
}

function previousFields(orig: LedgerEntry, cur: LedgerEntry): JsonObject | undefined {
  let prev: JsonObject | undefined;
  for (const k of keyPlan(orig).changeOrig) {
    const v = orig[k];
    if (deepEqual(v, cur[k])) continue;
    prev ??= {};
    prev[k] = v;
  }
  return prev;
}

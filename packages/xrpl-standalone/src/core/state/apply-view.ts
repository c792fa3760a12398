// The view one transaction applies through. It records every created/modified/deleted entry
// against the state it started from, can be nested (sandboxes the payment engine can discard),
// and at the end builds rippled's metadata (ApplyStateTable::apply): AffectedNodes sorted by index,
// PreviousFields/FinalFields/NewFields by field metadata flags, and PreviousTxnID threading of the
// touched entries and of the owners of created/deleted ones.
import type { CoreConfig, JsonObject, LedgerEntry } from '../contract';
import { accountRootKey } from '../keylets';
import {
  canonicalOrder,
  deepEqual,
  isDefaultValue,
  metaChangeNew,
  metaChangeOrig,
  metaCreate,
  metaDeleteFinal,
} from './fields';

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

  insert(entry: LedgerEntry): void {
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
    this.items.clear();
  }

  get changeCount(): number {
    return this.items.size;
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
    const nodes = new Map<string, JsonObject>();
    const threadedOwners: string[] = [];

    const thread = (entry: LedgerEntry, node: JsonObject | undefined): LedgerEntry => {
      if (!THREADED_TYPES.has(entry.LedgerEntryType)) return entry;
      const prevId = entry.PreviousTxnID as string | undefined;
      if (prevId === txId) return entry;
      if (node && prevId !== undefined && !/^0*$/.test(prevId)) {
        node.PreviousTxnID = prevId;
        node.PreviousTxnLgrSeq = entry.PreviousTxnLgrSeq;
      }
      return { ...entry, PreviousTxnID: txId, PreviousTxnLgrSeq: seq };
    };

    const ownersOf = (entry: LedgerEntry): string[] => {
      switch (entry.LedgerEntryType) {
        case 'AccountRoot':
          return [];
        case 'RippleState':
          return [
            (entry.LowLimit as { issuer: string }).issuer,
            (entry.HighLimit as { issuer: string }).issuer,
          ];
        default: {
          const out: string[] = [];
          if (typeof entry.Account === 'string') out.push(entry.Account);
          if (typeof entry.Destination === 'string') out.push(entry.Destination);
          return out;
        }
      }
    };

    for (const it of this.items.values()) {
      if (it.cur === null) {
        if (it.orig) threadedOwners.push(...ownersOf(it.orig));
      } else if (it.orig === undefined) {
        threadedOwners.push(...ownersOf(it.cur));
      }
    }
    // Owners of created/deleted entries are threaded too (ApplyStateTable::threadOwners).
    const mustThread = new Set<string>();
    for (const owner of threadedOwners) {
      const key = accountRootKey(owner);
      mustThread.add(key);
      const it = this.items.get(key);
      if (it) continue; // already affected: threaded below
      const orig = this.base.read(key);
      if (orig) this.items.set(key, { orig, cur: orig });
    }

    for (const [index, it] of this.items) {
      if (it.orig === undefined && it.cur === null) continue;
      if (it.cur === null) {
        const orig = it.orig as LedgerEntry;
        const last = it.last ?? orig;
        const node: JsonObject = { LedgerEntryType: orig.LedgerEntryType, LedgerIndex: index };
        const prev = previousFields(orig, last);
        const finals: JsonObject = {};
        for (const [k, v] of Object.entries(last)) if (metaDeleteFinal(k)) finals[k] = v;
        if (Object.keys(finals).length) node.FinalFields = canonicalOrder(finals);
        if (prev) node.PreviousFields = prev;
        nodes.set(index, { DeletedNode: node });
      } else if (it.orig === undefined) {
        const cur = thread(it.cur, undefined);
        it.cur = cur;
        const node: JsonObject = { LedgerEntryType: cur.LedgerEntryType, LedgerIndex: index };
        const fresh: JsonObject = {};
        for (const [k, v] of Object.entries(cur)) if (metaCreate(k) && !isDefaultValue(k, v)) fresh[k] = v;
        if (Object.keys(fresh).length) node.NewFields = canonicalOrder(fresh);
        nodes.set(index, { CreatedNode: node });
      } else {
        const orig = it.orig;
        const isThreadOnly = it.cur === orig || mustThread.has(index);
        if (!isThreadOnly && deepEqual(orig, it.cur)) continue;
        const node: JsonObject = { LedgerEntryType: orig.LedgerEntryType, LedgerIndex: index };
        const cur = thread(it.cur, node);
        it.cur = cur;
        const finals: JsonObject = {};
        for (const [k, v] of Object.entries(cur)) if (metaChangeNew(k)) finals[k] = v;
        const prev = previousFields(orig, cur);
        const ordered: JsonObject = { LedgerEntryType: node.LedgerEntryType, LedgerIndex: index };
        if (Object.keys(finals).length) ordered.FinalFields = canonicalOrder(finals);
        if (prev) ordered.PreviousFields = prev;
        if (node.PreviousTxnID !== undefined) {
          ordered.PreviousTxnID = node.PreviousTxnID;
          ordered.PreviousTxnLgrSeq = node.PreviousTxnLgrSeq;
        }
        nodes.set(index, { ModifiedNode: ordered });
      }
    }
    // Unchanged entries (e.g. a thread-only owner whose entry was already current) drop out.
    const affected = [...nodes.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map((e) => e[1]);
    const meta: JsonObject = {
      AffectedNodes: affected,
      TransactionIndex: txIndex,
      TransactionResult: result,
    };
    if (deliveredAmount !== undefined) meta.DeliveredAmount = deliveredAmount;
    return meta;
  }
}

function previousFields(orig: LedgerEntry, cur: LedgerEntry): JsonObject | undefined {
  const prev: JsonObject = {};
  let any = false;
  for (const [k, v] of Object.entries(orig)) {
    if (!metaChangeOrig(k) || deepEqual(v, cur[k])) continue;
    prev[k] = v;
    any = true;
  }
  return any ? canonicalOrder(prev) : undefined;
}

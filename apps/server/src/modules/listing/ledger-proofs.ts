import { rippleTimeToISOTime, type Client } from 'xrpl';

// What an issuer's validated transactions prove, read with account_tx (the issuer's own history:
// rippled lists every transaction that touched the account, trust lines to it included).

/** Pages of account_tx read before giving up (200 transactions each). */
const MAX_PAGES = 10;

interface TxEntry {
  tx_json?: Record<string, unknown>;
  tx?: Record<string, unknown>;
  meta?: unknown;
  hash?: string;
  close_time_iso?: string;
  validated?: boolean;
}

interface AffectedNode {
  CreatedNode?: { LedgerEntryType: string; NewFields?: Record<string, unknown> };
}

function closeTime(e: TxEntry): Date | null {
  if (e.close_time_iso) return new Date(e.close_time_iso);
  const date = (e.tx_json ?? e.tx)?.date;
  return typeof date === 'number' ? new Date(rippleTimeToISOTime(date)) : null;
}

async function* issuerHistory(client: Client, account: string, fromLedger = -1): AsyncGenerator<TxEntry> {
  let marker: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await client.request({
      command: 'account_tx',
      account,
      forward: true,
      ledger_index_min: fromLedger,
      ledger_index_max: -1,
      limit: 200,
      ...(marker ? { marker } : {}),
    });
    for (const e of r.result.transactions as unknown as TxEntry[]) yield e;
    marker = r.result.marker;
    if (!marker) return;
  }
}

/**
 * When `currency` of `issuer` first appeared on the ledger: the close time of the transaction that
 * created its first trust line (every issuance needs one). Null when the history the server holds
 * does not reach it (a non-full-history server, or an issuer with very many transactions).
 */
export async function firstTrustLineTime(
  client: Client,
  issuer: string,
  currency: string,
): Promise<Date | null> {
  for await (const e of issuerHistory(client, issuer)) {
    const meta = e.meta as { AffectedNodes?: AffectedNode[] } | undefined;
    for (const node of meta?.AffectedNodes ?? []) {
      const created = node.CreatedNode;
      if (created?.LedgerEntryType !== 'RippleState') continue;
      const f = created.NewFields ?? {};
      const balance = f.Balance as { currency?: string } | undefined;
      const low = f.LowLimit as { issuer?: string } | undefined;
      const high = f.HighLimit as { issuer?: string } | undefined;
      if (balance?.currency === currency && (low?.issuer === issuer || high?.issuer === issuer)) {
        return closeTime(e);
      }
    }
  }
  return null;
}

/** The memo data (hex) of a transaction that equals one of `wanted` (upper-case hex), if any. */
const memoAmong = (tx: Record<string, unknown>, wanted: ReadonlySet<string>): string | undefined => {
  const memos = (tx.Memos as Array<{ Memo?: { MemoData?: string } }> | undefined) ?? [];
  return memos.map((m) => (m.Memo?.MemoData ?? '').toUpperCase()).find((d) => wanted.has(d));
};

/**
 * The first successful, validated transaction sent by `issuer` from `fromLedger` on, carrying one
 * of `memoDataHexes` exactly (the whole memo: a code alone, or a text naming another user or
 * listing, is not it), and closed no later than `notAfter`; undefined when there is none (yet).
 */
export async function findClaimTransaction(
  client: Client,
  issuer: string,
  memoDataHexes: string[],
  fromLedger: number,
  notAfter: Date,
): Promise<{ hash: string; memoDataHex: string } | undefined> {
  const wanted = new Set(memoDataHexes.map((h) => h.toUpperCase()));
  for await (const e of issuerHistory(client, issuer, fromLedger)) {
    const tx = e.tx_json ?? e.tx;
    if (!tx || tx.Account !== issuer || e.validated === false) continue;
    const result = (e.meta as { TransactionResult?: string } | undefined)?.TransactionResult;
    if (result !== 'tesSUCCESS') continue;
    const memo = memoAmong(tx, wanted);
    if (!memo) continue;
    const at = closeTime(e);
    if (at && at.getTime() > notAfter.getTime()) continue;
    const hash = e.hash ?? (tx.hash as string | undefined);
    if (hash) return { hash, memoDataHex: memo };
  }
  return undefined;
}

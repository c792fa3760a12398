import { rippleTimeToISOTime, type Client } from 'xrpl';
import { Decimal, type HolderCluster } from '@ledgerpad/shared';

// Holder clusters (issue 35, docs/token-identity.md "Holder clusters"): 25 wallets funded by one
// account in a row are one owner, not 25 holders. From the ledger's account history: who sent each
// top holder the XRP that created its account, and when. Holders funded by the same account within
// CLUSTER_SPAN_MS of one another (a chain of fundings), or funded by another top holder, are grouped;
// the risk panel shows each group with its combined share, and the top 10 counts a group as one.

/** Largest holders whose funding is read (the rest cannot move the top 10). */
export const TOP_HOLDERS_TRACED = 50;
/** Fundings of one funder this close together (each to the next) make one cluster. */
export const CLUSTER_SPAN_MS = 60 * 60_000;
/** Account histories read at once. */
const READ_CONCURRENCY = 6;

export interface Funding {
  /** The account that sent the payment creating this one. */
  funder: string;
  /** Close time of that payment, ms. */
  at: number;
}

interface TxEntry {
  tx_json?: Record<string, unknown>;
  tx?: Record<string, unknown>;
  close_time_iso?: string;
  meta?: { TransactionResult?: string; AffectedNodes?: unknown[] };
}

/** Who created `account` (its first transaction: the payment that funded it), or undefined when unknown. */
async function readFunding(client: Client, account: string): Promise<Funding | undefined> {
  const r = await client.request({
    command: 'account_tx',
    account,
    forward: true,
    ledger_index_min: -1,
    ledger_index_max: -1,
    limit: 1,
  });
  const e = (r.result.transactions as unknown as TxEntry[])[0];
  const tx = e?.tx_json ?? e?.tx;
  if (!tx || tx.TransactionType !== 'Payment' || tx.Destination !== account || tx.Account === account)
    return undefined; // the history does not reach its creation (a pruned server): unknown
  const created = (e!.meta?.AffectedNodes ?? []).some((n) => {
    const c = (n as { CreatedNode?: { LedgerEntryType?: string; NewFields?: { Account?: string } } })
      .CreatedNode;
    return c?.LedgerEntryType === 'AccountRoot' && c.NewFields?.Account === account;
  });
  if (!created) return undefined;
  const at = e!.close_time_iso
    ? Date.parse(e!.close_time_iso)
    : typeof tx.date === 'number'
      ? Date.parse(rippleTimeToISOTime(tx.date))
      : NaN;
  return Number.isFinite(at) ? { funder: String(tx.Account), at } : undefined;
}

/** Fundings never change: read once per account and kept (bounded; cleared when full). */
export class FundingReader {
  private readonly known = new Map<string, Funding | null>();
  constructor(
    private readonly client: Client,
    private readonly max = 100_000,
  ) {}

  async of(accounts: string[]): Promise<Map<string, Funding>> {
    const missing = accounts.filter((a) => !this.known.has(a));
    const queue = [...missing];
    await Promise.all(
      Array.from({ length: Math.min(READ_CONCURRENCY, queue.length) }, async () => {
        for (let a = queue.shift(); a !== undefined; a = queue.shift()) {
          // A failed read is not remembered: the next report asks again.
          const f = await readFunding(this.client, a).catch(() => 'failed' as const);
          if (f === 'failed') continue;
          if (this.known.size >= this.max) this.known.clear();
          this.known.set(a, f ?? null);
        }
      }),
    );
    const out = new Map<string, Funding>();
    for (const a of accounts) {
      const f = this.known.get(a);
      if (f) out.set(a, f);
    }
    return out;
  }
}

/**
 * Groups `holders` (largest first, excluded accounts already left out) by funding: the same funder
 * with each funding within `spanMs` of the previous one, or funded by another holder of the list.
 * `ignoredFunders`: accounts whose fundings say nothing about ownership (Ledgerpad's faucet and own
 * accounts fund every new user's wallet). Returns the groups of 2 or more, largest first.
 */
export function clusterHolders(
  holders: ReadonlyArray<{ account: string; balance: string }>,
  fundings: ReadonlyMap<string, Funding>,
  supply: Decimal,
  ignoredFunders: ReadonlySet<string> = new Set(),
  spanMs = CLUSTER_SPAN_MS,
): HolderCluster[] {
  const parent = new Map(holders.map((h) => [h.account, h.account]));
  const find = (a: string): string => {
    let r = a;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(a, r);
    return r;
  };
  const union = (a: string, b: string) => parent.set(find(a), find(b));
  const byFunder = new Map<string, Array<{ account: string; at: number }>>();
  for (const h of holders) {
    const f = fundings.get(h.account);
    if (!f || ignoredFunders.has(f.funder)) continue;
    // Funded by another top holder: the same hands.
    if (parent.has(f.funder)) union(h.account, f.funder);
    byFunder.set(f.funder, [...(byFunder.get(f.funder) ?? []), { account: h.account, at: f.at }]);
  }
  for (const list of byFunder.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let i = 1; i < list.length; i++)
      if (list[i]!.at - list[i - 1]!.at <= spanMs) union(list[i]!.account, list[i - 1]!.account);
  }
  const groups = new Map<string, Array<{ account: string; balance: string }>>();
  for (const h of holders) groups.set(find(h.account), [...(groups.get(find(h.account)) ?? []), h]);
  const out: HolderCluster[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const balance = members.reduce((s, m) => s.plus(m.balance), new Decimal(0));
    const times = members.flatMap((m) => {
      const f = fundings.get(m.account);
      return f ? [f.at] : [];
    });
    // The funder most of them share (or, for a chain of holders, the first one's).
    const funders = new Map<string, number>();
    for (const m of members) {
      const f = fundings.get(m.account)?.funder;
      if (f) funders.set(f, (funders.get(f) ?? 0) + 1);
    }
    const funder = [...funders].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    out.push({
      funder,
      accounts: members.map((m) => m.account),
      balance: balance.toFixed(),
      sharePercent: supply.gt(0) ? balance.div(supply).mul(100).toDecimalPlaces(2).toFixed() : '0',
      fundedFrom: times.length ? new Date(Math.min(...times)).toISOString() : null,
      fundedTo: times.length ? new Date(Math.max(...times)).toISOString() : null,
    });
  }
  return out.sort((a, b) => new Decimal(b.balance).cmp(a.balance));
}

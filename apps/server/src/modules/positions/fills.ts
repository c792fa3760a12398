import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { Decimal, RLUSD_CURRENCY_HEX, dropsToDecimal, isLpCurrency } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/results';
import { wallets } from '../../platform/custody-schema';
import { balanceChanges } from '../../platform/indexer/balance-changes';
import { canTrade, consumedOffers } from '../../platform/indexer/consumed-offers';
import type { IndexedLedger, IndexedTx, LedgerHandler } from '../../platform/indexer/follower';
import { type AccountTrade } from '../market';
import { marketTrades } from '../market/schema';
import { tokens } from '../tokens/schema';
import { tradeFees } from '../trading';
import { positionFills } from './schema';

// The trades positions need that the market indexer's rows do not carry (docs/positions.md "Exact
// accounting"): the market records each trade once, under the account that took it, so a fill of a
// custodial wallet's resting offer by anyone else (the maker's side) is recorded here, at the price
// it executed — the wallet's own balance changes. So are its XRP ⇄ RLUSD trades (RLUSD is no listed
// token). One row per (transaction, account, token), written inside the ledger's database transaction.

export interface Fill {
  account: string;
  currency: string;
  issuer: string;
  quote: 'XRP' | 'RLUSD';
  side: 'BUY' | 'SELL';
  tokenAmount: string;
  quoteAmount: string;
  txIndex: number;
  hash: string;
}

/** The fills of one validated transaction, for every account (the caller keeps the custodial ones). */
function fillsOf(itx: IndexedTx, rlusdIssuer: string | undefined): Fill[] {
  const { tx, meta } = itx;
  if (!canTrade(itx)) return [];
  const rlusdKey = rlusdIssuer ? `${RLUSD_CURRENCY_HEX}|${rlusdIssuer}` : undefined;
  const quoteOf = (key: string): 'XRP' | 'RLUSD' | undefined =>
    key === 'XRP' ? 'XRP' : key === rlusdKey ? 'RLUSD' : undefined;
  // (account, token key, quote) pairs: the owners of offers this transaction consumed…
  const pairs = new Map<string, { account: string; token: string; quote: 'XRP' | 'RLUSD' }>();
  const add = (account: string, token: string, quote: 'XRP' | 'RLUSD') => {
    const [currency] = token.split('|');
    if (token === 'XRP' || isLpCurrency(currency!) || (token === rlusdKey && quote !== 'XRP')) return;
    pairs.set(`${account}|${token}|${quote}`, { account, token, quote });
  };
  for (const { account, gets, pays } of consumedOffers(itx)) {
    if (account === tx.Account) continue;
    const q = quoteOf(pays) === 'XRP' || quoteOf(gets) === 'XRP' ? 'XRP' : (quoteOf(pays) ?? quoteOf(gets));
    if (!q) continue;
    add(account, q === 'XRP' ? (gets === 'XRP' ? pays : gets) : gets === rlusdKey ? pays : gets, q);
  }
  // …and the sender's own XRP ⇄ RLUSD trade (its other trades are the market indexer's rows).
  // (The assets are known without computing any amount: most transactions stop here.)
  const balances = balanceChanges(meta);
  if (rlusdKey) {
    const own = balances
      .assetsOf(tx.Account)
      .map((b) => (b.currency === 'XRP' ? 'XRP' : `${b.currency}|${b.issuer}`));
    if (own.includes(rlusdKey) && own.every((k) => k === 'XRP' || k === rlusdKey))
      add(tx.Account, rlusdKey, 'XRP');
  }
  if (pairs.size === 0) return [];
  // Balance changes per account and asset key, for the accounts of the pairs only.
  const changes = new Map<string, Map<string, Decimal>>();
  for (const { account } of pairs.values()) {
    if (changes.has(account)) continue;
    const mine = new Map<string, Decimal>();
    changes.set(account, mine);
    for (const b of balances.of(account)) {
      const key = b.currency === 'XRP' ? 'XRP' : `${b.currency}|${b.issuer}`;
      const before = mine.get(key);
      mine.set(key, before ? before.plus(b.value) : b.value);
    }
  }
  const fee = dropsToDecimal(String(tx.Fee ?? '0'));
  const out: Fill[] = [];
  for (const p of pairs.values()) {
    const mine = changes.get(p.account);
    if (!mine) continue;
    const quoteKey = p.quote === 'XRP' ? 'XRP' : rlusdKey!;
    const dToken = mine.get(p.token) ?? new Decimal(0);
    // The sender's XRP change includes the network fee: not part of the trade.
    let dQuote = mine.get(quoteKey) ?? new Decimal(0);
    if (p.account === tx.Account && p.quote === 'XRP') dQuote = dQuote.plus(fee);
    let side: 'BUY' | 'SELL';
    if (dToken.gt(0) && dQuote.isNeg()) side = 'BUY';
    else if (dToken.isNeg() && dQuote.gt(0)) side = 'SELL';
    else continue;
    const [currency, issuer] = p.token.split('|') as [string, string];
    out.push({
      account: p.account,
      currency,
      issuer,
      quote: p.quote,
      side,
      tokenAmount: dToken.abs().toFixed(),
      quoteAmount: dQuote.abs().toFixed(),
      txIndex: meta.TransactionIndex,
      hash: itx.hash,
    });
  }
  return out;
}

/** The indexer handler: each validated ledger's fills of custodial user wallets, in its transaction. */
export function positionFillsHandler(
  rlusdIssuer: () => Promise<string | undefined>,
): LedgerHandler<string | undefined> {
  return {
    name: 'position-fills',
    prepare: () => rlusdIssuer(),
    async write(ledger: IndexedLedger, tx: Db, rlusd: string | undefined) {
      const fills = ledger.transactions.flatMap((t) => fillsOf(t, rlusd));
      if (fills.length === 0) return;
      const custodial = await tx
        .select({ address: wallets.address })
        .from(wallets)
        .where(
          and(
            inArray(wallets.address, [...new Set(fills.map((f) => f.account))]),
            eq(wallets.role, 'user'),
            isNull(wallets.archivedAt),
          ),
        );
      const ours = new Set(custodial.map((w) => w.address));
      const rows = fills.filter((f) => ours.has(f.account)).map((f) => ({ ...f, ledgerIndex: ledger.index }));
      if (rows.length) await tx.insert(positionFills).values(rows).onConflictDoNothing();
    },
  };
}

/**
 * One trade of an account in one asset, as the cost basis reads it: the market's shape, with what the
 * trade cost besides its executed amounts when it was made here (issue 39; '0' for a trade made
 * elsewhere, whose fees are not known): the platform fee in the quote asset and the network fees in
 * drops.
 */
export interface PositionTrade extends AccountTrade {
  platformFee: string;
  networkDrops: string;
}

export interface PositionTradeGroup {
  account: string;
  currency: string;
  issuer: string;
  trades: Iterable<PositionTrade>;
  /** The latest ledger among these trades. */
  lastLedger: number;
  /** Some of these trades are RLUSD-quoted (valued at the current XRP/USD price when read). */
  rlusdQuoted: boolean;
  /** Some of these trades' fees may still change (not recorded yet, or a fee still to be paid). */
  unsettled: boolean;
}

/** One account's trades of one token, as the positions query groups them. */
type TradeGroupRow = {
  account: string;
  currency: string;
  issuer: string;
  trades: string;
  last_ledger: number;
  rlusd: boolean;
  unsettled: boolean;
};

/** Reads a group's compact trades: 'BX12.5 3.75 0.028125 24,SR…' (side, quote, amounts, fees). */
function* decodePositionTrades(encoded: string): Generator<PositionTrade> {
  for (const item of encoded.split(',')) {
    const [amount, quoteAmount, platformFee, networkDrops] = item.slice(2).split(' ') as [
      string,
      string,
      string,
      string,
    ];
    yield {
      side: item[0] === 'S' ? 'SELL' : 'BUY',
      quote: item[1] === 'X' ? 'XRP' : 'RLUSD',
      tokenAmount: amount,
      quoteAmount,
      platformFee,
      networkDrops,
    };
  }
}

const truthy = (v: unknown) => v === true || v === 't';

/**
 * Every trade of these accounts (the user's wallets), grouped per account and asset in ledger order: the market
 * indexer's rows (the trades they took, listed tokens) and this module's fills (their resting offers
 * filled by others, their XRP ⇄ RLUSD trades), merged by (ledger, transaction), each with its fees
 * (the trading module's `tradeFees`, by transaction and account). One aggregate pass; each group
 * comes back as one compact string. `after` (account → ledger) keeps only the trades in later
 * ledgers, read as a range of the (account, ledger) indexes: what a checkpoint does not cover.
 */
export async function positionTrades(
  db: Db,
  userId: number,
  accounts: string[],
  after: ReadonlyMap<string, number> = new Map(),
): Promise<PositionTradeGroup[]> {
  if (accounts.length === 0) return [];
  const fees = await tradeFees(db, userId, accounts, after);
  // The fees as a recordset the query joins by (hash|account); exact decimals and drops as text.
  const feeRows = JSON.stringify(
    [...fees].map(([key, f]) => ({
      key,
      platform_fee: f.platformFee,
      network_drops: f.networkDrops.toString(),
      unsettled: !f.settled,
    })),
  );
  // One row per account with the ledger its trades start after (-1: all of them).
  const from = sql.join(
    accounts.map((a) => sql`(${a}::text, ${after.get(a) ?? -1}::integer)`),
    sql`, `,
  );
  // The compact form (decodePositionTrades): side, quote, token amount, quote amount, fees.
  const code = (t: 't' | 'f') =>
    sql.raw(`case when ${t}.side = 'SELL' then 'S' else 'B' end || case when ${t}.quote = 'XRP' then 'X' else 'R' end
          || ${t}.token_amount::text || ' ' || ${t}.quote_amount::text
          || ' ' || coalesce(nf.platform_fee, '0') || ' ' || coalesce(nf.network_drops, '0')`);
  const res = await db.execute<TradeGroupRow>(sql`
    with nf as (
      select * from jsonb_to_recordset(${feeRows}::jsonb)
        as nf(key text, platform_fee text, network_drops text, unsettled boolean)
    )
    select account, currency, issuer,
           string_agg(code, ',' order by ledger_index, tx_index, src, id) as trades,
           max(ledger_index) as last_ledger, bool_or(quote <> 'XRP') as rlusd,
           bool_or(unsettled) as unsettled
      from (
        select t.account, k.currency, k.issuer_address as issuer, t.ledger_index, t.tx_index, 0 as src, t.id,
               t.quote, ${code('t')} as code, coalesce(nf.unsettled, false) as unsettled
          from (values ${from}) a(account, after)
          join ${marketTrades} t on t.account = a.account and t.ledger_index > a.after
          join ${tokens} k on k.id = t.token_id
          left join nf on nf.key = t.hash || '|' || t.account
        union all
        select f.account, f.currency, f.issuer, f.ledger_index, f.tx_index, 1 as src, f.id,
               f.quote, ${code('f')} as code, coalesce(nf.unsettled, false) as unsettled
          from (values ${from}) a(account, after)
          join ${positionFills} f on f.account = a.account and f.ledger_index > a.after
          left join nf on nf.key = f.hash || '|' || f.account
      ) x
     group by account, currency, issuer`);
  return rowsOf<TradeGroupRow>(res).map((g) => ({
    account: g.account,
    currency: g.currency,
    issuer: g.issuer,
    trades: decodePositionTrades(g.trades),
    lastLedger: Number(g.last_ledger),
    rlusdQuoted: truthy(g.rlusd),
    unsettled: truthy(g.unsettled),
  }));
}

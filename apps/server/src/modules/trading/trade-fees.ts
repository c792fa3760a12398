import { sql } from 'drizzle-orm';
import { Decimal } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/results';
import { decodedTx } from '../../ledger/decoded-tx';
import { ledgerSubmissions } from '../../ledger/schema';
import { TRADE_PURPOSES } from './trade-records';
import { tradingTrades } from './schema';

// What each trade made here cost besides its executed amounts (issue 39: positions' profit and loss
// net of fees): the platform fee recorded with the trade, and the network fees of the transactions
// that carried it — the trade's own (or its Batch's, which also carried the fee) and the fee's
// payment. Trades made elsewhere are not here: their fees are not known (docs/positions.md).

export interface TradeFees {
  /** The platform fee, in the trade's quote asset ('0' when none is due or it could not be paid). */
  platformFee: string;
  /** Network fees the wallet paid for the trade and its fee's payment, in drops. */
  networkDrops: bigint;
  /**
   * False while a figure may still change: the trade is validated but not recorded yet, or its fee
   * is still to be paid (its payment's network fee unknown). A reader that keeps figures (positions'
   * checkpoints) must not keep this trade's.
   */
  settled: boolean;
}

/** Fee states whose fee is charged: paid, or due (its job, its intent or the wallet still pays it). */
const CHARGED = new Set(['paid', 'pending', 'owed', 'intent']);
/** Fee states that will not change again. */
const FINAL = new Set(['paid', 'none', 'failed']);

/** The key a trade's fees are found under: the validated transaction's hash and the wallet. */
export const tradeFeeKey = (hash: string, account: string) => `${hash}|${account}`;

/** The network fee a wallet paid for a signed transaction: 0 when a delegate paid it (XLS-75). */
function networkFee(blob: string | null): bigint {
  if (!blob) return 0n;
  const tx = decodedTx(blob) as { Fee?: string; Delegate?: string };
  return tx.Delegate !== undefined ? 0n : BigInt(tx.Fee ?? '0');
}

type FeeRow = {
  hash: string;
  wallet: string;
  fee: string;
  status: string;
  trade_blob: string | null;
  trade_parent: string | null;
  outer_blob: string | null;
  fee_blob: string | null;
  fee_parent: string | null;
};

/**
 * The fees of the user's trades from these wallets in ledgers after `after` (wallet → ledger; -1 or
 * absent: all), read along the trades' (user, time) index and the submissions' (status, account) one,
 * keyed by `tradeFeeKey(transaction hash, wallet)`. A fill of a resting offer is keyed by the
 * transaction that filled it (several of the wallet's offers filled by one transaction add up); its
 * network fee is its fee payment's only (the order's own transaction was earlier, and a trade of its
 * own when it crossed). Trades validated here but not recorded yet come back unsettled, fee 0.
 */
export async function tradeFees(
  db: Db,
  userId: number,
  accounts: string[],
  after: ReadonlyMap<string, number> = new Map(),
): Promise<Map<string, TradeFees>> {
  const out = new Map<string, TradeFees>();
  if (accounts.length === 0) return out;
  const from = sql.join(
    accounts.map((a) => sql`(${a}::text, ${after.get(a) ?? -1}::integer)`),
    sql`, `,
  );
  const [recorded, unrecorded] = await Promise.all([
    db.execute<FeeRow>(sql`
      select tt.hash, tt.wallet_address as wallet, tt.fee::text as fee, tt.fee_status as status,
             s.tx_blob as trade_blob, s.parent_hash as trade_parent, o.tx_blob as outer_blob,
             f.tx_blob as fee_blob, f.parent_hash as fee_parent
        from (values ${from}) a(account, after)
        join ${tradingTrades} tt on tt.user_id = ${userId} and tt.wallet_address = a.account
             and coalesce(tt.ledger_index, 2147483647) > a.after
        left join ${ledgerSubmissions} s on s.hash = tt.hash
        left join ${ledgerSubmissions} o on o.hash = s.parent_hash
        left join ${ledgerSubmissions} f on f.hash = tt.fee_hash and f.status = 'success'`),
    db.execute<{ hash: string; account: string }>(sql`
      select s.hash, s.account
        from (values ${from}) a(account, after)
        join ${ledgerSubmissions} s on s.status = 'success' and s.account = a.account
             and s.ledger_index > a.after and s.purpose in (${sql.join(
               TRADE_PURPOSES.map((p) => sql`${p}`),
               sql`, `,
             )})
       where not exists (select 1 from ${tradingTrades} tt where tt.hash = s.hash)`),
  ]);
  for (const r of rowsOf<FeeRow>(recorded)) {
    const fill = r.hash.startsWith('fill:');
    const key = tradeFeeKey(fill ? r.hash.split(':')[1]! : r.hash, r.wallet);
    // The trade's transaction, or the Batch it went in (whose fee also carried the fee's payment).
    const trade = fill ? 0n : r.trade_parent ? networkFee(r.outer_blob) : networkFee(r.trade_blob);
    const sameBatch = r.fee_parent !== null && r.fee_parent === r.trade_parent;
    const feePayment = sameBatch ? 0n : networkFee(r.fee_blob);
    const before = out.get(key);
    const platformFee = CHARGED.has(r.status) ? new Decimal(r.fee) : new Decimal(0);
    out.set(key, {
      platformFee: before ? platformFee.plus(before.platformFee).toFixed() : platformFee.toFixed(),
      networkDrops: (before?.networkDrops ?? 0n) + trade + feePayment,
      settled: (before?.settled ?? true) && FINAL.has(r.status),
    });
  }
  for (const r of rowsOf<{ hash: string; account: string }>(unrecorded)) {
    const key = tradeFeeKey(r.hash, r.account);
    if (!out.has(key)) out.set(key, { platformFee: '0', networkDrops: 0n, settled: false });
  }
  return out;
}

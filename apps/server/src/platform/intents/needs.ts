import type { Funds } from '../../ledger/funds';

// What an action's funds check needs, as JSON an intent's context can carry: checked when the
// intent is prepared and again, by its finisher's `recheck`, right before the signed blob is sent
// (the wallet's balances may have moved in between).

export interface FundsNeed {
  /** XRP the action spends, in drops (a decimal string). */
  xrpDrops?: string;
  /** Network fees to count (one per transaction). */
  transactions: number;
  /** Ledger objects the action creates (an owner reserve each). */
  newObjects?: number;
  /** Tokens the action spends, with the name people read for each. */
  tokens?: Array<{ currency: string; issuer: string; value: string; name: string }>;
}

/** Refuses (a 400 naming what is missing) when `address` cannot cover `need`. */
export async function requireNeed(funds: Funds, address: string, need: FundsNeed): Promise<void> {
  for (const t of need.tokens ?? [])
    await funds.requireToken(address, { currency: t.currency, issuer: t.issuer }, t.value, t.name);
  await funds.requireXrp(address, {
    ...(need.xrpDrops ? { amount: BigInt(need.xrpDrops) } : {}),
    transactions: need.transactions,
    ...(need.newObjects ? { newObjects: need.newObjects } : {}),
  });
}

import { eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { wallets } from '../../platform/custody-schema';
import { marketHolders } from './schema';

// Accounts that hold a token without being its holders: the platform's own and the bonding curves.

/** Names of the platform's own accounts, as the panel and the dashboard show them. */
const ROLE_LABELS: Record<string, string> = {
  genesis: 'Ledgerpad genesis account',
  rlusd_issuer: 'RLUSD issuer',
  market_maker: 'Ledgerpad market maker',
  fee: 'Ledgerpad fee wallet',
  service: 'Ledgerpad service wallet',
  bonding_curve: 'Bonding curve',
};

/**
 * Accounts Ledgerpad holds for itself (no user owns them) and bonding-curve accounts, by address
 * with the label to show: never counted as holders, never offered Freeze/Authorize.
 */
export async function platformHolders(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .select({ address: wallets.address, role: wallets.role })
    .from(wallets)
    .where(or(isNull(wallets.userId), eq(wallets.role, 'bonding_curve')));
  return new Map(rows.map((r) => [r.address, ROLE_LABELS[r.role] ?? 'Ledgerpad account']));
}

/**
 * ` and market_holders.account not in (…)`: a holder count's condition leaving these accounts out
 * (empty when there are none). The list's Holders column and the same-ticker order count alike.
 */
export function holderNotAmong(accounts: readonly string[]): SQL {
  return accounts.length
    ? sql` and ${marketHolders.account} not in (${sql.join(
        accounts.map((a) => sql`${a}`),
        sql`, `,
      )})`
    : sql``;
}

import { eq, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { wallets } from '../../platform/custody-schema';

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

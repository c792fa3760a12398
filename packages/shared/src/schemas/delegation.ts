import { z } from 'zod';

// Delegated trading of a self-custody wallet (issue 38, docs/self-custody.md "Delegated trading"):
// the wallet signs one DelegateSet that lets the user's Ledgerpad delegate account send OfferCreate,
// OfferCancel and TrustSet on its behalf — never Payment — and one empty DelegateSet to revoke it.

/** The transaction types a wallet delegates to Ledgerpad: trading only, never Payment. */
export const DELEGATED_PERMISSIONS = ['OfferCreate', 'OfferCancel', 'TrustSet'] as const;
export type DelegatedPermission = (typeof DELEGATED_PERMISSIONS)[number];

/** A wallet's delegation as the ledger holds it (its Delegate entry), with the fees it owes. */
export const walletDelegationSchema = z.object({
  /** The user's Ledgerpad delegate account (the Delegate entry's Authorize). */
  delegate: z.string(),
  /** True when the ledger's entry grants every permission trading needs. */
  enabled: z.boolean(),
  /** The permissions the ledger's entry holds (empty: no entry). */
  permissions: z.array(z.string()),
  /** Platform fees of delegated trades not paid yet (decimal strings), by quote currency. */
  fees_owed: z.object({ xrp: z.string(), rlusd: z.string() }),
});
export type WalletDelegation = z.infer<typeof walletDelegationSchema>;

export const DELEGATION_MESSAGES = {
  custodial: 'A custodial wallet needs no delegation: Ledgerpad signs its trades already.',
  notEnabled: 'Delegated trading is not on for this wallet.',
  alreadyEnabled: 'Delegated trading is already on for this wallet.',
  feesOwed: (owed: string) =>
    `This wallet owes ${owed} in platform fees from delegated trades: pay them first (Wallets → Pay fees), then trade through delegation again.`,
  noFeesOwed: 'This wallet owes no platform fees.',
  delegateUnfunded: 'Your Ledgerpad delegate account could not be funded. Please try again later.',
} as const;

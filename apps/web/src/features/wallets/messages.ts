import { WALLET_MESSAGES } from '@ledgerpad/shared';

// The Wallets page's texts: the spec's exact strings (§8) where it has one, ours where it is silent.
export const MESSAGES = {
  ...WALLET_MESSAGES,
  fetchWalletsFailed: 'Failed to fetch wallets.',
  fetchBalancesFailed: 'Failed to fetch updated wallet balances',
  invalidResponse: 'Invalid API response',
  copyAddressFailed: 'Failed to copy address.',
  copySeedFailed: 'Failed to copy the seed. Select it and copy it by hand.',
  copyBalance: 'Copy exact balance',
  balanceCopied: 'Exact balance copied.',
  copyBalanceFailed: 'Failed to copy the balance.',
  setLimitFailed: 'Failed to set trust line limit.',
  renameFailed: 'Failed to rename wallet. Please try again.',
  fundFailed: 'Funding failed. Please try again.',
  empty: 'No wallets yet — create or import one',
} as const;

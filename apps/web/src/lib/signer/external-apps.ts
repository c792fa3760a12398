import type { WalletApp } from '@ledgerpad/shared';

// Which wallet apps the picker offers (a module of its own, so the picker does not load
// xrpl-connect): the ones that work without a service key, and the ones that need one this
// server does not configure yet (Xaman's API key, WalletConnect's project id).

export const READY_APPS: WalletApp[] = ['gemwallet', 'crossmark', 'ledger'];
export const UNCONFIGURED_APPS: WalletApp[] = ['xaman', 'walletconnect'];

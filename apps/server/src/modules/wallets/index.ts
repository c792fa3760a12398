// What the rest of the server uses of the wallets module: a user's wallets, ownership-checked, the
// ledger state of an address (balance, owner count, reserve, trust lines), and a wallet's own trust
// line limit (the dashboard sets it for a holder that is one of the caller's wallets).
import type { Delegations } from './delegation';
import type { WalletService } from './service';

export type WalletsApi = Pick<WalletService, 'owned' | 'list' | 'lines' | 'accountState' | 'reserveDrops'>;
export type { WalletsModule } from './routes';
/** Delegated trading: the delegate that may trade for a self-custody wallet, read from the ledger. */
export type DelegationsApi = Pick<Delegations, 'activeDelegate'>;
export { setTrustlineLimit, type TrustlineLimitDeps } from './trustline-limit';
export { registerWallets } from './routes';

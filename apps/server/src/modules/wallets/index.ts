// What the rest of the server uses of the wallets module: a user's wallets, ownership-checked, and
// the ledger state of an address (balance, owner count, reserve).
import type { WalletService } from './service';

export type WalletsApi = Pick<WalletService, 'owned' | 'accountState' | 'reserveDrops'>;
export type { WalletsModule } from './routes';

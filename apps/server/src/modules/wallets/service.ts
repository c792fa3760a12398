// The Wallets page's service, in parts by what they do: the records (wallet-records.ts: rows), the
// ledger reads (wallet-reads.ts) and the signed actions (wallet-actions.ts), each building on the one
// before. Routes and the module's index.ts reach them all through this class.
import { WalletActions } from './wallet-actions';

export { kindOf, summary, type WalletServiceDeps } from './wallet-records';
export type { TransferSpend } from './wallet-actions';

export class WalletService extends WalletActions {}

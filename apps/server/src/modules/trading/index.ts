// Trading: market quotes and swaps from custodial wallets, and the platform's trading fee.
export { registerTrading } from './routes';
export { TRADING_FEE_JOB } from './trade-records';
export { ledgerAmount, type Asset, type LedgerAmount } from './plan';
export { quoteAssetOf } from './quote-asset';

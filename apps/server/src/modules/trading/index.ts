// Trading: market quotes and swaps from custodial wallets, and the platform's trading fee.
export { registerTrading } from './routes';
export { TRADING_FEE_JOB, userFeePercent } from './trade-records';
export { tradeFees, tradeFeeKey, type TradeFees } from './trade-fees';
export type { FeePaidListener } from './fee-paid';
export type { TradeRow } from './schema';
export { ledgerAmount, type Asset, type LedgerAmount } from './plan';
export { quoteAssetOf } from './quote-asset';

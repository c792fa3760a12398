// Liquidity: AMM deposits, withdrawals and fee votes from custodial wallets, and LP token numbers.
export { registerLiquidity } from './routes';

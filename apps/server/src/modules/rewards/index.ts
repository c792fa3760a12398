// Creator rewards: the totals a creator earned from trading fees, the split that shares them, and the
// claim that pays them out. The fee wallet's payments (who can receive, paying once per intent) are
// shared with the referrals module.
export { createFeeWalletPayments, registerRewards } from './routes';
export { FeeWalletPayments, claimOfRequest, type RewardCurrency } from './fee-wallet-payment';

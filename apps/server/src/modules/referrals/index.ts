// Referrals: each user's code and link, the binding at a referred user's first sign-in, the
// referrer's share of the referred user's paid trading fees, and its claim.
export { createReferralBinding, registerReferrals } from './routes';
export type { ReferralBinding, ReferralsService } from './service';

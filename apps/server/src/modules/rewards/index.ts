// Creator rewards: the totals a creator earned from trading fees and the claim that pays them out.
export { registerRewards } from './routes';
export { REWARD_CLAIM_JOB, RewardsService } from './service';
export { claimIntentKey } from './job';

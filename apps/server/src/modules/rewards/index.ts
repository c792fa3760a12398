// Creator rewards: the totals a creator earned from trading fees and the claim that pays them out.
export { registerRewards } from './routes';

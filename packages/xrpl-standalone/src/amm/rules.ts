// The AMM amendment switches, read from the rules of the ledger being applied (src/core/amendments).
// fixAMMv1_3 (mainnet) rounds every deposit, withdrawal and LP token amount in the pool's favour;
// without it the math is rippled's before that amendment (what xrpl.js 5.0.0's CI runs).
import { rulesEnabled } from '../core/amendments';

export function fixAMMv1_3(): boolean {
  return rulesEnabled('fixAMMv1_3');
}

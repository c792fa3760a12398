// The dev allocation locked on the ledger (issue 28): what other modules use of it.
export { registerVesting, type VestingApi } from './routes';
export { AutoReleaseKeeper } from './keeper';
export {
  ALLOCATION_CLAIM,
  ALLOCATION_INTENT,
  allocationKeyPattern,
  deployWallets,
  devLockOf,
  VestingService,
} from './service';
export { lockedByToken, readEscrows, tokenEscrows } from '../../ledger/escrows';

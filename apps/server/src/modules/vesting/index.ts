// The dev allocation locked on the ledger (issue 28): what other modules use of it.
export { registerVesting } from './routes';
export { devLockOf } from './service';

// The ledger-object IDs the RPC layer needs to walk state, under the names the handlers use; the
// derivations themselves live in the core (rippled's keylet.cpp).
export {
  accountRootKey as accountRootIndex,
  dirPageKey as dirPageIndex,
  ownerDirKey as ownerDirIndex,
  signerListKey as signerListIndex,
} from '../core/keylets';

/**
 * The vault (XLS-65) and lending (XLS-66) transaction types. None is implemented here; rippled keeps
 * them out of permission delegation (Delegation::notDelegable) and out of a Batch
 * (Batch::disabledTxTypes), and so do core/delegation/permissions.ts and core/transactors/batch.ts.
 */
export const VAULT_AND_LENDING_TYPES: readonly string[] = [
  'VaultCreate',
  'VaultSet',
  'VaultDelete',
  'VaultDeposit',
  'VaultWithdraw',
  'VaultClawback',
  'LoanBrokerSet',
  'LoanBrokerDelete',
  'LoanBrokerCoverDeposit',
  'LoanBrokerCoverWithdraw',
  'LoanBrokerCoverClawback',
  'LoanSet',
  'LoanDelete',
  'LoanManage',
  'LoanPay',
];

// TransactionType -> transactor. One line per transaction type.
import { accountDelete } from './account-delete';
import { accountSet } from './account-set';
import { ammBid } from './amm-bid';
import { ammCreate } from './amm-create';
import { ammDelete } from './amm-delete';
import { ammDeposit } from './amm-deposit';
import { ammVote } from './amm-vote';
import { ammWithdraw } from './amm-withdraw';
import { batch } from './batch';
import { checkCancel } from './check-cancel';
import { checkCash } from './check-cash';
import { checkCreate } from './check-create';
import { clawback } from './clawback';
import { delegateSet } from './delegate-set';
import { depositPreauth } from './deposit-preauth';
import { escrowCancel } from './escrow-cancel';
import { escrowCreate } from './escrow-create';
import { escrowFinish } from './escrow-finish';
import { offerCancel } from './offer-cancel';
import { offerCreate } from './offer-create';
import { payment } from './payment';
import { setRegularKey } from './set-regular-key';
import { signerListSet } from './signer-list-set';
import { ticketCreate } from './ticket-create';
import { trustSet } from './trust-set';
import type { Transactor } from './types';

export const TRANSACTORS: Record<string, Transactor> = {
  Payment: payment,
  TrustSet: trustSet,
  AccountSet: accountSet,
  SetRegularKey: setRegularKey,
  TicketCreate: ticketCreate,
  Clawback: clawback,
  AccountDelete: accountDelete,
  SignerListSet: signerListSet,
  DepositPreauth: depositPreauth,
  CheckCreate: checkCreate,
  CheckCash: checkCash,
  CheckCancel: checkCancel,
  DelegateSet: delegateSet,
  EscrowCreate: escrowCreate,
  EscrowFinish: escrowFinish,
  EscrowCancel: escrowCancel,
  OfferCreate: offerCreate,
  OfferCancel: offerCancel,
  AMMCreate: ammCreate,
  AMMDeposit: ammDeposit,
  AMMWithdraw: ammWithdraw,
  AMMVote: ammVote,
  AMMBid: ammBid,
  AMMDelete: ammDelete,
  Batch: batch,
};

/** Lets other modules (e.g. DEX/AMM transactors) register their types without editing this map. */
export function registerTransactor(type: string, t: Transactor): void {
  TRANSACTORS[type] = t;
}

// OfferCancel (rippled CancelOffer.cpp): remove the account's offer with that sequence, if any.
import { readAccount } from '../account';
import type { LedgerEntry } from '../contract';
import { offerKey } from '../keylets';
import type { Ter } from '../results';
import { offerDelete } from '../book/funds';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

export const offerCancel: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    if (tx.OfferSequence === undefined || Number(tx.OfferSequence) === 0) return 'temBAD_SEQUENCE';
    return 'tesSUCCESS';
  },

  preclaim({ tx, account, view }: PreclaimContext): Ter {
    const acct = readAccount(view, account) as LedgerEntry;
    if (Number(acct.Sequence) <= Number(tx.OfferSequence)) return 'temBAD_SEQUENCE';
    return 'tesSUCCESS';
  },

  doApply({ tx, account, view }: ApplyContext): Ter {
    const offer = view.read(offerKey(account, Number(tx.OfferSequence)));
    if (!offer) return 'tesSUCCESS';
    return offerDelete(view, offer);
  },
};

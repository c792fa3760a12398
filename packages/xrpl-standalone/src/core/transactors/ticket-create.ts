// TicketCreate (rippled CreateTicket.cpp): reserve sequence numbers as Ticket objects.
import { accountReserve, readAccount } from '../account';
import type { LedgerEntry } from '../contract';
import { accountRootKey, ownerDirKey, ticketKey } from '../keylets';
import type { Ter } from '../results';
import { dirInsert, u64Json } from '../state/directory';
import { ownerDescribe } from '../trust-lines';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

const MAX_TICKETS = 250;

export const ticketCreate: Transactor = {
  preflight({ tx }: PreflightContext): Ter {
    const n = Number(tx.TicketCount ?? 0);
    if (!Number.isInteger(n) || n < 1 || n > MAX_TICKETS) return 'temINVALID_COUNT';
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, account }: PreclaimContext): Ter {
    const acct = readAccount(view, account);
    if (!acct) return 'terNO_ACCOUNT';
    const cur = Number(acct.TicketCount ?? 0);
    const consumed = tx.TicketSequence !== undefined ? 1 : 0;
    if (cur + Number(tx.TicketCount) - consumed > MAX_TICKETS) return 'tecDIR_FULL';
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account, config, priorBalance }: ApplyContext): Ter {
    const key = accountRootKey(account);
    const count = Number(tx.TicketCount);
    const root = view.read(key) as LedgerEntry;
    if (priorBalance < accountReserve(config, Number(root.OwnerCount ?? 0) + count))
      return 'tecINSUFFICIENT_RESERVE';
    const first = Number(root.Sequence);
    for (let i = 0; i < count; i++) {
      const seq = first + i;
      const index = ticketKey(account, seq);
      const page = dirInsert(view, ownerDirKey(account), index, ownerDescribe(account));
      if (page === undefined) return 'tecDIR_FULL';
      view.insert({
        LedgerEntryType: 'Ticket',
        Flags: 0,
        Account: account,
        TicketSequence: seq,
        OwnerNode: u64Json(page),
        PreviousTxnID: '0'.repeat(64),
        PreviousTxnLgrSeq: 0,
        index,
      });
    }
    const acct = view.peek(key) as LedgerEntry;
    acct.TicketCount = Number(acct.TicketCount ?? 0) + count;
    acct.OwnerCount = Number(acct.OwnerCount ?? 0) + count;
    acct.Sequence = first + count;
    view.update(acct);
    return 'tesSUCCESS';
  },
};

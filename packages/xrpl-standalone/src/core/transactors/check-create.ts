// CheckCreate (rippled CreateCheck.cpp): a deferred payment the destination can cash for up to
// SendMax (XRP or a token) until Expiration. The Check is one owner reserve on its writer, keyed by
// the writer and the Sequence (or Ticket) the transaction used, and listed in the writer's and the
// destination's directories. No funds move and none are checked until it is cashed.
import { accountReserve, adjustOwnerCount, readAccount } from '../account';
import { parseAmount } from '../amount/amount';
import type { JsonObject, LedgerEntry } from '../contract';
import { checkKey, ownerDirKey } from '../keylets';
import { LSF, hasFlag } from '../ledger-flags';
import type { Ter } from '../results';
import { dirInsert, u64Json } from '../state/directory';
import { isHigh, ownerDescribe, readLine } from '../trust-lines';
import { checkAmountShape, hasExpired } from './check-common';
import { isMptAmount } from './escrow-common';
import type { ApplyContext, PreclaimContext, PreflightContext, Transactor } from './types';

export const checkCreate: Transactor = {
  preflight({ tx, rules }: PreflightContext): Ter {
    // MPT checks need MPTokensV2 (and MPT issuances, which this ledger does not have).
    if (isMptAmount(tx.SendMax)) return rules.enabled('MPTokensV2') ? 'tesSUCCESS' : 'temDISABLED';
    if (tx.Account === tx.Destination) return 'temREDUNDANT';
    const shape = checkAmountShape(parseAmount(tx.SendMax));
    if (shape !== 'tesSUCCESS') return shape;
    if (tx.Expiration !== undefined && Number(tx.Expiration) === 0) return 'temBAD_EXPIRATION';
    return 'tesSUCCESS';
  },

  preclaim({ tx, view, account, parentCloseTime }: PreclaimContext): Ter {
    const dest = tx.Destination as string;
    const sled = readAccount(view, dest);
    if (!sled) return 'tecNO_DST';
    if (hasFlag(sled.Flags, LSF.disallowIncomingCheck)) return 'tecNO_PERMISSION';
    // A pseudo-account (an AMM's) can never cash a check.
    if (sled.AMMID !== undefined) return 'tecNO_PERMISSION';
    if (hasFlag(sled.Flags, LSF.requireDestTag) && tx.DestinationTag === undefined)
      return 'tecDST_TAG_NEEDED';
    if (isMptAmount(tx.SendMax)) return 'tecOBJECT_NOT_FOUND';
    const sendMax = parseAmount(tx.SendMax);
    if (sendMax && sendMax.kind === 'iou') {
      const { issuer, currency } = sendMax;
      if (hasFlag(readAccount(view, issuer)?.Flags, LSF.globalFreeze)) return 'tecFROZEN';
      // The writer's own line may not be frozen by the issuer (no line at all is fine)...
      if (issuer !== account) {
        const line = readLine(view, account, issuer, currency);
        if (line && hasFlag(line.Flags, isHigh(issuer, account) ? LSF.highFreeze : LSF.lowFreeze))
          return 'tecFROZEN';
      }
      // ...nor may the destination have frozen its line to the issuer.
      if (issuer !== dest) {
        const line = readLine(view, issuer, dest, currency);
        if (line && hasFlag(line.Flags, isHigh(dest, issuer) ? LSF.highFreeze : LSF.lowFreeze))
          return 'tecFROZEN';
      }
    }
    if (hasExpired(parentCloseTime ?? 0, tx.Expiration)) return 'tecEXPIRED';
    return 'tesSUCCESS';
  },

  doApply({ tx, view, account, config, priorBalance }: ApplyContext): Ter {
    const owner = readAccount(view, account) as LedgerEntry;
    // The reserve is checked against the balance before the fee: the fee may dip into it.
    if (priorBalance < accountReserve(config, Number(owner.OwnerCount ?? 0) + 1))
      return 'tecINSUFFICIENT_RESERVE';
    const sequence = Number(tx.TicketSequence ?? tx.Sequence);
    const index = checkKey(account, sequence);
    const dest = tx.Destination as string;
    const check: JsonObject = {
      LedgerEntryType: 'Check',
      Flags: 0,
      Account: account,
      Destination: dest,
      Sequence: sequence,
      SendMax: tx.SendMax,
    };
    if (tx.SourceTag !== undefined) check.SourceTag = tx.SourceTag;
    if (tx.DestinationTag !== undefined) check.DestinationTag = tx.DestinationTag;
    if (tx.InvoiceID !== undefined) check.InvoiceID = tx.InvoiceID;
    if (tx.Expiration !== undefined) check.Expiration = tx.Expiration;
    const destPage = dirInsert(view, ownerDirKey(dest), index, ownerDescribe(dest));
    if (destPage === undefined) return 'tecDIR_FULL';
    check.DestinationNode = u64Json(destPage);
    const ownerPage = dirInsert(view, ownerDirKey(account), index, ownerDescribe(account));
    if (ownerPage === undefined) return 'tecDIR_FULL';
    check.OwnerNode = u64Json(ownerPage);
    check.PreviousTxnID = '0'.repeat(64);
    check.PreviousTxnLgrSeq = 0;
    view.insert({ ...check, index } as LedgerEntry);
    adjustOwnerCount(view, account, 1);
    return 'tesSUCCESS';
  },
};

import { describe, expect, it } from 'vitest';
import { rippleTime } from '@ledgerpad/shared';
import { escrowIssuersTouched, summarize } from '../../src/modules/market/escrow-locks';
import type { IndexedLedger } from '../../src/platform/indexer/follower';
import type { LedgerEscrow } from '../../src/ledger/escrows';

// The list mark's two rules, on their own: which ledgers make an issuer be read again, and the
// summary of a token's escrows (figures by hand).

const ISSUER = 'rIssuerIssuerIssuerIssuerIss';
const escrow = (
  amount: string,
  finishAfter: number | null,
  cancelAfter: number | null = null,
): LedgerEscrow => ({
  index: 'A',
  owner: 'rOwner',
  destination: 'rOwner',
  currency: 'MRK',
  issuer: ISSUER,
  amount,
  finishAfter,
  cancelAfter,
  previousTxnId: 'H',
});

describe('the list mark rules', () => {
  it('reads an issuer again only for a created or deleted escrow of its token', () => {
    const node = (kind: string, fields: object) => ({ [kind]: { LedgerEntryType: 'Escrow', ...fields } });
    const ledger = {
      index: 5,
      closeTime: 0,
      transactions: [
        {
          hash: 'X',
          tx: { TransactionType: 'EscrowCreate', Account: 'rA' },
          meta: {
            AffectedNodes: [
              node('CreatedNode', { NewFields: { Amount: { currency: 'MRK', issuer: ISSUER, value: '5' } } }),
              // An XRP escrow is no token's lock.
              node('CreatedNode', { NewFields: { Amount: '1000000' } }),
            ],
          },
        },
        {
          hash: 'Y',
          tx: { TransactionType: 'EscrowFinish', Account: 'rB' },
          meta: {
            AffectedNodes: [
              node('DeletedNode', {
                FinalFields: { Amount: { currency: 'OTH', issuer: 'rOther', value: '1' } },
              }),
              // A modified escrow (its directory pages) changes no amount.
              node('ModifiedNode', {
                FinalFields: { Amount: { currency: 'Z', issuer: 'rModified', value: '1' } },
              }),
            ],
          },
        },
      ],
    } as unknown as IndexedLedger;
    expect([...escrowIssuersTouched(ledger)].sort()).toEqual([ISSUER, 'rOther'].sort());
  });

  it('sums the escrows as a share of the supply, rounded down, with the first and last unlock', () => {
    // 75,000 + 12,345.678 + 1 = 87,346.678 of 1,000,000 = 8.7346678% → 8.73.
    const lock = summarize(
      [escrow('75000', 900), escrow('12345.678', 100), escrow('1', null, 500)],
      '1000000',
    );
    expect(lock).toEqual({
      percent: '8.73',
      amount: '87346.678',
      escrows: 3,
      firstUnlock: rippleTime.toIso(100),
      until: rippleTime.toIso(900),
    });
    // 1 of 1,000,000 = 0.0001%: '0', which the mark shows as '<0.01% locked'.
    expect(summarize([escrow('1', null)], '1000000')).toEqual({
      percent: '0',
      amount: '1',
      escrows: 1,
      firstUnlock: null,
      until: null,
    });
    expect(summarize([], '1000000')).toBeUndefined();
  });
});

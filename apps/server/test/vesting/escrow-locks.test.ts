import { describe, expect, it } from 'vitest';
import { rippleTime } from '@ledgerpad/shared';
import { devUnlocked, escrowIssuersTouched, summarize } from '../../src/modules/market/escrow-locks';
import type { IndexedLedger } from '../../src/platform/indexer/follower';
import type { LedgerEscrow } from '../../src/ledger/escrows';

// The list mark's two rules, on their own: which ledgers make an issuer be read again, and the
// summary of a token's escrows (figures by hand).

const ISSUER = 'rIssuerIssuerIssuerIssuerIss';
const escrow = (
  amount: string,
  finishAfter: number | null,
  cancelAfter: number | null = null,
  condition: string | null = null,
  owner = 'rOwner',
): LedgerEscrow => ({
  index: 'A',
  owner,
  destination: owner,
  currency: 'MRK',
  issuer: ISSUER,
  amount,
  finishAfter,
  cancelAfter,
  condition,
  previousTxnId: 'H',
});
/** A crypto-condition (PREIMAGE-SHA-256 of 32 zero bytes), as the ledger stores it. */
const CONDITION = 'A0258020' + '66687AADF862BD776C8FC18B8E9F8E20089714856EE233B3902A591D0D5F2925' + '810120';

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

  it('sums the escrows that lock as a share of the supply, rounded down, with the first and last unlock', () => {
    // At close time 50: 75,000 + 12,345.678 lock (FinishAfter 900 and 100 still ahead) = 87,345.678
    // of 1,000,000 = 8.7345678% → 8.73. The escrow with only a CancelAfter locks nothing (it can be
    // finished at once), nor the conditional one, nor the one whose FinishAfter (40) has passed.
    const lock = summarize(
      [
        escrow('75000', 900),
        escrow('12345.678', 100),
        escrow('1', null, 500),
        escrow('100000', null, 999_999, CONDITION),
        escrow('50000', 40),
      ],
      '1000000',
      50,
    );
    expect(lock).toEqual({
      percent: '8.73',
      amount: '87345.678',
      escrows: 2,
      firstUnlock: rippleTime.toIso(100),
      until: rippleTime.toIso(900),
    });
    // 1 of 1,000,000 = 0.0001%: '0', which the mark shows as '<0.01% locked'.
    expect(summarize([escrow('1', 60)], '1000000', 50)).toEqual({
      percent: '0',
      amount: '1',
      escrows: 1,
      firstUnlock: rippleTime.toIso(60),
      until: rippleTime.toIso(60),
    });
    // Only escrows that lock nothing: no mark at all (issue 35: a conditional escrow turned it green).
    expect(
      summarize([escrow('100000', null, 999_999, CONDITION), escrow('1', null, 500)], '1000000', 50),
    ).toBeUndefined();
    expect(summarize([], '1000000', 50)).toBeUndefined();
  });

  it('keeps the unlocked mark until the whole dev allocation is locked, with the share that is', () => {
    const row = { source: 'deploy', devAllocation: '10', supply: '1000000' };
    const dev = 'rDev';
    // Allocation 10% of 1,000,000 = 100,000. One token for ten years: 1 / 100,000 = 0.001% → '0' (2 decimals, down).
    expect(devUnlocked(row, dev, [escrow('1', 10_000, null, null, dev)], 50)).toEqual({
      percent: '10',
      lockedPercent: '0',
    });
    // 25,000 locked: 25% of the allocation.
    expect(devUnlocked(row, dev, [escrow('25000', 10_000, null, null, dev)], 50)).toEqual({
      percent: '10',
      lockedPercent: '25',
    });
    // All of it in a conditional escrow: nothing locked.
    expect(devUnlocked(row, dev, [escrow('100000', null, 999_999, CONDITION, dev)], 50)).toEqual({
      percent: '10',
      lockedPercent: '0',
    });
    // All of it locked, in two tranches: no mark. Someone else's escrow does not count for the dev.
    expect(
      devUnlocked(
        row,
        dev,
        [escrow('60000', 100, null, null, dev), escrow('40000', 200, null, null, dev)],
        50,
      ),
    ).toBeUndefined();
    expect(devUnlocked(row, dev, [escrow('100000', 100, null, null, 'rOther')], 50)).toEqual({
      percent: '10',
      lockedPercent: '0',
    });
    // Due (the ledger passed its FinishAfter): unlocked again.
    expect(devUnlocked(row, dev, [escrow('100000', 40, null, null, dev)], 50)).toEqual({
      percent: '10',
      lockedPercent: '0',
    });
  });
});

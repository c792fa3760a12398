import { describe, expect, it } from 'vitest';
import { planXrpRefund } from '../../src/modules/admin/refunds';
import { LSF } from '../../src/ledger/account-root';

// The choice between an AccountDelete and a Payment for an XRP refund, on rippled's rules: the
// account's Sequence at least 255 behind the ledger the transaction applies in (DeleteAccount.cpp:
// tecTOO_SOON while `Sequence + 255 > view.seq()`), nothing in its owner directory that blocks
// deletion, and a destination that exists (AccountDelete never creates one) and takes the XRP.

const reserves = { baseFee: 10n, reserveBase: 1_000_000n, reserveIncrement: 200_000n };
const account = { Balance: '5000000', OwnerCount: 0, Sequence: 1000 };
const ok = { account, validatedIndex: 1255, blockers: 0, destinationFlags: 0, reserves };

describe('planXrpRefund', () => {
  it('deletes the account when rippled would: all but the one-owner-reserve fee', () => {
    // 5 XRP − 0.2 XRP fee; a payment would leave the 1 XRP base reserve and spend two base fees.
    expect(planXrpRefund(ok)).toEqual({ method: 'account-delete', drops: 5_000_000n - 200_000n });
  });

  it('pays instead while the sequence is less than 256 ledgers old (validated = Sequence + 254)', () => {
    const plan = planXrpRefund({ ...ok, validatedIndex: 1254 });
    // The open ledger would be 1255 = Sequence + 255 at the earliest, which rippled allows; the
    // validated index is used so that one more transaction of the account in between cannot push it
    // back to tecTOO_SOON, at the cost of one ledger.
    expect(plan).toMatchObject({ method: 'payment', drops: 5_000_000n - 1_000_000n - 20n });
  });

  it('pays with owner reserves kept when an object blocks deletion (a trust line)', () => {
    const plan = planXrpRefund({ ...ok, account: { ...account, OwnerCount: 1 }, blockers: 1 });
    expect(plan).toMatchObject({ method: 'payment', drops: 5_000_000n - 1_000_000n - 200_000n - 20n });
  });

  it('pays when the destination has no account, or wants a tag or deposit authorization', () => {
    expect(planXrpRefund({ ...ok, destinationFlags: undefined }).method).toBe('payment');
    expect(planXrpRefund({ ...ok, destinationFlags: LSF.requireDestTag }).method).toBe('payment');
    expect(planXrpRefund({ ...ok, destinationFlags: LSF.depositAuth }).method).toBe('payment');
  });

  it('pays when reserves are such that deleting returns less (an owner reserve above the base)', () => {
    const odd = { baseFee: 10n, reserveBase: 100_000n, reserveIncrement: 2_000_000n };
    // Delete: 5 − 2 = 3 XRP; payment: 5 − 0.1 − 0.00002 XRP.
    expect(planXrpRefund({ ...ok, reserves: odd })).toEqual({
      method: 'payment',
      drops: 5_000_000n - 100_000n - 20n,
      reason: 'a payment returns more',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { Harness } from './helpers';
import { depositPreauthKey } from '../../src/core/keylets';

describe('DepositAuth and DepositPreauth', () => {
  it('only lets preauthorized senders pay an account with DepositAuth', () => {
    const h = new Harness();
    const dst = h.wallet(100_000_000n);
    const sender = h.wallet();
    const pay = { TransactionType: 'Payment', Destination: dst.classicAddress, Amount: '5000000' };
    h.expect(dst, { TransactionType: 'AccountSet', SetFlag: 9 }, 'tesSUCCESS');
    h.expect(sender, pay, 'tecNO_PERMISSION');
    expect(
      h.node.submit(h.signRaw(dst, { TransactionType: 'DepositPreauth', Authorize: dst.classicAddress }))
        .engine_result,
    ).toBe('temCANNOT_PREAUTH_SELF');
    h.expect(dst, { TransactionType: 'DepositPreauth', Unauthorize: sender.classicAddress }, 'tecNO_ENTRY');
    h.expect(dst, { TransactionType: 'DepositPreauth', Authorize: sender.classicAddress }, 'tesSUCCESS');
    h.expect(dst, { TransactionType: 'DepositPreauth', Authorize: sender.classicAddress }, 'tecDUPLICATE');
    expect(h.node.current().read(depositPreauthKey(dst.classicAddress, sender.classicAddress))).toMatchObject(
      {
        Account: dst.classicAddress,
        Authorize: sender.classicAddress,
      },
    );
    expect(h.account(dst.classicAddress)!.OwnerCount).toBe(1);
    h.expect(sender, pay, 'tesSUCCESS');
    h.expect(dst, { TransactionType: 'DepositPreauth', Unauthorize: sender.classicAddress }, 'tesSUCCESS');
    expect(h.account(dst.classicAddress)!.OwnerCount).toBe(0);
    h.expect(sender, pay, 'tecNO_PERMISSION');
  });
});

import { it, expect } from 'vitest';
import { signMultiBatch } from 'xrpl';
import { expectResult, funded, xrpBalance } from '../dex/helpers';
import {
  MODE,
  batchOf,
  innerPayment,
  innerHash,
  lookup,
  sequenceOf,
  startBatchLedger,
  submitSigned,
} from './helpers';

it('a delegated inner transaction: the delegate signs the BatchSigner, the account pays', async () => {
  const { dex, alice, bob, carol } = await startBatchLedger();
  const dave = await funded(dex, 100);
  await expectResult(dex, alice, {
    TransactionType: 'DelegateSet',
    Authorize: dave.address,
    Permissions: [{ Permission: { PermissionValue: 'Payment' } }],
  });
  const seq = await sequenceOf(dex, bob.address);
  const aSeq = await sequenceOf(dex, alice.address);
  const before = { alice: await xrpBalance(dex, alice.address), dave: await xrpBalance(dex, dave.address) };
  const inners = [
    innerPayment(bob, carol.address, 1000000n, seq + 1),
    innerPayment(alice, carol.address, 2000000n, aSeq, { Delegate: dave.address }),
  ];
  const outer = batchOf(bob, seq, MODE.allOrNothing, inners, 1000n);
  const noSigner = await submitSigned(dex, bob, outer);
  expect(noSigner.result).toBe('temBAD_SIGNER');
  signMultiBatch(dave, outer as never);
  expect((await submitSigned(dex, bob, outer)).result).toBe('tesSUCCESS');
  expect(await xrpBalance(dex, alice.address)).toBe(before.alice - 2000000n);
  expect(await xrpBalance(dex, dave.address)).toBe(before.dave);
  expect((await lookup(dex, innerHash(inners[1]!))).result).toBe('tesSUCCESS');
  // Without the permission: the inner fails terNO_DELEGATE_PERMISSION → AllOrNothing rolls back.
  const seq2 = await sequenceOf(dex, bob.address);
  const aSeq2 = await sequenceOf(dex, alice.address);
  const inners2 = [
    innerPayment(bob, carol.address, 1000000n, seq2 + 1),
    innerPayment(alice, carol.address, 2000000n, aSeq2, { Delegate: carol.address }),
  ];
  const outer2 = batchOf(bob, seq2, MODE.allOrNothing, inners2, 1000n);
  signMultiBatch(carol, outer2 as never);
  expect((await submitSigned(dex, bob, outer2)).result).toBe('tesSUCCESS');
  expect((await lookup(dex, innerHash(inners2[1]!))).found).toBe(false);
  expect((await lookup(dex, innerHash(inners2[0]!))).found).toBe(false);
  await dex.close();
});

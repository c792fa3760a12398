// Batch (XLS-56) applied: the outer fee rule, the four modes' balances and sequences, inner
// transactions recorded as their own (ParentBatchID, TransactionIndex, tx, account_tx, streams),
// and what a failed AllOrNothing batch leaves. Every figure below is worked out from the rules:
// base fee 10 drops; a Batch must pay 2 × 10 + each inner's own fee (10 for a payment) + 10 per
// BatchSigner signature (rippled's Batch::calculateBaseFee); inner transactions pay nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from 'ripple-binary-codec';
import { Wallet, combineBatchSigners, signMultiBatch } from 'xrpl';
import { funded, xrpBalance, type Dex } from '../dex/helpers';
import { startTestLedger } from '../support/ledger';
import {
  MODE,
  TF_INNER_BATCH_TXN,
  batchOf,
  innerHash,
  innerPayment,
  ledgerTransactions,
  lookup,
  sequenceOf,
  startBatchLedger,
  submitSigned,
} from './helpers';

const BASE = 10n;
const XRP = 1_000_000n;
/** The fee of a single-account batch of `n` inner payments: 2 base fees + n payments' base fees. */
const feeOf = (n: number, signatures = 0): bigint => 2n * BASE + BigInt(n) * BASE + BigInt(signatures) * BASE;

let dex: Dex;
let alice: Wallet;
let bob: Wallet;
let carol: Wallet;

beforeAll(async () => {
  ({ dex, alice, bob, carol } = await startBatchLedger());
});
afterAll(async () => dex.close());

const run = (signer: Wallet, tx: Record<string, unknown>) => submitSigned(dex, signer, tx);

describe('the outer fee', () => {
  it('is 2 base fees plus every inner fee: one drop less is telINSUF_FEE_P, xrpl.js autofills it', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const inners = [
      innerPayment(alice, carol.address, XRP, seq + 1),
      innerPayment(alice, carol.address, XRP, seq + 2),
    ];
    // 2 × 10 + 10 + 10 = 40 drops.
    expect(feeOf(2)).toBe(40n);
    const short = await run(alice, batchOf(alice, seq, MODE.independent, inners, feeOf(2) - 1n));
    expect(short.result).toBe('telINSUF_FEE_P');
    const autofilled = await dex.client.autofill({
      TransactionType: 'Batch',
      Account: alice.address,
      Flags: MODE.independent,
      RawTransactions: inners.map((t) => ({ RawTransaction: t })),
    } as never);
    // xrpl.js asks 40 × its feeCushion (1.2 by default) = 48 drops.
    expect(dex.client.feeCushion).toBe(1.2);
    expect((autofilled as { Fee: string }).Fee).toBe('48');
    const paid = await run(alice, batchOf(alice, seq, MODE.independent, inners, feeOf(2)));
    expect(paid.result).toBe('tesSUCCESS');
  });
});

describe('AllOrNothing', () => {
  it('applies every inner after the outer: balances, sequences, ParentBatchID and TransactionIndex', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const before = {
      alice: await xrpBalance(dex, alice.address),
      carol: await xrpBalance(dex, carol.address),
    };
    const inners = [
      innerPayment(alice, carol.address, 3n * XRP, seq + 1),
      innerPayment(alice, carol.address, 4n * XRP, seq + 2),
    ];
    const { result, hash } = await run(alice, batchOf(alice, seq, MODE.allOrNothing, inners, feeOf(2)));
    expect(result).toBe('tesSUCCESS');
    // Alice pays the 40-drop fee and 3 + 4 XRP; carol receives 7 XRP.
    expect(await xrpBalance(dex, alice.address)).toBe(before.alice - 40n - 7n * XRP);
    expect(await xrpBalance(dex, carol.address)).toBe(before.carol + 7n * XRP);
    // The outer used seq, its inner payments seq+1 and seq+2: the next is seq+3.
    expect(await sequenceOf(dex, alice.address)).toBe(seq + 3);
    const txs = await ledgerTransactions(dex);
    expect(txs.map((t) => [t.type, t.result, t.index, t.parent])).toEqual([
      ['Batch', 'tesSUCCESS', 0, undefined],
      ['Payment', 'tesSUCCESS', 1, hash],
      ['Payment', 'tesSUCCESS', 2, hash],
    ]);
    expect(txs.slice(1).map((t) => t.hash)).toEqual(inners.map(innerHash));
    // Each inner is a transaction of its own: `tx` finds it, with its own metadata.
    const second = await lookup(dex, innerHash(inners[1] as Record<string, unknown>));
    expect(second).toMatchObject({ found: true, result: 'tesSUCCESS' });
    expect(second.meta).toMatchObject({
      ParentBatchID: hash,
      TransactionIndex: 2,
      delivered_amount: '4000000',
    });
    expect(second.txJson).toMatchObject({
      Fee: '0',
      SigningPubKey: '',
      Sequence: seq + 2,
      DeliverMax: '4000000',
    });
    // The outer's own metadata holds only its fee and sequence: alice's root, Sequence seq → seq+1.
    const outer = await lookup(dex, hash);
    const nodes =
      (outer.meta?.AffectedNodes as Array<{ ModifiedNode?: { PreviousFields?: Record<string, unknown> } }>) ??
      [];
    expect(nodes).toHaveLength(1);
    expect(nodes[0]?.ModifiedNode?.PreviousFields).toMatchObject({ Sequence: seq });
    // account_tx of carol lists both inner payments (and not the outer, which never touched her).
    const atx = await dex.client.request({ command: 'account_tx', account: carol.address, limit: 2 });
    expect(atx.result.transactions.map((t) => t.hash)).toEqual(inners.map(innerHash).reverse());
  });

  it('rolls back every inner when one fails: the outer stays, with its fee charged and its sequence used', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const before = {
      alice: await xrpBalance(dex, alice.address),
      carol: await xrpBalance(dex, carol.address),
    };
    const nobody = Wallet.generate().address;
    const inners = [
      innerPayment(alice, carol.address, 5n * XRP, seq + 1),
      // 0.5 XRP cannot create an account (reserve 1 XRP): tecNO_DST_INSUF_XRP.
      innerPayment(alice, nobody, XRP / 2n, seq + 2),
    ];
    const { result, hash } = await run(alice, batchOf(alice, seq, MODE.allOrNothing, inners, feeOf(2)));
    expect(result).toBe('tesSUCCESS');
    // Only the 40-drop fee left alice; carol's 5 XRP never arrived.
    expect(await xrpBalance(dex, alice.address)).toBe(before.alice - 40n);
    expect(await xrpBalance(dex, carol.address)).toBe(before.carol);
    // Only the outer's sequence is used: the inner sequences are free again.
    expect(await sequenceOf(dex, alice.address)).toBe(seq + 1);
    expect((await ledgerTransactions(dex)).map((t) => [t.type, t.hash])).toEqual([['Batch', hash]]);
    for (const inner of inners) expect((await lookup(dex, innerHash(inner))).found).toBe(false);
  });
});

describe('the other modes', () => {
  it('OnlyOne stops at the first success; a tec before it is recorded and uses its sequence', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const before = {
      alice: await xrpBalance(dex, alice.address),
      carol: await xrpBalance(dex, carol.address),
    };
    const balance = before.alice;
    const inners = [
      // More than alice has: tecUNFUNDED_PAYMENT.
      innerPayment(alice, carol.address, balance, seq + 1),
      innerPayment(alice, carol.address, 2n * XRP, seq + 2),
      innerPayment(alice, carol.address, 3n * XRP, seq + 3),
    ];
    const { result, hash } = await run(alice, batchOf(alice, seq, MODE.onlyOne, inners, feeOf(3)));
    expect(result).toBe('tesSUCCESS');
    // 2 × 10 + 3 × 10 = 50 drops, and only the second payment's 2 XRP.
    expect(await xrpBalance(dex, alice.address)).toBe(before.alice - 50n - 2n * XRP);
    expect(await xrpBalance(dex, carol.address)).toBe(before.carol + 2n * XRP);
    // seq (outer), seq+1 (the tec) and seq+2 (the success) are used; seq+3 never ran.
    expect(await sequenceOf(dex, alice.address)).toBe(seq + 3);
    expect((await ledgerTransactions(dex)).map((t) => [t.type, t.result, t.parent])).toEqual([
      ['Batch', 'tesSUCCESS', undefined],
      ['Payment', 'tecUNFUNDED_PAYMENT', hash],
      ['Payment', 'tesSUCCESS', hash],
    ]);
    expect((await lookup(dex, innerHash(inners[2] as Record<string, unknown>))).found).toBe(false);
  });

  it('UntilFailure applies up to and including the first failure', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const before = await xrpBalance(dex, alice.address);
    const inners = [
      innerPayment(alice, carol.address, XRP, seq + 1),
      innerPayment(alice, Wallet.generate().address, XRP / 2n, seq + 2), // tecNO_DST_INSUF_XRP
      innerPayment(alice, carol.address, XRP, seq + 3),
    ];
    const { result } = await run(alice, batchOf(alice, seq, MODE.untilFailure, inners, feeOf(3)));
    expect(result).toBe('tesSUCCESS');
    // 50 drops and the first payment's 1 XRP; seq..seq+2 used.
    expect(await xrpBalance(dex, alice.address)).toBe(before - 50n - XRP);
    expect(await sequenceOf(dex, alice.address)).toBe(seq + 3);
    expect((await ledgerTransactions(dex)).map((t) => t.result)).toEqual([
      'tesSUCCESS',
      'tesSUCCESS',
      'tecNO_DST_INSUF_XRP',
    ]);
  });

  it('Independent applies every inner whatever the others did; a ter inner is skipped, not kept', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const bobSeq = await sequenceOf(dex, bob.address);
    const before = await xrpBalance(dex, alice.address);
    const inners = [
      innerPayment(alice, carol.address, XRP, seq + 1),
      innerPayment(alice, Wallet.generate().address, XRP / 2n, seq + 2), // tecNO_DST_INSUF_XRP
      // A sequence bob has not reached: terPRE_SEQ, not applied, not recorded, not retried.
      innerPayment(bob, carol.address, XRP, bobSeq + 5),
      innerPayment(alice, carol.address, 2n * XRP, seq + 3),
    ];
    const unsignedBob = batchOf(alice, seq, MODE.independent, inners, feeOf(4, 1));
    signMultiBatch(bob, unsignedBob as never);
    const { result, hash } = await run(alice, unsignedBob);
    expect(result).toBe('tesSUCCESS');
    // 2 × 10 + 4 × 10 + 1 signature × 10 = 70 drops; 1 + 2 XRP paid.
    expect(await xrpBalance(dex, alice.address)).toBe(before - 70n - 3n * XRP);
    expect(await sequenceOf(dex, alice.address)).toBe(seq + 4);
    expect(await sequenceOf(dex, bob.address)).toBe(bobSeq);
    expect((await ledgerTransactions(dex)).map((t) => [t.result, t.parent])).toEqual([
      ['tesSUCCESS', undefined],
      ['tesSUCCESS', hash],
      ['tecNO_DST_INSUF_XRP', hash],
      ['tesSUCCESS', hash],
    ]);
    dex.ledger.closeLedger();
    expect((await lookup(dex, innerHash(inners[2] as Record<string, unknown>))).found).toBe(false);
  });
});

describe('xrpl.js 5', () => {
  it('autofill, signMultiBatch by each other account, combineBatchSigners, sign and submit', async () => {
    const aliceSeq = await sequenceOf(dex, alice.address);
    const bobSeq = await sequenceOf(dex, bob.address);
    const carolSeq = await sequenceOf(dex, carol.address);
    const before = {
      alice: await xrpBalance(dex, alice.address),
      bob: await xrpBalance(dex, bob.address),
      carol: await xrpBalance(dex, carol.address),
    };
    const payment = (from: Wallet, to: Wallet, drops: bigint) => ({
      RawTransaction: {
        TransactionType: 'Payment',
        Flags: TF_INNER_BATCH_TXN,
        Account: from.address,
        Destination: to.address,
        Amount: drops.toString(),
      },
    });
    // A three-way swap: alice → bob 1 XRP, bob → carol 2 XRP, carol → alice 3 XRP.
    const batch = await dex.client.autofill(
      {
        TransactionType: 'Batch',
        Account: alice.address,
        Flags: MODE.allOrNothing,
        RawTransactions: [
          payment(alice, bob, XRP),
          payment(bob, carol, 2n * XRP),
          payment(carol, alice, 3n * XRP),
        ],
      } as never,
      2,
    );
    const inners = (
      batch as unknown as { RawTransactions: Array<{ RawTransaction: Record<string, unknown> }> }
    ).RawTransactions;
    // autofill: the outer takes alice's next sequence, her inner the one after; bob and carol theirs.
    expect(inners.map((r) => r.RawTransaction.Sequence)).toEqual([aliceSeq + 1, bobSeq, carolSeq]);
    // (2 + 3 payments + 2 BatchSigners) × 10 = 70 drops, × xrpl.js's 1.2 cushion = 84.
    expect((batch as unknown as { Fee: string }).Fee).toBe('84');
    const byBob = structuredClone(batch);
    const byCarol = structuredClone(batch);
    signMultiBatch(bob, byBob);
    signMultiBatch(carol, byCarol);
    const combined = combineBatchSigners([byBob, byCarol]);
    const signed = alice.sign(decode(combined) as never);
    const reply = await dex.client.request({ command: 'submit', tx_blob: signed.tx_blob });
    expect(reply.result.engine_result).toBe('tesSUCCESS');
    dex.ledger.closeLedger();
    // Alice: −84 fee −1 +3; bob: +1 −2; carol: +2 −3; no fee for bob or carol.
    expect(await xrpBalance(dex, alice.address)).toBe(before.alice - 84n + 2n * XRP);
    expect(await xrpBalance(dex, bob.address)).toBe(before.bob - XRP);
    expect(await xrpBalance(dex, carol.address)).toBe(before.carol - XRP);
    expect(await sequenceOf(dex, alice.address)).toBe(aliceSeq + 2);
    expect(await sequenceOf(dex, bob.address)).toBe(bobSeq + 1);
    expect(await sequenceOf(dex, carol.address)).toBe(carolSeq + 1);
    for (const r of inners) {
      expect(await lookup(dex, innerHash(r.RawTransaction))).toMatchObject({
        found: true,
        result: 'tesSUCCESS',
        meta: { ParentBatchID: signed.hash },
      });
    }
  });
});

describe('sequences and tickets', () => {
  it('an inner transaction may use a ticket: it is consumed, the account sequence is not', async () => {
    const seq = await sequenceOf(dex, bob.address);
    const created = await run(bob, {
      TransactionType: 'TicketCreate',
      Account: bob.address,
      TicketCount: 1,
      Sequence: seq,
      Fee: '10',
    });
    expect(created.result).toBe('tesSUCCESS');
    // TicketCreate at seq made ticket seq+1 and moved bob's sequence to seq+2.
    const ticket = seq + 1;
    const next = await sequenceOf(dex, bob.address);
    expect(next).toBe(seq + 2);
    const inners = [
      innerPayment(bob, carol.address, XRP, 0, { TicketSequence: ticket }),
      innerPayment(bob, carol.address, XRP, next + 1),
    ];
    const { result } = await run(bob, batchOf(bob, next, MODE.allOrNothing, inners, feeOf(2)));
    expect(result).toBe('tesSUCCESS');
    // The outer used `next`, the second inner next+1; the first used the ticket.
    expect(await sequenceOf(dex, bob.address)).toBe(next + 2);
    const objects = await dex.client.request({
      command: 'account_objects',
      account: bob.address,
      type: 'ticket',
    });
    expect(objects.result.account_objects).toHaveLength(0);
  });
});

describe('streams', () => {
  it('a transactions subscriber gets the outer and then each inner transaction, validated', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const seen: Array<{ hash: string; parent?: string }> = [];
    const onTx = (t: {
      hash?: string;
      tx_json?: { hash?: string };
      meta?: { ParentBatchID?: string };
    }): void => {
      seen.push({ hash: String(t.hash ?? t.tx_json?.hash), parent: t.meta?.ParentBatchID });
    };
    dex.client.on('transaction', onTx as never);
    await dex.client.request({ command: 'subscribe', streams: ['transactions'] });
    const inners = [
      innerPayment(alice, carol.address, XRP, seq + 1),
      innerPayment(alice, carol.address, XRP, seq + 2),
    ];
    const { hash } = await run(alice, batchOf(alice, seq, MODE.allOrNothing, inners, feeOf(2)));
    // A round trip after the close: its stream messages were sent before this reply.
    await dex.client.request({ command: 'ping' });
    await dex.client.request({ command: 'unsubscribe', streams: ['transactions'] });
    dex.client.off('transaction', onTx as never);
    expect(seen).toEqual([
      { hash, parent: undefined },
      { hash: innerHash(inners[0] as Record<string, unknown>), parent: hash },
      { hash: innerHash(inners[1] as Record<string, unknown>), parent: hash },
    ]);
  });
});

describe('persistence', () => {
  it('inner transactions are kept with their ledger across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xrpl-standalone-batch-'));
    try {
      const first = await startTestLedger({ dataDir, faucet: false });
      const a = await funded(first, 100);
      const seq = await sequenceOf(first, a.address);
      const inners = [
        innerPayment(a, carol.address, XRP, seq + 1),
        innerPayment(a, carol.address, XRP, seq + 2),
      ];
      const { result, hash } = await submitSigned(
        first,
        a,
        batchOf(a, seq, MODE.allOrNothing, inners, feeOf(2)),
      );
      expect(result).toBe('tesSUCCESS');
      const validated = (await lookup(first, hash)).ledgerIndex;
      await first.close();
      const second = await startTestLedger({ dataDir, faucet: false });
      try {
        for (const inner of inners) {
          expect(await lookup(second, innerHash(inner))).toMatchObject({
            found: true,
            result: 'tesSUCCESS',
            ledgerIndex: validated,
            meta: { ParentBatchID: hash },
          });
        }
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

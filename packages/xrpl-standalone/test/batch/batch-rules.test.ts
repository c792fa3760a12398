// Batch (XLS-56) refused: rippled 3.4.1's preflight results for malformed batches and inner
// transactions, fixBatchV1_2's wrapper rule, the BatchSigners rules (who must sign, what the
// signature covers, multi-signed and not-yet-created signers), an inner transaction submitted on
// its own, amendment gating, simulate, and JSON (sign / tx_json + secret) submission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAccountID } from 'ripple-address-codec';
import { decode, encode, encodeForSigningBatch } from 'ripple-binary-codec';
import { sign } from 'ripple-keypairs';
import { Wallet, combineBatchSigners, signMultiBatch } from 'xrpl';
import { DEFAULT_AMENDMENTS } from '../../src/core/amendments';
import { expectResult, funded, request, startDex, xrpBalance, type Dex } from '../dex/helpers';
import {
  MODE,
  TF_INNER_BATCH_TXN,
  batchOf,
  innerHash,
  innerPayment,
  lookup,
  sequenceOf,
  signedBlob,
  startBatchLedger,
  submitBlob,
  submitSigned,
  type Json,
} from './helpers';

const XRP = 1_000_000n;
/** Comfortably above any fee these batches need: the checks below come before the fee's. */
const FEE = 1_000n;

let dex: Dex;
let alice: Wallet;
let bob: Wallet;
let carol: Wallet;

beforeAll(async () => {
  ({ dex, alice, bob, carol } = await startBatchLedger());
});
afterAll(async () => dex.close());

async function result(signer: Wallet, tx: Json, on: Dex = dex): Promise<string> {
  return (await submitSigned(on, signer, tx)).result;
}

/** A two-payment batch of alice's, with `change` applied to its JSON before signing. */
async function aliceBatch(change: (inners: Json[], outer: Json) => void, mode: number = MODE.allOrNothing) {
  const seq = await sequenceOf(dex, alice.address);
  const inners = [
    innerPayment(alice, carol.address, XRP, seq + 1),
    innerPayment(alice, carol.address, 2n * XRP, seq + 2),
  ];
  const outer = batchOf(alice, seq, mode, [], FEE);
  delete outer.RawTransactions;
  change(inners, outer);
  // Wrapped after the change, unless the change wrapped them itself.
  outer.RawTransactions ??= inners.map((t) => ({ RawTransaction: t }));
  return { seq, outer };
}

describe('inner transactions on their own', () => {
  it('are refused at submit, signed or not, as rippled checkValidity refuses them', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const tx: Json = {
      TransactionType: 'Payment',
      Account: alice.address,
      Destination: carol.address,
      Amount: '1000000',
      Sequence: seq,
      Fee: '10',
      Flags: TF_INNER_BATCH_TXN,
    };
    const expected = {
      error: 'invalidTransaction',
      error_exception: 'fails local checks: Batch inner transactions are never considered validly signed.',
    };
    expect(await submitBlob(dex, signedBlob(alice, tx).blob)).toEqual(expected);
    expect(await submitBlob(dex, encode({ ...tx, Fee: '0', SigningPubKey: '' } as never))).toEqual(expected);
    expect(await sequenceOf(dex, alice.address)).toBe(seq);
  });
});

describe('preflight', () => {
  const cases: Array<[string, (inners: Json[], outer: Json) => void, string, number?]> = [
    ['no batch mode', (_i, o) => (o.Flags = 0), 'temINVALID_FLAG'],
    ['two batch modes', (_i, o) => (o.Flags = MODE.allOrNothing | MODE.independent), 'temINVALID_FLAG'],
    // (checkValidity refuses the flag on any transaction, the outer too, before tfBatchMask would.)
    [
      'the outer with tfInnerBatchTxn',
      (_i, o) => (o.Flags = MODE.allOrNothing | TF_INNER_BATCH_TXN),
      'invalidTransaction: fails local checks: Batch inner transactions are never considered validly signed.',
    ],
    ['one inner transaction', (i) => i.pop(), 'temARRAY_EMPTY'],
    [
      'nine inner transactions',
      (i) => {
        const first = i[0] as Json;
        for (let n = 2; n < 9; n += 1) i.push({ ...first, Sequence: Number(first.Sequence) + n });
      },
      'temARRAY_TOO_LARGE',
    ],
    ['an inner without tfInnerBatchTxn', (i) => ((i[1] as Json).Flags = 0), 'temINVALID_FLAG'],
    ['an inner with a fee', (i) => ((i[1] as Json).Fee = '10'), 'temBAD_FEE'],
    [
      'an inner with a SigningPubKey',
      (i) => ((i[1] as Json).SigningPubKey = alice.publicKey),
      'temBAD_REGKEY',
    ],
    [
      'an inner with a TxnSignature',
      (i) => ((i[1] as Json).TxnSignature = 'AB'.repeat(64)),
      'temBAD_SIGNATURE',
    ],
    [
      'an inner with Signers',
      (i) =>
        ((i[1] as Json).Signers = [
          { Signer: { Account: bob.address, SigningPubKey: bob.publicKey, TxnSignature: 'AB'.repeat(64) } },
        ]),
      'temBAD_SIGNER',
    ],
    [
      'a Batch inside a Batch',
      (i) =>
        (i[1] = {
          TransactionType: 'Batch',
          Account: alice.address,
          Flags: MODE.independent | TF_INNER_BATCH_TXN,
          Sequence: Number((i[1] as Json).Sequence),
          Fee: '0',
          SigningPubKey: '',
          RawTransactions: [{ RawTransaction: i[0] }, { RawTransaction: i[0] }],
        }),
      'temINVALID',
    ],
    ['the same inner twice', (i) => (i[1] = { ...(i[0] as Json) }), 'temREDUNDANT'],
    [
      'one sequence twice under AllOrNothing',
      (i) => ((i[1] as Json).Sequence = (i[0] as Json).Sequence),
      'temREDUNDANT',
    ],
    ['Sequence and TicketSequence', (i) => ((i[1] as Json).TicketSequence = 5), 'temSEQ_AND_TICKET'],
    ['neither Sequence nor TicketSequence', (i) => ((i[1] as Json).Sequence = 0), 'temSEQ_AND_TICKET'],
    ['an inner failing its own preflight', (i) => ((i[1] as Json).Amount = '0'), 'temINVALID_INNER_BATCH'],
    [
      'a vault transaction (never allowed inside a batch)',
      (i) =>
        (i[1] = {
          TransactionType: 'VaultDeposit',
          Account: alice.address,
          Flags: TF_INNER_BATCH_TXN,
          Sequence: (i[1] as Json).Sequence,
          Fee: '0',
          SigningPubKey: '',
          VaultID: '0'.repeat(64),
          Amount: '1000000',
        }),
      'temINVALID_INNER_BATCH',
    ],
    // fixBatchV1_2 (rippled 3.4.1): every inner must be wrapped as RawTransaction.
    [
      'an inner wrapped in another field',
      (i, o) => (o.RawTransactions = [{ RawTransaction: i[0] }, { CreatedNode: i[1] }]),
      'temMALFORMED',
    ],
  ];
  for (const [name, change, expected] of cases) {
    it(`${name}: ${expected}, nothing charged`, async () => {
      const { seq, outer } = await aliceBatch(change);
      const before = await xrpBalance(dex, alice.address);
      expect(await result(alice, outer)).toBe(expected);
      expect(await sequenceOf(dex, alice.address)).toBe(seq);
      expect(await xrpBalance(dex, alice.address)).toBe(before);
    });
  }

  it('a sequence used twice is allowed in Independent mode: the second inner fails tefPAST_SEQ, unrecorded', async () => {
    const { seq, outer } = await aliceBatch(
      (i) => ((i[1] as Json).Sequence = (i[0] as Json).Sequence),
      MODE.independent,
    );
    const carolBefore = await xrpBalance(dex, carol.address);
    expect(await result(alice, outer)).toBe('tesSUCCESS');
    // The outer used seq, the first inner seq+1; only the first payment (1 XRP) reached carol.
    expect(await sequenceOf(dex, alice.address)).toBe(seq + 2);
    expect(await xrpBalance(dex, carol.address)).toBe(carolBefore + XRP);
  });

  it('without fixBatchV1_2 the wrapper is not checked', async () => {
    const older = await startDex(DEFAULT_AMENDMENTS.filter((a) => a !== 'fixBatchV1_2'));
    try {
      const a = await funded(older, 100);
      const seq = await sequenceOf(older, a.address);
      const inners = [
        innerPayment(a, carol.address, XRP, seq + 1),
        innerPayment(a, carol.address, XRP, seq + 2),
      ];
      const tx = batchOf(a, seq, MODE.allOrNothing, [], FEE, {
        RawTransactions: [{ RawTransaction: inners[0] }, { CreatedNode: inners[1] }],
      });
      expect(await result(a, tx, older)).toBe('tesSUCCESS');
      expect(await sequenceOf(older, a.address)).toBe(seq + 3);
    } finally {
      await older.close();
    }
  });
});

describe('BatchSigners', () => {
  /** alice pays carol, bob pays carol: bob must sign. */
  async function twoAccounts(mode: number = MODE.allOrNothing): Promise<{ outer: Json; inners: Json[] }> {
    const seq = await sequenceOf(dex, alice.address);
    const bobSeq = await sequenceOf(dex, bob.address);
    const inners = [
      innerPayment(alice, carol.address, XRP, seq + 1),
      innerPayment(bob, carol.address, XRP, bobSeq),
    ];
    return { outer: batchOf(alice, seq, mode, inners, FEE), inners };
  }

  it('another account’s inner needs its BatchSigner: it pays nothing, its sequence is used', async () => {
    const { outer, inners } = await twoAccounts();
    expect(await result(alice, outer)).toBe('temBAD_SIGNER');
    const bobBefore = await xrpBalance(dex, bob.address);
    const bobSeq = await sequenceOf(dex, bob.address);
    signMultiBatch(bob, outer as never);
    expect(await result(alice, outer)).toBe('tesSUCCESS');
    // Bob paid his 1 XRP and no fee; his sequence moved by one.
    expect(await xrpBalance(dex, bob.address)).toBe(bobBefore - XRP);
    expect(await sequenceOf(dex, bob.address)).toBe(bobSeq + 1);
    expect(await lookup(dex, innerHash(inners[1] as Json))).toMatchObject({
      found: true,
      result: 'tesSUCCESS',
    });
  });

  it('the fee counts one base fee per BatchSigner signature', async () => {
    const { outer } = await twoAccounts();
    signMultiBatch(bob, outer as never);
    // 2 × 10 + 10 + 10 + 1 signature × 10 = 50 drops.
    expect(await result(alice, { ...outer, Fee: '49' })).toBe('telINSUF_FEE_P');
    expect(await result(alice, { ...outer, Fee: '50' })).toBe('tesSUCCESS');
  });

  it('refuses a signer for the outer account, an extra signer, a repeated one and an unsorted list', async () => {
    let { outer } = await twoAccounts();
    signMultiBatch(bob, outer as never);
    const bobSigner = (outer.BatchSigners as Json[])[0] as Json;
    const asOuter = { ...outer };
    signMultiBatch(alice, asOuter as never);
    expect(
      await result(alice, { ...outer, BatchSigners: [bobSigner, ...(asOuter.BatchSigners as Json[])] }),
    ).toBe('temBAD_SIGNER');
    expect(await result(alice, { ...outer, BatchSigners: [bobSigner, bobSigner] })).toBe('temREDUNDANT');
    // carol has no inner transaction here: her signature is not wanted.
    const seq = await sequenceOf(dex, alice.address);
    const carolSeq = await sequenceOf(dex, carol.address);
    const bobSeq = await sequenceOf(dex, bob.address);
    const inners = [
      innerPayment(bob, alice.address, XRP, bobSeq),
      innerPayment(carol, alice.address, XRP, carolSeq),
    ];
    outer = batchOf(alice, seq, MODE.allOrNothing, inners, FEE);
    const byBob = { ...outer };
    const byCarol = { ...outer };
    signMultiBatch(bob, byBob as never);
    signMultiBatch(carol, byCarol as never);
    // xrpl.js's combineBatchSigners sorts them by account, as BatchV1_1 requires.
    const combined = decode(combineBatchSigners([byBob, byCarol] as never)) as Json;
    const ascending = combined.BatchSigners as Json[];
    expect(ascending.map((e) => accountOf(e))).toEqual([bob.address, carol.address].sort(byAccountId));
    expect(await result(alice, { ...outer, BatchSigners: [...ascending].reverse() })).toBe('temBAD_SIGNER');
    // A stranger's valid signature (xrpl.js refuses to make one for an account with no inner
    // transaction, so the V1_1 message is signed directly).
    const stranger = await funded(dex, 100);
    const message = encodeForSigningBatch({
      account: alice.address,
      sequence: seq,
      flags: MODE.allOrNothing,
      txIDs: inners.map((t) => innerHash(t)),
      batchAccount: stranger.address,
    });
    const strangerSigner = {
      BatchSigner: {
        Account: stranger.address,
        SigningPubKey: stranger.publicKey,
        TxnSignature: sign(message, stranger.privateKey),
      },
    };
    const withStranger = [...ascending, strangerSigner].sort(bySignerAccount);
    expect(await result(alice, { ...outer, BatchSigners: withStranger })).toBe('temBAD_SIGNER');
    expect(await result(alice, { ...outer, BatchSigners: ascending })).toBe('tesSUCCESS');
  });

  it('a signature that does not verify is refused before the engine; one by the wrong key is tefBAD_AUTH', async () => {
    const { outer } = await twoAccounts();
    signMultiBatch(bob, outer as never);
    const signer = ((outer.BatchSigners as Json[])[0] as { BatchSigner: Json }).BatchSigner;
    const signature = String(signer.TxnSignature);
    const tampered = {
      BatchSigner: {
        ...signer,
        TxnSignature: signature.slice(0, -2) + (signature.endsWith('00') ? '01' : '00'),
      },
    };
    expect(await result(alice, { ...outer, BatchSigners: [tampered] })).toBe(
      'invalidTransaction: fails local checks: Invalid signature.',
    );
    // Signed by carol's key for bob's account: a valid signature, but not bob's key.
    const byCarol = { ...outer };
    signMultiBatch(carol, byCarol as never, { batchAccount: bob.address } as never);
    expect(await result(alice, byCarol)).toBe('tefBAD_AUTH');
  });

  it('binds the signature to the outer transaction: the same inner transactions under another outer account fail', async () => {
    const { outer, inners } = await twoAccounts(MODE.independent);
    signMultiBatch(bob, outer as never);
    // carol takes alice's place as the outer account (alice's inner then needs alice's signature,
    // which she gives; bob's signature was made for alice's batch).
    const carolSeq = await sequenceOf(dex, carol.address);
    const moved = batchOf(carol, carolSeq, MODE.independent, inners, FEE);
    const byAlice = { ...moved };
    signMultiBatch(alice, byAlice as never);
    const signers = [...(byAlice.BatchSigners as Json[]), ...(outer.BatchSigners as Json[])].sort(
      bySignerAccount,
    );
    expect(await result(carol, { ...moved, BatchSigners: signers })).toBe(
      'invalidTransaction: fails local checks: Invalid signature.',
    );
  });

  it('a multi-signing account signs through its signer list; below quorum is tefBAD_QUORUM', async () => {
    const dave = await funded(dex, 1_000);
    const keys = [Wallet.generate(), Wallet.generate()];
    await expectResult(dex, dave, {
      TransactionType: 'SignerListSet',
      SignerQuorum: 2,
      SignerEntries: keys.map((k) => ({ SignerEntry: { Account: k.address, SignerWeight: 1 } })),
    });
    const seq = await sequenceOf(dex, alice.address);
    const daveSeq = await sequenceOf(dex, dave.address);
    const inners = [
      innerPayment(alice, carol.address, XRP, seq + 1),
      innerPayment(dave, carol.address, XRP, daveSeq),
    ];
    const outer = batchOf(alice, seq, MODE.allOrNothing, inners, FEE);
    const signatures = keys.map((k) => {
      const copy = { ...outer };
      signMultiBatch(k, copy as never, { batchAccount: dave.address, multisign: true } as never);
      const entry = ((copy.BatchSigners as Json[])[0] as { BatchSigner: { Signers: Json[] } }).BatchSigner;
      return entry.Signers[0] as Json;
    });
    const sortedSigners = [...signatures].sort((x, y) =>
      byAccountId(accountOf(x, 'Signer'), accountOf(y, 'Signer')),
    );
    const batchSigner = (signers: Json[]): Json[] => [
      { BatchSigner: { Account: dave.address, SigningPubKey: '', Signers: signers } },
    ];
    expect(await result(alice, { ...outer, BatchSigners: batchSigner(sortedSigners.slice(0, 1)) })).toBe(
      'tefBAD_QUORUM',
    );
    // 2 × 10 + 10 + 10 + 2 signatures × 10 = 60 drops.
    expect(await result(alice, { ...outer, Fee: '59', BatchSigners: batchSigner(sortedSigners) })).toBe(
      'telINSUF_FEE_P',
    );
    expect(await result(alice, { ...outer, Fee: '60', BatchSigners: batchSigner(sortedSigners) })).toBe(
      'tesSUCCESS',
    );
    expect(await sequenceOf(dex, dave.address)).toBe(daveSeq + 1);
  });

  it('an account an earlier inner transaction creates can sign for its own inner with its master key', async () => {
    const fresh = Wallet.generate();
    const seq = await sequenceOf(dex, alice.address);
    // An account created in ledger L starts at Sequence L (DeletableAccounts).
    const current = (await dex.client.request({ command: 'ledger_current' })).result.ledger_current_index;
    const inners = [
      innerPayment(alice, fresh.address, 20n * XRP, seq + 1),
      innerPayment(fresh, carol.address, XRP, current),
    ];
    const outer = batchOf(alice, seq, MODE.allOrNothing, inners, FEE);
    signMultiBatch(fresh, outer as never);
    expect(await result(alice, outer)).toBe('tesSUCCESS');
    // 20 XRP in, 1 XRP out, no fee.
    expect(await xrpBalance(dex, fresh.address)).toBe(19n * XRP);
    // A key that is not the new account's own cannot sign for it.
    const other = Wallet.generate();
    const seq2 = await sequenceOf(dex, alice.address);
    const current2 = (await dex.client.request({ command: 'ledger_current' })).result.ledger_current_index;
    const inners2 = [
      innerPayment(alice, other.address, 20n * XRP, seq2 + 1),
      innerPayment(other, carol.address, XRP, current2),
    ];
    const outer2 = batchOf(alice, seq2, MODE.allOrNothing, inners2, FEE);
    signMultiBatch(carol, outer2 as never, { batchAccount: other.address } as never);
    expect(await result(alice, outer2)).toBe('tefBAD_AUTH');
  });
});

describe('amendments', () => {
  it('Batch disabled: temDISABLED', async () => {
    const without = await startDex(DEFAULT_AMENDMENTS.filter((a) => a !== 'BatchV1_1'));
    try {
      const a = await funded(without, 100);
      const seq = await sequenceOf(without, a.address);
      const inners = [
        innerPayment(a, carol.address, XRP, seq + 1),
        innerPayment(a, carol.address, XRP, seq + 2),
      ];
      expect(await result(a, batchOf(a, seq, MODE.allOrNothing, inners, FEE), without)).toBe('temDISABLED');
    } finally {
      await without.close();
    }
  });

  it('under the earlier `Batch` amendment a BatchSigner signs only the flags and inner IDs', async () => {
    const legacy = await startDex([...DEFAULT_AMENDMENTS.filter((a) => a !== 'BatchV1_1'), 'Batch']);
    try {
      const a = await funded(legacy, 100);
      const b = await funded(legacy, 100);
      const seq = await sequenceOf(legacy, a.address);
      const bSeq = await sequenceOf(legacy, b.address);
      const inners = [innerPayment(a, b.address, XRP, seq + 1), innerPayment(b, a.address, XRP, bSeq)];
      const outer = batchOf(a, seq, MODE.allOrNothing, inners, FEE);
      // rippled 2.5's serializeBatch: 'BCH\0', Flags, the count and the inner IDs (xrpl.js 5.0.0).
      const message =
        '42434800' + u32(MODE.allOrNothing) + u32(inners.length) + inners.map((t) => innerHash(t)).join('');
      const v1 = [
        {
          BatchSigner: {
            Account: b.address,
            SigningPubKey: b.publicKey,
            TxnSignature: sign(message, b.privateKey),
          },
        },
      ];
      const v1_1 = { ...outer };
      signMultiBatch(b, v1_1 as never);
      expect(await result(a, v1_1, legacy)).toBe(
        'invalidTransaction: fails local checks: Invalid signature.',
      );
      expect(await result(a, { ...outer, BatchSigners: v1 }, legacy)).toBe('tesSUCCESS');
      // And the other way round: BatchV1_1 (this suite's ledger) refuses the old form.
      const seqA = await sequenceOf(dex, alice.address);
      const seqB = await sequenceOf(dex, bob.address);
      const here = [
        innerPayment(alice, bob.address, XRP, seqA + 1),
        innerPayment(bob, alice.address, XRP, seqB),
      ];
      const old = '42434800' + u32(MODE.allOrNothing) + u32(2) + here.map((t) => innerHash(t)).join('');
      const tx = batchOf(alice, seqA, MODE.allOrNothing, here, FEE, {
        BatchSigners: [
          {
            BatchSigner: {
              Account: bob.address,
              SigningPubKey: bob.publicKey,
              TxnSignature: sign(old, bob.privateKey),
            },
          },
        ],
      });
      expect(await result(alice, tx)).toBe('invalidTransaction: fails local checks: Invalid signature.');
    } finally {
      await legacy.close();
    }
  });
});

describe('simulate and JSON submission', () => {
  it('simulate refuses a Batch (notImpl) and answers temINVALID_INNER_BATCH for a lone inner', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const inners = [
      innerPayment(alice, carol.address, XRP, seq + 1),
      innerPayment(alice, carol.address, XRP, seq + 2),
    ];
    const { SigningPubKey: _k, ...unsigned } = batchOf(alice, seq, MODE.allOrNothing, inners, FEE);
    await expect(request(dex, { command: 'simulate', tx_json: unsigned })).rejects.toMatchObject({
      data: { error: 'notImpl' },
    });
    const lone = await request<{ engine_result: string }>(dex, {
      command: 'simulate',
      tx_json: { ...(inners[0] as Json), Sequence: seq },
    });
    expect(lone.engine_result).toBe('temINVALID_INNER_BATCH');
  });

  it('sign fills the Batch fee; submit with tx_json and secret applies it', async () => {
    const seq = await sequenceOf(dex, alice.address);
    const inners = [
      innerPayment(alice, carol.address, XRP, seq + 1),
      innerPayment(alice, carol.address, XRP, seq + 2),
    ];
    const txJson = {
      TransactionType: 'Batch',
      Account: alice.address,
      Flags: MODE.allOrNothing,
      RawTransactions: inners.map((t) => ({ RawTransaction: t })),
    };
    const signed = await request<{ tx_json: Json }>(dex, {
      command: 'sign',
      tx_json: txJson,
      secret: alice.seed,
    });
    // 2 × 10 + 10 + 10 = 40 drops, and the next sequence.
    expect(signed.tx_json).toMatchObject({ Fee: '40', Sequence: seq });
    const before = await xrpBalance(dex, alice.address);
    const submitted = await request<{ engine_result: string }>(dex, {
      command: 'submit',
      tx_json: txJson,
      secret: alice.seed,
    });
    expect(submitted.engine_result).toBe('tesSUCCESS');
    dex.ledger.closeLedger();
    expect(await xrpBalance(dex, alice.address)).toBe(before - 40n - 2n * XRP);
    expect(await sequenceOf(dex, alice.address)).toBe(seq + 3);
  });
});

function u32(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0').toUpperCase();
}

/** rippled's account order: by the 160-bit account ID. */
function byAccountId(a: string, b: string): number {
  const x = Buffer.from(decodeAccountID(a)).toString('hex');
  const y = Buffer.from(decodeAccountID(b)).toString('hex');
  return x < y ? -1 : x > y ? 1 : 0;
}

function accountOf(entry: Json, wrapper = 'BatchSigner'): string {
  return String((entry[wrapper] as Json).Account);
}

function bySignerAccount(x: Json, y: Json): number {
  return byAccountId(accountOf(x), accountOf(y));
}

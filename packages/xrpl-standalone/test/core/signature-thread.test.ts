// Signatures checked on the signature thread (prepareSubmits) must get exactly the verdicts the
// calling thread's check gives (prepareSubmit), in order, and survive the thread's failure.
import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { decode, encode } from 'ripple-binary-codec';
import { LedgerNode } from '../../src/core/ledger-node';
import type { PreparedSubmission } from '../../src/core/contract';
import { signatureThread } from '../../src/core/signature-thread';
import { highS } from '../support/signatures';

function payment(wallet: Wallet, sequence: number, amount = '1000'): string {
  return wallet.sign({
    TransactionType: 'Payment',
    Account: wallet.address,
    Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
    Amount: amount,
    Fee: '10',
    Flags: 0,
    Sequence: sequence,
  } as never).tx_blob;
}

/** Valid, forged, wrong-key, high-S, malformed and multi-signed blobs of both key types, mixed. */
function mixedBlobs(): { blobs: string[]; expected: Array<boolean | undefined> } {
  const ed = Wallet.generate('ed25519' as never);
  const secp = Wallet.generate('ecdsa-secp256k1' as never);
  const stranger = Wallet.generate('ed25519' as never);
  const rows: Array<[string, boolean | undefined]> = [];
  for (let i = 0; i < 6; i += 1) {
    rows.push([payment(ed, i + 1), true]);
    rows.push([payment(secp, i + 1), true]);
  }
  const signedEd = decode(payment(ed, 50));
  const signedSecp = decode(payment(secp, 50));
  // The amount changed after signing.
  rows.push([encode({ ...signedEd, Amount: '2' }), false]);
  rows.push([encode({ ...signedSecp, Amount: '2' }), false]);
  // Another account's key over the same signature.
  rows.push([encode({ ...signedEd, SigningPubKey: stranger.publicKey }), false]);
  // secp256k1's malleated twin: refused on its form, no OpenSSL call.
  rows.push([encode({ ...signedSecp, TxnSignature: highS(String(signedSecp.TxnSignature)) }), false]);
  // An Ed25519 signature one byte short.
  rows.push([encode({ ...signedEd, TxnSignature: String(signedEd.TxnSignature).slice(0, 126) }), false]);
  // Left to submit(), which checks them in rippled's order: not hex, multi-signed, malformed key.
  rows.push(['ZZ', undefined]);
  rows.push([
    encode({
      ...signedEd,
      SigningPubKey: '',
      TxnSignature: undefined,
      Signers: [{ Signer: { Account: ed.address, SigningPubKey: ed.publicKey, TxnSignature: '00' } }],
    } as never),
    undefined,
  ]);
  rows.push([encode({ ...signedEd, SigningPubKey: 'ED00' }), undefined]);
  return { blobs: rows.map((r) => r[0]), expected: rows.map((r) => r[1]) };
}

const verdicts = (prepared: readonly PreparedSubmission[]) =>
  prepared.map((p) => (p as unknown as { signatureValid: boolean | undefined }).signatureValid);

describe('signature thread (prepareSubmits)', () => {
  it('gives every blob the verdict of the calling thread, in order, asynchronously', async () => {
    const node = new LedgerNode();
    const { blobs, expected } = mixedBlobs();
    expect(verdicts(blobs.map((b) => node.prepareSubmit(b)))).toEqual(expected);

    let answered = false;
    const done = new Promise<PreparedSubmission[]>((resolve) =>
      node.prepareSubmits(blobs, (prepared) => {
        answered = true;
        resolve(prepared);
      }),
    );
    // Enough checks for the thread: the answer comes later, from its message.
    expect(answered).toBe(false);
    const prepared = await done;
    expect(verdicts(prepared)).toEqual(expected);
    expect(prepared.map((p) => p.blob)).toEqual(blobs);
    // Twice: the second batch names the keys the thread already holds.
    expect(verdicts(await new Promise((resolve) => node.prepareSubmits(blobs, resolve)))).toEqual(expected);
  });

  it('checks a small batch on the calling thread, synchronously', () => {
    const node = new LedgerNode();
    const { blobs, expected } = mixedBlobs();
    let got: Array<boolean | undefined> | undefined;
    node.prepareSubmits(blobs.slice(0, 3), (prepared) => (got = verdicts(prepared)));
    expect(got).toEqual(expected.slice(0, 3));
    node.signatureThreadMin = Infinity;
    node.prepareSubmits(blobs, (prepared) => (got = verdicts(prepared)));
    expect(got).toEqual(expected);
  });

  it('answers every batch a failed thread held, checked here, and starts a new thread for the next', async () => {
    const node = new LedgerNode();
    const { blobs, expected } = mixedBlobs();
    await new Promise((resolve) => node.prepareSubmits(blobs, resolve)); // the thread is up
    const held = [1, 2, 3].map(
      () => new Promise<PreparedSubmission[]>((resolve) => node.prepareSubmits(blobs, resolve)),
    );
    await signatureThread.terminateForTest();
    for (const prepared of await Promise.all(held)) expect(verdicts(prepared)).toEqual(expected);
    expect(signatureThread.available).toBe(true);
    let answered = false;
    const next = new Promise<PreparedSubmission[]>((resolve) =>
      node.prepareSubmits(blobs, (prepared) => {
        answered = true;
        resolve(prepared);
      }),
    );
    expect(answered).toBe(false);
    expect(verdicts(await next)).toEqual(expected);
  });
});

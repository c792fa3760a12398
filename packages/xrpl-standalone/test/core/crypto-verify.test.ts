import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { decode, encodeForSigning } from 'ripple-binary-codec';
import { verify } from 'ripple-keypairs';
import { verifySignature } from '../../src/core/crypto-verify';

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

function highS(derHex: string): string {
  const sig = Buffer.from(derHex, 'hex');
  const rLen = sig[3] as number;
  const r = sig.subarray(4, 4 + rLen);
  const s = BigInt(`0x${sig.subarray(6 + rLen).toString('hex')}`);
  let hs = (N - s).toString(16);
  if (hs.length % 2) hs = `0${hs}`;
  let sb = Buffer.from(hs, 'hex');
  if ((sb[0] as number) & 0x80) sb = Buffer.concat([Buffer.from([0]), sb]);
  const body = Buffer.concat([Buffer.from([2, r.length]), r, Buffer.from([2, sb.length]), sb]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body])
    .toString('hex')
    .toUpperCase();
}

describe('native signature verification', () => {
  for (const algorithm of ['ed25519', 'ecdsa-secp256k1'] as const) {
    it(`agrees with ripple-keypairs for ${algorithm}`, () => {
      const w = Wallet.generate(algorithm as never);
      const blob = w.sign({
        TransactionType: 'Payment',
        Account: w.classicAddress,
        Destination: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
        Amount: '1',
        Fee: '10',
        Sequence: 1,
      } as never).tx_blob;
      const tx = decode(blob) as Record<string, string>;
      const msg = encodeForSigning(tx);
      expect(verifySignature(msg, tx.TxnSignature!, tx.SigningPubKey!)).toBe(true);
      const other = encodeForSigning({ ...tx, Amount: '2' });
      expect(verifySignature(other, tx.TxnSignature!, tx.SigningPubKey!)).toBe(false);
      expect(verify(other, tx.TxnSignature!, tx.SigningPubKey!)).toBe(false);
      const stranger = Wallet.generate(algorithm as never).publicKey;
      expect(verifySignature(msg, tx.TxnSignature!, stranger)).toBe(false);
      if (algorithm === 'ecdsa-secp256k1') {
        // The malleated (high-S) twin of a valid signature is not fully canonical.
        expect(verifySignature(msg, highS(tx.TxnSignature!), tx.SigningPubKey!)).toBe(false);
      }
    });
  }
});

import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { decode, encodeForSigning } from 'ripple-binary-codec';
import { verify } from 'ripple-keypairs';
import { verifySignature } from '../../src/core/crypto-verify';
import { highS } from '../support/signatures';

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

import { describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { deriveAddress } from 'ripple-keypairs';
import { addressOfPublicKey } from '../../src/core/account-id';

describe('addressOfPublicKey', () => {
  it('derives the same account as ripple-keypairs for both key types, in either hex case', () => {
    for (let i = 0; i < 20; i += 1) {
      const { publicKey } = Wallet.generate((i % 2 ? 'ed25519' : 'ecdsa-secp256k1') as never);
      const expected = deriveAddress(publicKey);
      expect(addressOfPublicKey(publicKey)).toBe(expected);
      expect(addressOfPublicKey(publicKey.toLowerCase())).toBe(expected);
    }
  });
});

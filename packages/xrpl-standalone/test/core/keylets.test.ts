import { describe, expect, it } from 'vitest';
import { hashes, Wallet } from 'xrpl';
import {
  accountRootKey,
  bookBaseKey,
  bookQualityKey,
  dirPageKey,
  escrowKey,
  offerKey,
  ownerDirKey,
  qualityFromKey,
  signerListKey,
  trustLineKey,
} from '../../src/core/keylets';

describe('keylets match xrpl.js hashes', () => {
  const a = Wallet.generate().classicAddress;
  const b = Wallet.generate().classicAddress;

  it('account roots, trust lines, offers, signer lists and escrows', () => {
    expect(accountRootKey(a)).toBe(hashes.hashAccountRoot(a));
    expect(trustLineKey(a, b, 'USD')).toBe(hashes.hashTrustline(a, b, 'USD'));
    expect(trustLineKey(b, a, 'USD')).toBe(hashes.hashTrustline(a, b, 'USD'));
    expect(offerKey(a, 42)).toBe(hashes.hashOfferId(a, 42));
    expect(signerListKey(a)).toBe(hashes.hashSignerListId(a));
    expect(escrowKey(a, 7)).toBe(hashes.hashEscrow(a, 7));
  });

  it('directory pages and book qualities', () => {
    const root = ownerDirKey(a);
    expect(dirPageKey(root, 0n)).toBe(root);
    expect(dirPageKey(root, 1n)).not.toBe(root);
    const base = bookBaseKey({ currency: 'XRP' }, { currency: 'USD', issuer: b });
    expect(base.endsWith('0000000000000000')).toBe(true);
    const q = bookQualityKey(base, 0x5a1234n);
    expect(qualityFromKey(q)).toBe(0x5a1234n);
    expect(q.slice(0, 48)).toBe(base.slice(0, 48));
  });
});

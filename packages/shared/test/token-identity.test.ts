import { describe, expect, it } from 'vitest';
import {
  claimMemo,
  deployFormSchema,
  IDENTITY_MESSAGES,
  isOwnImageUrl,
  isRlusdTicker,
  listingRefusal,
  rankVerifiedFirst,
  RLUSD_CURRENCY_HEX,
} from '../src/index';
import { identityKey, lookalikeOf } from '../src/lookalike';

// The identity rules of issue 24, pure: what counts as the same ticker or name, what may be listed,
// which images may be shown.

const ISSUER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const RLUSD_ISSUER = 'rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De';

describe('identityKey', () => {
  it('ignores case, Cyrillic and Greek homoglyphs, zero-width and bidi characters', () => {
    const key = identityKey('RLUSD');
    // Cyrillic Ѕ (U+0405) for S, Cyrillic Х (U+0425) and Р (U+0420) for X and P, Greek Ο (U+039F) for O.
    expect(identityKey('\u0425R\u0420')).toBe(identityKey('XRP'));
    expect(identityKey('RLU\u0405D')).toBe(key);
    expect(identityKey('rlusd')).toBe(key);
    expect(identityKey('RL\u200BUSD')).toBe(key); // zero-width space
    expect(identityKey('RLU\u200DSD\uFEFF')).toBe(key); // zero-width joiner, BOM
    expect(identityKey('\u202ERLUSD\u202C')).toBe(key); // right-to-left override … pop
    expect(identityKey('\u2066RLUSD\u2069')).toBe(key); // isolates
    expect(identityKey('ＲＬＵＳＤ')).toBe(key); // full-width forms (NFKC)
    expect(identityKey('B\u039FB')).toBe(identityKey('BOB'));
    expect(identityKey('B0B')).toBe(identityKey('BOB')); // zero for O
    expect(identityKey('Ripple  USD')).toBe(identityKey('ripple usd'));
    expect(identityKey('RLUSDX')).not.toBe(key);
    expect(identityKey('BOB')).not.toBe(identityKey('BIB'));
  });
});

describe('lookalikeOf', () => {
  const verified = [{ id: 1, ticker: 'PEPE', name: 'Pepe Coin' }];
  it('names the verified ticker a candidate’s ticker or name matches', () => {
    expect(lookalikeOf({ ticker: 'P\u0415PE', name: 'Frog' }, verified)).toBe('PEPE'); // Cyrillic Е
    expect(lookalikeOf({ ticker: 'FROG', name: 'Pepe  coin' }, verified)).toBe('PEPE');
    expect(lookalikeOf({ ticker: 'FROG', name: 'PEPE' }, verified)).toBe('PEPE');
    expect(lookalikeOf({ ticker: 'FROG', name: 'Frog Coin' }, verified)).toBeNull();
  });
  it('never matches a token against itself, and always guards XRP and RLUSD', () => {
    expect(lookalikeOf({ id: 1, ticker: 'PEPE', name: 'Pepe Coin' }, verified)).toBeNull();
    expect(lookalikeOf({ ticker: '\u0425RP', name: 'Ledger' }, [])).toBe('XRP'); // Cyrillic Х
    expect(lookalikeOf({ ticker: 'RUSD', name: 'Ripple USD' }, [])).toBe('RLUSD');
  });
});

describe('listingRefusal', () => {
  it('refuses XRP, LP codes and RLUSD’s code from another issuer', () => {
    expect(listingRefusal(ISSUER, 'XRP', RLUSD_ISSUER, false)).toBe(IDENTITY_MESSAGES.xrp);
    expect(listingRefusal(ISSUER, '03' + 'AB'.repeat(19), RLUSD_ISSUER, true)).toBe(
      IDENTITY_MESSAGES.lpToken,
    );
    expect(listingRefusal(ISSUER, RLUSD_CURRENCY_HEX, RLUSD_ISSUER, true)).toBe(IDENTITY_MESSAGES.rlusdCode);
    expect(listingRefusal(ISSUER, 'USD', RLUSD_ISSUER, false)).toBeNull();
  });
  it('lets only the platform (an admin) list the RLUSD issuer', () => {
    expect(listingRefusal(RLUSD_ISSUER, RLUSD_CURRENCY_HEX, RLUSD_ISSUER, false)).toBe(
      IDENTITY_MESSAGES.rlusdIssuer,
    );
    expect(listingRefusal(RLUSD_ISSUER, RLUSD_CURRENCY_HEX, RLUSD_ISSUER, true)).toBeNull();
  });
});

describe('deploy', () => {
  it('refuses the RLUSD ticker (it is RLUSD’s own currency code)', () => {
    expect(isRlusdTicker('RLUSD')).toBe(true);
    expect(isRlusdTicker('rlusd')).toBe(false); // another code on the ledger
    const parsed = deployFormSchema.safeParse({ ticker: 'RLUSD' });
    expect(parsed.success).toBe(false);
    const messages = parsed.error!.issues.filter((i) => i.path[0] === 'ticker').map((i) => i.message);
    expect(messages).toContain(IDENTITY_MESSAGES.rlusdTicker);
  });
});

describe('images and ranking', () => {
  it('shows only images on our own origin', () => {
    expect(isOwnImageUrl(`/cdn/logos/${'a'.repeat(64)}.png`)).toBe(true);
    expect(isOwnImageUrl('/images/x.webp')).toBe(true);
    for (const url of [
      'https://evil.example/x.png',
      '//evil.example/x.png',
      '/images/../x',
      'data:image/png;base64,AA',
      '',
      null,
    ])
      expect(isOwnImageUrl(url)).toBe(false);
  });
  it('ranks verified first and keeps the order within each group', () => {
    const items = [
      { id: 1, verified: false },
      { id: 2, verified: true },
      { id: 3, verified: false },
      { id: 4, verified: true },
    ];
    expect(rankVerifiedFirst(items).map((i) => i.id)).toEqual([2, 4, 1, 3]);
  });
  it('writes the claim memo as hex of its text', () => {
    expect(claimMemo('abc')).toEqual({ MemoType: '6C6564676572706164' + '2F636C61696D', MemoData: '616263' });
  });
});

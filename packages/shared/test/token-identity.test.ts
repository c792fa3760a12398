import { describe, expect, it } from 'vitest';
import {
  claimMemo,
  claimText,
  createAirdropSchema,
  DEPLOY_MESSAGES,
  deployFormSchema,
  foldIdentity,
  IDENTITY_MESSAGES,
  identityBadge,
  identityMark,
  isOwnImageUrl,
  isRlusdTicker,
  linkRefusal,
  listingFormSchema,
  listingRefusal,
  rankVerifiedFirst,
  RLUSD_CURRENCY_HEX,
} from '../src/index';
import { identityKey, lookalikeOf, phraseNamesProtected, reservedIdentityOf } from '../src/lookalike';

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

  it('ignores spacing and separators, and maps look-alike digits and letters (issue 35)', () => {
    // The names that came out Verified beside their spaced twins.
    for (const [a, b] of [
      ['RippleUSD', 'Ripple USD'],
      ['PaperMoon', 'Paper Moon'],
      ['LedgerCat', 'Ledger Cat'],
      ['HarborLight', 'Harbor Light'],
    ] as Array<[string, string]>)
      expect(identityKey(a)).toBe(identityKey(b));
    // The renames that kept the badge.
    expect(identityKey('R1pple USD')).toBe(identityKey('Ripple USD'));
    expect(identityKey('X R P')).toBe(identityKey('XRP'));
    expect(identityKey('X-R.P')).toBe(identityKey('XRP'));
    expect(identityKey('Z_E·T\u2009A')).toBe(identityKey('ZETA')); // underscore, middle dot, thin space
    expect(identityKey('P3P3')).toBe(identityKey('PEPE'));
    expect(identityKey('$H1B')).toBe(identityKey('SHIB'));
    expect(identityKey('Zéta')).toBe(identityKey('Zeta')); // accents
    expect(identityKey('Pаper Moon')).toBe(identityKey('PaperMoon')); // Cyrillic а
    // Nothing readable left: no key (it matches nothing).
    expect(identityKey('  ...  ')).toBe('');
    // Other scripts keep their letters.
    expect(identityKey('月光')).toBe('月光');
    expect(identityKey('ZETA')).not.toBe(identityKey('ZETB'));
  });

  it('is one fold: the web’s search fold is the same function without the confusables table', () => {
    expect(foldIdentity('R1pple  U.S.D')).toBe(identityKey('Ripple USD'));
    expect(foldIdentity('Paper Moon')).toBe(identityKey('PaperMoon'));
  });
});

describe('reserved identities and phrases', () => {
  it('reads XRP and RLUSD through every fold', () => {
    for (const t of ['XRP', 'X R P', 'xrp', '\u0425RP', 'Ripple']) expect(reservedIdentityOf(t)).toBe('XRP');
    for (const t of ['RLUSD', 'Ripple USD', 'RippleUSD', 'R1pple USD', 'RL-USD'])
      expect(reservedIdentityOf(t)).toBe('RLUSD');
    expect(reservedIdentityOf('Ripple Cat')).toBeNull();
  });
  it('finds a protected identity inside a longer project name, whatever its spacing', () => {
    // It names both 'Ripple' (XRP's) and RLUSD: either refuses it.
    expect(phraseNamesProtected('Ripple USD (RLUSD) Official Airdrop', [])).not.toBeNull();
    expect(phraseNamesProtected('(RLUSD) Official Airdrop', [])).toBe('RLUSD');
    expect(phraseNamesProtected('R L U S D giveaway', [])).toBe('RLUSD');
    const zeta = [{ id: 9, ticker: 'ZETA', name: 'Zeta Protocol' }];
    expect(phraseNamesProtected('ZetaProtocol community drop', zeta)).toBe('ZETA');
    expect(phraseNamesProtected('Moon Cats airdrop', zeta)).toBeNull();
    // The airdropped token's own ticker and name are its own.
    expect(
      phraseNamesProtected(
        'Zeta Protocol airdrop',
        zeta,
        new Set([identityKey('ZETA'), identityKey('Zeta Protocol')]),
      ),
    ).toBeNull();
    // Two-letter tickers are not looked for inside words of a phrase.
    expect(phraseNamesProtected('Claim on Friday', [{ ticker: 'ON', name: 'Onward' }])).toBeNull();
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
  it('ranks tokens that give way to none first, then proofs, and keeps the order within each group', () => {
    const items = [
      { id: 1, verified: false, lookalike_of: null },
      { id: 2, verified: true, lookalike_of: 'ZETA' }, // a squatter with a proof of its own issuer
      { id: 3, verified: false, lookalike_of: 'ZETA' },
      { id: 4, verified: true, lookalike_of: null },
      { id: 5, verified: true, lookalike_of: null },
    ];
    expect(rankVerifiedFirst(items).map((i) => i.id)).toEqual([4, 5, 1, 2, 3]);
  });
  it('writes the claim memo as hex of its text, which names what it grants', () => {
    expect(claimMemo('abc')).toEqual({
      MemoType: '6C6564676572706164' + '2F636C61696D',
      MemoData: '616263',
      MemoFormat: '746578742F706C61696E',
    });
    expect(claimText({ user: 'alice', userId: 7, ticker: 'ZETA', tokenId: 12, code: 'c0de' })).toBe(
      'Ledgerpad: make alice (user #7) controller of ZETA listing #12. Code c0de',
    );
  });
  it('says on the badge what was proven, and marks a token that gives way', () => {
    const t = (verified_by: string | null, verified = true, verified_domain: string | null = null) =>
      identityBadge({ verified, verified_by: verified_by as never, verified_domain });
    expect(t('wallet')).toBe('Controls the issuer');
    expect(t('challenge')).toBe('Controls the issuer');
    expect(t('deploy')).toBe('Deployed here');
    expect(t('toml', true, 'zeta.example')).toBe('zeta.example vouches');
    expect(t('admin')).toBe('Checked by Ledgerpad');
    expect(t(null, false)).toBe('Unverified');
    for (const text of ['wallet', 'challenge', 'deploy', 'toml', 'admin'].map((m) => t(m)))
      expect(text).not.toMatch(/real|official|verified/i);
    const same = {
      match: 'ticker' as const,
      ticker: 'ZETA',
      name: 'Zeta',
      issuer_address: 'r1',
      currency: 'X',
    };
    expect(identityMark({ lookalike_of: 'ZETA', same_as: same })).toBe('same ticker as ZETA');
    expect(identityMark({ lookalike_of: 'ZETA', same_as: { ...same, match: 'name' } })).toBe(
      'same name as Zeta',
    );
    expect(identityMark({ lookalike_of: 'RLUSD', same_as: null })).toBe('looks like RLUSD');
    expect(identityMark({ lookalike_of: null, same_as: null })).toBeNull();
  });
});

describe('links: https, no user:pw@, the label’s own site (every door)', () => {
  it('refuses a Twitter link elsewhere, userinfo and http', () => {
    expect(linkRefusal('twitter', 'https://x.com/zeta')).toBeNull();
    expect(linkRefusal('twitter', 'https://twitter.com/zeta')).toBeNull();
    expect(linkRefusal('twitter', 'https://phish.example/zeta')).toBe(DEPLOY_MESSAGES.twitter);
    expect(linkRefusal('twitter', 'https://x.com@phish.example/zeta')).toBe(DEPLOY_MESSAGES.linkUserinfo);
    expect(linkRefusal('website', 'https://user:pw@zeta.example/')).toBe(DEPLOY_MESSAGES.linkUserinfo);
    expect(linkRefusal('website', 'https://user@zeta.example/')).toBe(DEPLOY_MESSAGES.linkUserinfo);
    expect(linkRefusal('website', 'http://zeta.example/')).toBe(DEPLOY_MESSAGES.websiteHttps);
    expect(linkRefusal('website', 'javascript:alert(1)')).toBe(DEPLOY_MESSAGES.website);
    expect(linkRefusal('website', 'https://zeta.example/')).toBeNull();
    expect(linkRefusal('telegram', 'https://t.me/zeta')).toBeNull();
    expect(linkRefusal('telegram', 'https://t.me.evil.example/zeta')).toBe(DEPLOY_MESSAGES.telegram);
  });
  it('is the rule of the listing form and the airdrop form alike', () => {
    const listing = listingFormSchema.safeParse({
      name: 'Zeta',
      description: '',
      websiteLink: 'https://user:pw@zeta.example/',
    });
    expect(listing.error!.issues.map((i) => i.message)).toContain(DEPLOY_MESSAGES.linkUserinfo);
    const airdrop = createAirdropSchema.safeParse({
      sourceWalletId: 1,
      tokenCode: 'ZET',
      issuerAddress: ISSUER,
      projectName: 'Zeta drop',
      perUserType: 'fixed',
      totalTokenAmount: '10',
      fixedAmount: '1',
      deadline: new Date(Date.now() + 3600_000).toISOString(),
      twitter: 'https://phish.example/ripple',
      website: 'http://zeta.example',
    });
    const messages = airdrop.error!.issues.map((i) => [i.path[0], i.message]);
    expect(messages).toContainEqual(['twitter', DEPLOY_MESSAGES.twitter]);
    expect(messages).toContainEqual(['website', DEPLOY_MESSAGES.websiteHttps]);
  });
});

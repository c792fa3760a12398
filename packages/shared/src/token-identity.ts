import { LP_CURRENCY_PREFIX, RLUSD_CURRENCY_HEX } from './constants';
import { currencyToTicker, isHexCurrency, tickerToCurrency } from './currency';
import type { z } from 'zod';
import type {
  identityEventViewSchema,
  METADATA_SOURCES,
  tokenIdentitySchema,
} from './schemas/token-identity';
import type { VerificationMethod } from './verification-methods';

// Token identity (issues 24 and 35, docs/token-identity.md): who may say what a token is called,
// and what its badge means. A badge states exactly what was proven — the controller controls the
// issuer, the issuer's domain vouches for it, it was deployed here, an admin checked it — and never
// 'the real project'. Tokens whose tickers or names fold to the same key are ordered by ledger facts
// (the server's `rankSameIdentity`), and every one but the first reads 'same ticker as …'. The fold,
// the messages, the link rules and the claim texts live here, once, for the server (which decides)
// and the web (which shows the result); the confusables table stays in `lookalike.ts` (server only).

export { VERIFICATION_METHODS, type VerificationMethod } from './verification-methods';

/** The ways a lister can prove control of an issuer themselves. */
export const CLAIM_METHODS = ['wallet', 'challenge', 'toml'] as const;
export type ClaimMethod = (typeof CLAIM_METHODS)[number];

/** Who wrote a listing's name, description, logo and links. */
export type MetadataSource = (typeof METADATA_SOURCES)[number];

/** A claim challenge is valid this long after it is issued. */
export const CLAIM_CHALLENGE_TTL_MINUTES = 60;
/** A live code is handed out again (not replaced) while it has at least this long left. */
export const CLAIM_CODE_REUSE_MIN_MINUTES = 15;
/** Claim codes one user may be issued for one listing per hour (a reload reuses the live one). */
export const CLAIM_CODES_PER_HOUR = 5;
/** The memo type of a claim transaction (hex of this text on the ledger). */
const CLAIM_MEMO_TYPE = 'ledgerpad/claim';
/** The field of the token's [[CURRENCIES]] entry in xrp-ledger.toml that names its controller. */
export const TOML_CLAIM_FIELD = 'ledgerpad_claim';

/** How the badge names each proof: what was proven, never 'the real project'. */
const BADGE_TEXT: Record<VerificationMethod, string> = {
  deploy: 'Deployed here',
  wallet: 'Controls the issuer',
  challenge: 'Controls the issuer',
  toml: 'Domain vouches',
  admin: 'Checked by Ledgerpad',
  platform: 'Listed by Ledgerpad',
};

/** The badge's tooltip: what exactly the proof shows, and what it does not. */
const BADGE_TITLE: Record<VerificationMethod, string> = {
  deploy: 'Deployed through Ledgerpad: the issuer was created here. It says nothing about who is behind it.',
  wallet:
    'The listing’s controller proved control of the issuer (its key is in their Ledgerpad wallet). Anyone can issue any ticker: this is not proof of a project.',
  challenge:
    'The listing’s controller proved control of the issuer (the issuer signed a claim naming them). Anyone can issue any ticker: this is not proof of a project.',
  toml: 'The issuer’s Domain publishes an xrp-ledger.toml listing this issuer and currency.',
  admin: 'A Ledgerpad admin checked this listing.',
  platform: 'Listed by Ledgerpad itself (the network’s RLUSD).',
};

export const IDENTITY_MESSAGES = {
  unverified: 'Unverified',
  /** Kept for readers of the old single word; the badge now says what was proven (`identityBadge`). */
  verified: 'Verified',
  unverifiedTitle: 'Nobody proved control of the issuer: name, logo and links may not be the issuer’s',
  linksByLister: 'added by the lister, not the issuer',
  looksLike: (ticker: string) => `looks like ${ticker}`,
  sameTicker: (ticker: string) => `same ticker as ${ticker}`,
  sameName: (name: string) => `same name as ${name}`,
  sameAsTitle:
    'Another token with this ticker or name has more ledger history (first issuance, holders, trust lines, volume, a vouching domain). Check the issuer before you buy.',
  // Refusals when listing (each says why and what to do).
  xrp: 'XRP is the ledger’s own currency and cannot be listed as a token.',
  lpToken: 'LP tokens (codes starting with 03) belong to an AMM pool and cannot be listed.',
  rlusdCode: 'The RLUSD currency code is reserved for Ripple’s RLUSD issuer: this issuer is not it.',
  rlusdIssuer: 'The RLUSD issuer is listed by Ledgerpad itself, not by users.',
  rlusdTicker: 'RLUSD is reserved for Ripple’s stablecoin: choose another ticker.',
  reservedTicker: (ticker: string, reserved: string) =>
    `${ticker} reads as ${reserved}, which is reserved: choose another ticker.`,
  reservedName: (reserved: string) =>
    `This name reads as ${reserved}, which is reserved: choose another name.`,
  reservedListing: (reserved: string) =>
    `This token’s code reads as ${reserved}, which is reserved: it cannot be listed.`,
  verifiedTicker: (ticker: string) =>
    `This ticker reads as ${ticker}, the ticker of a verified token: choose another ticker.`,
  verifiedName: (ticker: string) => `This name reads as the verified token ${ticker}: choose another name.`,
  airdropToken: (ticker: string) =>
    `This token reads as ${ticker}, another issuer’s verified token: lookalike tokens cannot be airdropped.`,
  airdropProject: (ticker: string) =>
    `The project name reads as ${ticker}, which is not the airdropped token: name your own project.`,
  logoInUse: 'This logo is another token’s: upload your own.',
  // Claims.
  claimIntro:
    'Prove you control this issuer, and your name, description, logo and links replace the listing’s.',
  ownWallet: 'This issuer is one of your Ledgerpad wallets: there is nothing to send.',
  notOwnWallet: 'This issuer is not one of your Ledgerpad wallets.',
  challengeMissing: 'Ask for a claim code first.',
  challengeExpired: 'This claim code has expired. Ask for a new one.',
  challengeNotFound:
    'No validated transaction from this issuer carries your claim text yet. Send it, wait a few seconds, then check again.',
  codeLimit: `At most ${CLAIM_CODES_PER_HOUR} claim codes per listing an hour: use the code you have, or try again later.`,
  issuerCannotSign: 'This issuer can no longer sign (it is blackholed), so it cannot send a claim code.',
  noDomain: 'This issuer has no Domain set on the ledger, so there is no xrp-ledger.toml to read.',
  badDomain: 'The issuer’s Domain is not a valid domain name.',
  tomlFetch: (url: string, reason: string) => `Could not read ${url}: ${reason}`,
  tomlParse: (url: string) => `${url} is not valid TOML.`,
  tomlNoIssuer: (url: string) => `${url} does not list this issuer under [[ISSUERS]].`,
  tomlNoCurrency: (url: string, ticker: string) =>
    `${url} does not list ${ticker} from this issuer under [[CURRENCIES]].`,
  tomlVerifiedOnly: (domain: string) =>
    `${domain} vouches for this token, so the listing now says so; its ${TOML_CLAIM_FIELD} line does not name you, so nobody became its controller.`,
  notController: 'Only the issuer’s proven controller or an admin can change this listing.',
  tokenNotFound: 'Token not found',
  alreadyListedHelp:
    'If you control this issuer, claim the listing: prove control and your details replace the lister’s.',
  lostControl: (ticker: string, when: string, how: string) =>
    `You are no longer the controller of ${ticker}: another user proved control of the issuer (${how}) on ${when}.`,
} as const;

/** What the claim transaction's memo (and the TOML's claim line) says, in words the issuer reads. */
export function claimText(c: {
  user: string;
  userId: number;
  ticker: string;
  tokenId: number;
  code: string;
}): string {
  return `Ledgerpad: make ${c.user} (user #${c.userId}) controller of ${c.ticker} listing #${c.tokenId}. Code ${c.code}`;
}

// --- The lookalike fold ---------------------------------------------------------------------------

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Zero-width characters, soft hyphen, word joiner, BOM and the bidi controls (overrides, isolates, marks). */
const INVISIBLE: ReadonlySet<number> = new Set([
  0xad,
  0x34f,
  0x61c,
  0x115f,
  0x1160,
  0x17b4,
  0x17b5,
  0x180e,
  ...range(0x200b, 0x200f),
  ...range(0x202a, 0x202e),
  ...range(0x2060, 0x2069),
  0xfeff,
]);

/** Digits, symbols and letter pairs that read as a letter in a token list (after lower-casing). */
const LOOKALIKE_PAIRS: ReadonlyArray<[RegExp, string]> = [
  [/rn/g, 'm'],
  [/vv/g, 'w'],
];
const LOOKALIKE_CHARS: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'l',
  i: 'l',
  '|': 'l',
  '!': 'l',
  '2': 'z',
  '3': 'e',
  '4': 'a',
  '@': 'a',
  '5': 's',
  $: 's',
  '6': 'g',
  '7': 't',
  '8': 'b',
  '9': 'g',
};
/** Spaces, punctuation, symbols, control and format characters: separators, never part of a name. */
const SEPARATORS = /[\p{White_Space}\p{P}\p{S}\p{C}]/gu;

/**
 * THE lookalike fold (issue 35): NFKC (full-width and compatibility forms), invisible and bidi
 * characters removed, `skeleton` (Unicode's confusables — the server passes unhomoglyph's, see
 * `@ledgerpad/shared/lookalike` `identityKey`; the web, which only folds what a user types into a
 * search box, leaves it out), accents removed, case ignored, look-alike digits and letters mapped
 * (0→o, 1/i/|→l, 5/$→s, rn→m …), and every space and separator removed: 'R1pple  U.S.D', 'X R P',
 * 'PaperMoon' and 'Paper Moon' fold alike. Empty when nothing readable is left.
 */
export function foldIdentity(text: string, skeleton: (s: string) => string = (s) => s): string {
  const visible = Array.from(text.normalize('NFKC'))
    .filter((c) => !INVISIBLE.has(c.codePointAt(0)!))
    .join('');
  let out = skeleton(visible).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  out = Array.from(out, (c) => LOOKALIKE_CHARS[c] ?? c).join('');
  out = out.replace(SEPARATORS, '');
  for (const [pair, to] of LOOKALIKE_PAIRS) out = out.replace(pair, to);
  return out;
}

/**
 * The folded runs of consecutive words of a free text (a project name, a tagline): 'Ripple USD
 * (RLUSD) Official Airdrop' gives 'ripple', 'rippleusd', 'rlusd', … so a protected identity inside
 * a longer name is found whatever its spacing ('R L U S D' gives 'rlusd' too).
 */
export function foldedPhrases(text: string, fold: (s: string) => string, maxWords = 8): Set<string> {
  const words = text
    .normalize('NFKC')
    .split(/[\p{White_Space}()[\]{}<>,;:"'“”‘’«»/\\|-]+/u)
    .map(fold)
    .filter((w) => w !== '');
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    let run = '';
    for (let j = i; j < Math.min(words.length, i + maxWords); j++) {
      run += words[j];
      out.add(run);
    }
  }
  return out;
}

// --- What may be listed ---------------------------------------------------------------------------

/**
 * Why (issuer, currency) may not be listed by a user, or null. `rlusdIssuer` is the network's
 * configured RLUSD issuer; admins may list that issuer (as the platform), nobody may list another
 * issuer's RLUSD code, an LP code or XRP.
 */
export function listingRefusal(
  issuer: string,
  currency: string,
  rlusdIssuer: string | undefined,
  admin: boolean,
): string | null {
  const code = isHexCurrency(currency) ? currency.toUpperCase() : currency;
  if (code.toUpperCase() === 'XRP' || currencyToTicker(code).toUpperCase() === 'XRP')
    return IDENTITY_MESSAGES.xrp;
  if (isHexCurrency(code) && code.startsWith(LP_CURRENCY_PREFIX)) return IDENTITY_MESSAGES.lpToken;
  if (rlusdIssuer && issuer === rlusdIssuer) return admin ? null : IDENTITY_MESSAGES.rlusdIssuer;
  if (code === RLUSD_CURRENCY_HEX) return IDENTITY_MESSAGES.rlusdCode;
  return null;
}

/** True when `ticker` would be written to the ledger as RLUSD's own currency code. */
export function isRlusdTicker(ticker: string): boolean {
  try {
    return tickerToCurrency(ticker.trim()) === RLUSD_CURRENCY_HEX;
  } catch {
    return false;
  }
}

// --- Images ---------------------------------------------------------------------------------------

/**
 * A logo path on our own origin (`/images/…` or `/cdn/logos/…`, one plain file name). Anything
 * else — an external URL a row may still hold from before — is never rendered (the CSP allows
 * images only from our origin and data:).
 */
export function isOwnImageUrl(url: string | null | undefined): url is string {
  return (
    typeof url === 'string' &&
    /^\/(?:images|cdn\/logos)\/[A-Za-z0-9._-]{1,200}$/.test(url) &&
    !url.includes('..')
  );
}

// --- Views and requests ---------------------------------------------------------------------------
// (Their zod schemas — SameAsRef, TokenSuggestion, the claim and admin requests — are in
// schemas/token-identity.ts: this module runs on the landing list, zod stays off it.)

/**
 * The identity fields every token view carries (TokenView has them): the type of their schema in
 * schemas/token-identity.ts (a type-only import: no zod in this module's JavaScript).
 */
export type TokenIdentity = z.infer<typeof tokenIdentitySchema>;

/** The path of a token's page: one page per (issuer, currency). */
export const tokenPath = (issuer: string, currency?: string): string =>
  currency ? `/token/${issuer}/${encodeURIComponent(currency)}` : `/token/${issuer}`;

/** The badge text of a token: what was proven ('Controls the issuer', 'example.com vouches', …) or 'Unverified'. */
export function identityBadge(
  t: Pick<TokenIdentity, 'verified' | 'verified_by' | 'verified_domain'>,
): string {
  if (!t.verified) return IDENTITY_MESSAGES.unverified;
  if (t.verified_by === 'toml' && t.verified_domain) return `${t.verified_domain} vouches`;
  return t.verified_by ? BADGE_TEXT[t.verified_by] : IDENTITY_MESSAGES.verified;
}

/** The badge's tooltip: exactly what the proof shows. */
export function identityBadgeTitle(
  t: Pick<TokenIdentity, 'verified' | 'verified_by' | 'verified_domain'>,
): string {
  if (!t.verified) return IDENTITY_MESSAGES.unverifiedTitle;
  const base = t.verified_by ? BADGE_TITLE[t.verified_by] : BADGE_TITLE.admin;
  // A domain's vouch on top of another proof is said too.
  return t.verified_domain && t.verified_by !== 'toml'
    ? `${base} ${t.verified_domain}’s xrp-ledger.toml also lists it.`
    : base;
}

/** The mark of a token that gives way to another: 'same ticker as ZETA', 'looks like RLUSD', or null. */
export function identityMark(t: Pick<TokenIdentity, 'lookalike_of' | 'same_as'>): string | null {
  if (t.same_as)
    return t.same_as.match === 'ticker'
      ? IDENTITY_MESSAGES.sameTicker(t.same_as.ticker)
      : IDENTITY_MESSAGES.sameName(t.same_as.name);
  return t.lookalike_of ? IDENTITY_MESSAGES.looksLike(t.lookalike_of) : null;
}

/**
 * Search and autocomplete order: tokens that give way to no other first (ledger facts decided it,
 * `rankSameIdentity`), then those with a proof, each group in its given order. A squatter's token
 * never comes before the one it copies, whatever it proved.
 */
export function rankVerifiedFirst<T extends Pick<TokenIdentity, 'verified' | 'lookalike_of'>>(
  items: readonly T[],
): T[] {
  const rank = (t: T) => (t.lookalike_of ? 2 : 0) + (t.verified ? 0 : 1);
  return items
    .map((t, i) => ({ t, i }))
    .sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i)
    .map((x) => x.t);
}

/** One public row of a token's identity history (GET /api/tokens/{issuer}/identity-history). */
export type IdentityEventView = z.infer<typeof identityEventViewSchema>;

/** The claim memo's fields as the ledger stores them (hex of UTF-8 text; `text/plain` so wallets show it). */
export function claimMemo(text: string): { MemoType: string; MemoData: string; MemoFormat: string } {
  const hex = (s: string) =>
    Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase();
  return { MemoType: hex(CLAIM_MEMO_TYPE), MemoData: hex(text), MemoFormat: hex('text/plain') };
}

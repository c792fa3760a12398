import { z } from 'zod';
import { LP_CURRENCY_PREFIX, RLUSD_CURRENCY_HEX } from './constants';
import { currencyToTicker, isHexCurrency, tickerToCurrency } from './currency';
import { idSchema } from './schemas/common';

// Token identity (issue 24): who may say what a token is called, and when a listing is "verified".
// A listing is verified only when the lister proved control of the issuer (one of their own
// Ledgerpad wallets, a one-time challenge sent by the issuer on the ledger, or the issuer's
// xrp-ledger.toml) or the token was deployed here; facts come from the ledger. Lookalike rules live
// here, once, for the server (which decides) and the web (which shows the result).

/** How control of the issuer was proven (or who vouched for the listing). */
export const VERIFICATION_METHODS = ['deploy', 'wallet', 'challenge', 'toml', 'admin', 'platform'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/** The ways a lister can prove control of an issuer themselves. */
export const CLAIM_METHODS = ['wallet', 'challenge', 'toml'] as const;
export type ClaimMethod = (typeof CLAIM_METHODS)[number];

/** Who wrote a listing's name, description, logo and links. */
export type MetadataSource = 'issuer' | 'lister' | 'admin';

/** A claim challenge is valid this long after it is issued. */
export const CLAIM_CHALLENGE_TTL_MINUTES = 60;
/** The memo type of a claim transaction (hex of this text on the ledger). */
const CLAIM_MEMO_TYPE = 'ledgerpad/claim';

export const IDENTITY_MESSAGES = {
  unverified: 'Unverified',
  verified: 'Verified',
  linksByLister: 'added by the lister, not the issuer',
  looksLike: (ticker: string) => `looks like ${ticker}`,
  // Refusals when listing (each says why and what to do).
  xrp: 'XRP is the ledger’s own currency and cannot be listed as a token.',
  lpToken: 'LP tokens (codes starting with 03) belong to an AMM pool and cannot be listed.',
  rlusdCode: 'The RLUSD currency code is reserved for Ripple’s RLUSD issuer: this issuer is not it.',
  rlusdIssuer: 'The RLUSD issuer is listed by Ledgerpad itself, not by users.',
  rlusdTicker: 'RLUSD is reserved for Ripple’s stablecoin: choose another ticker.',
  // Claims.
  claimIntro:
    'Prove you control this issuer, and your name, description, logo and links replace the listing’s.',
  ownWallet: 'This issuer is one of your Ledgerpad wallets: there is nothing to send.',
  notOwnWallet: 'This issuer is not one of your Ledgerpad wallets.',
  challengeMissing: 'Ask for a claim code first.',
  challengeExpired: 'This claim code has expired. Ask for a new one.',
  challengeNotFound:
    'No validated transaction from this issuer carries the claim code yet. Send it, wait a few seconds, then check again.',
  issuerCannotSign: 'This issuer can no longer sign (it is blackholed), so it cannot send a claim code.',
  noDomain: 'This issuer has no Domain set on the ledger, so there is no xrp-ledger.toml to read.',
  badDomain: 'The issuer’s Domain is not a valid domain name.',
  tomlFetch: (url: string, reason: string) => `Could not read ${url}: ${reason}`,
  tomlParse: (url: string) => `${url} is not valid TOML.`,
  tomlNoIssuer: (url: string) => `${url} does not list this issuer under [[ISSUERS]].`,
  tomlNoCurrency: (url: string, ticker: string) =>
    `${url} does not list ${ticker} from this issuer under [[CURRENCIES]].`,
  notController: 'Only the issuer’s proven controller or an admin can change this listing.',
  tokenNotFound: 'Token not found',
  alreadyListedHelp:
    'If you control this issuer, claim the listing: prove control and your details replace the lister’s.',
} as const;

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

/** The identity fields every token view carries (TokenView extends this). */
export interface TokenIdentity {
  /** Control of the issuer proven (or deployed here, or vouched for by an admin) and not a lookalike. */
  verified: boolean;
  verified_by: VerificationMethod | null;
  /** The ticker of the verified token this one looks like ('looks like {TICKER}'), or null. */
  lookalike_of: string | null;
  /** Who wrote the name, description, logo and links ('lister': not proven to be the issuer). */
  metadata_by: MetadataSource;
}

/** The badge text of a token: 'Verified' or 'Unverified'. */
export const identityBadge = (t: Pick<TokenIdentity, 'verified'>): string =>
  t.verified ? IDENTITY_MESSAGES.verified : IDENTITY_MESSAGES.unverified;

/** A suggestion of the swap autocomplete (spec 001 §3 "Suggestion", plus its identity). */
export interface TokenSuggestion extends Pick<TokenIdentity, 'verified' | 'lookalike_of'> {
  ticker: string;
  name: string;
  issuer_address: string;
}

/** Verified first, then the rest in their given order (search results, the swap autocomplete). */
export function rankVerifiedFirst<T extends Pick<TokenIdentity, 'verified'>>(items: readonly T[]): T[] {
  return [...items.filter((t) => t.verified), ...items.filter((t) => !t.verified)];
}

/** A token id in a body (`token_id`). */
export const tokenIdSchema = idSchema('token_id');

/** POST /api/listing/claims: a claim code for this listing, bound to the caller. */
export const claimChallengeRequestSchema = z.object({ token_id: tokenIdSchema });

/** The AccountSet that carries a claim code: no flag, no field changed, only the memo. */
export interface ClaimTransaction {
  TransactionType: 'AccountSet';
  Account: string;
  Memos: Array<{ Memo: { MemoType: string; MemoData: string } }>;
}

/** POST /api/listing/claims: what the issuer must send (or that there is nothing to send). */
export interface ClaimChallengeView {
  token_id: number;
  issuer_address: string;
  ticker: string;
  /** The issuer is one of the caller's Ledgerpad wallets: the 'wallet' method proves it as is. */
  own_wallet: boolean;
  /** The claim code as text (the memo's data), and when it stops counting. */
  code: string;
  expires_at: string;
  transaction: ClaimTransaction;
  /** The issuer's Domain (for the TOML method), if it has one. */
  domain: string | null;
  /** Where the TOML method looks, when the issuer has a Domain. */
  toml_url: string | null;
}

/** GET /api/listing/control?token_id=: may the caller edit this listing? */
export interface ListingControlView {
  token_id: number;
  controller: boolean;
  admin: boolean;
  own_wallet: boolean;
}

/** Admin Tokens tab: POST /api/admin/tokens/:id/verify and /hide. */
export const adminVerifyTokenSchema = z.object({
  verified: z.boolean({ message: 'verified must be true or false' }),
  csrf_token: z.string().optional(),
});
export const adminHideTokenSchema = z.object({
  hidden: z.boolean({ message: 'hidden must be true or false' }),
  csrf_token: z.string().optional(),
});
/** The claim memo's fields as the ledger stores them (hex of UTF-8 text). */
export function claimMemo(code: string): { MemoType: string; MemoData: string } {
  const hex = (s: string) =>
    Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase();
  return { MemoType: hex(CLAIM_MEMO_TYPE), MemoData: hex(code) };
}

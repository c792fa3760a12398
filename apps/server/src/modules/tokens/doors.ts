import { and, eq, isNull, ne } from 'drizzle-orm';
import { IDENTITY_MESSAGES, RLUSD_CURRENCY_HEX, currencyToTicker } from '@ledgerpad/shared';
import {
  type IdentityCandidate,
  identityKey,
  identityKeys,
  phraseNamesProtected,
  reservedIdentityOf,
} from '@ledgerpad/shared/lookalike';
import type { Db } from '../../db/client';
import { tokens } from './schema';

// Every door that names a token checks its identity with the same rules (issue 35,
// docs/token-identity.md "Every door"): deploys, listings, renames (a controller's update, a claim's
// metadata, the admin's edit) and airdrops. XRP's and RLUSD's identities are refused everywhere;
// a protected token's (verified, giving way to none) ticker and name are refused to a new token,
// and to another token's name — a token sharing its ticker on the ledger is listed and ordered by
// ledger facts instead (`identity-rank.ts`), never refused, so a real issuer is never locked out.

/**
 * Ticker and name of every protected token: verified, listed, and giving way to no other (what a
 * deploy, a listing's name, a rename or an airdrop must not read as). With currency and issuer, so
 * a door can tell the token itself from a lookalike.
 */
export async function protectedIdentities(
  db: Db,
): Promise<Array<IdentityCandidate & { currency: string; issuerAddress: string }>> {
  return db
    .select({
      id: tokens.id,
      ticker: tokens.ticker,
      name: tokens.name,
      currency: tokens.currency,
      issuerAddress: tokens.issuerAddress,
    })
    .from(tokens)
    .where(and(eq(tokens.verified, true), isNull(tokens.lookalikeOf), eq(tokens.isActive, true)));
}

/** A refusal: the form field it is about and the sentence to show. */
export interface IdentityRefusal {
  field: string;
  message: string;
}

export interface TokenIdentityCheck {
  /** 'deploy': a new ticker and name; 'listing': a ledger ticker and a chosen name; 'rename': a name. */
  door: 'deploy' | 'listing' | 'rename';
  ticker: string;
  name: string;
  /** The token itself, when it exists (a listing or a rename): its own identity is not a lookalike. */
  issuer?: string;
  currency?: string;
}

const sameToken = (p: { issuerAddress: string; currency: string }, issuer?: string, currency?: string) =>
  p.issuerAddress === issuer && p.currency === currency;

/** Why this ticker and name may not be used at this door, or null. */
export async function tokenIdentityRefusal(
  db: Db,
  rlusdIssuer: string | undefined,
  c: TokenIdentityCheck,
): Promise<IdentityRefusal | null> {
  const platformRlusd =
    c.currency === RLUSD_CURRENCY_HEX && c.issuer !== undefined && c.issuer === rlusdIssuer;
  if (!platformRlusd) {
    const tickerReserved = reservedIdentityOf(c.ticker);
    if (tickerReserved && c.door === 'deploy')
      return { field: 'ticker', message: IDENTITY_MESSAGES.reservedTicker(c.ticker, tickerReserved) };
    if (tickerReserved && c.door === 'listing')
      return { field: 'currency', message: IDENTITY_MESSAGES.reservedListing(tickerReserved) };
    const nameReserved = reservedIdentityOf(c.name);
    if (nameReserved) return { field: 'name', message: IDENTITY_MESSAGES.reservedName(nameReserved) };
  }
  const tickerKey = identityKey(c.ticker);
  const nameKey = identityKey(c.name);
  for (const p of await protectedIdentities(db)) {
    if (sameToken(p, c.issuer, c.currency)) continue;
    const theirs = identityKeys(p);
    // A token already on the ledger with the same ticker is ordered by facts, not refused; a new
    // deploy may not take a protected ticker.
    if (c.door === 'deploy' && theirs.has(tickerKey))
      return { field: 'ticker', message: IDENTITY_MESSAGES.verifiedTicker(p.ticker) };
    // A chosen name reading as another token's ticker or name, unless the two share the ticker on
    // the ledger (then ledger facts decide which reads 'same name as').
    if (nameKey !== '' && theirs.has(nameKey) && identityKey(p.ticker) !== tickerKey)
      return { field: 'name', message: IDENTITY_MESSAGES.verifiedName(p.ticker) };
    if (c.door === 'deploy' && nameKey !== '' && theirs.has(nameKey))
      return { field: 'name', message: IDENTITY_MESSAGES.verifiedName(p.ticker) };
  }
  return null;
}

export interface AirdropIdentityCheck {
  issuer: string;
  currency: string;
  projectName: string;
  tagline: string;
}

/**
 * Why an airdrop may not run under this token and these words, or null: RLUSD's code from another
 * issuer, a ticker reading as XRP, RLUSD or another issuer's protected token, or a project name or
 * tagline naming one of them (the airdropped token's own ticker and listed name are its own).
 */
export async function airdropIdentityRefusal(
  db: Db,
  rlusdIssuer: string | undefined,
  c: AirdropIdentityCheck,
): Promise<IdentityRefusal | null> {
  const platformRlusd = c.currency === RLUSD_CURRENCY_HEX && c.issuer === rlusdIssuer;
  if (c.currency === RLUSD_CURRENCY_HEX && !platformRlusd)
    return { field: 'tokenCode', message: IDENTITY_MESSAGES.rlusdCode };
  const ticker = currencyToTicker(c.currency);
  if (!platformRlusd) {
    const reserved = reservedIdentityOf(ticker);
    if (reserved) return { field: 'tokenCode', message: IDENTITY_MESSAGES.reservedListing(reserved) };
  }
  const protectedTokens = await protectedIdentities(db);
  const tickerKey = identityKey(ticker);
  for (const p of protectedTokens) {
    if (sameToken(p, c.issuer, c.currency)) continue;
    if (identityKeys(p).has(tickerKey))
      return { field: 'tokenCode', message: IDENTITY_MESSAGES.airdropToken(p.ticker) };
  }
  const [listed] = await db
    .select({ name: tokens.name })
    .from(tokens)
    .where(and(eq(tokens.issuerAddress, c.issuer), eq(tokens.currency, c.currency)));
  const own = identityKeys({ ticker, name: listed?.name ?? '' });
  const others = protectedTokens.filter((p) => !sameToken(p, c.issuer, c.currency));
  for (const [field, text] of [
    ['projectName', c.projectName],
    ['tagline', c.tagline],
  ] as const) {
    const named = phraseNamesProtected(text, others, platformRlusd ? own : ownExceptReserved(own));
    if (named) return { field, message: IDENTITY_MESSAGES.airdropProject(named) };
  }
  return null;
}

/** A token's own keys, minus any that read as a reserved identity (those stay protected). */
function ownExceptReserved(own: Set<string>): Set<string> {
  return new Set([...own].filter((k) => reservedIdentityOf(k) === null));
}

/** The token (other than `exceptId`) that already shows this logo, if any. */
export async function logoTakenBy(db: Db, logoUrl: string, exceptId?: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: tokens.id })
    .from(tokens)
    .where(
      exceptId === undefined
        ? eq(tokens.logoUrl, logoUrl)
        : and(eq(tokens.logoUrl, logoUrl), ne(tokens.id, exceptId)),
    )
    .limit(1);
  return row?.id;
}

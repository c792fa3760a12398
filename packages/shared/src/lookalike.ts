import unhomoglyph from 'unhomoglyph';
import { RLUSD_TICKER } from './constants';
import { foldIdentity, foldedPhrases } from './token-identity';

// The lookalike rule of token identity (issues 24, 35), apart from token-identity.ts because it
// carries Unicode's confusables table (unhomoglyph, ~100 KB): only the server decides lookalikes, so
// the web bundle never loads it. Import it as '@ledgerpad/shared/lookalike'.

/** Unicode's confusables skeleton (Cyrillic/Greek homoglyphs …), applied twice: some map in two steps. */
const skeleton = (s: string) => unhomoglyph(unhomoglyph(s.toLowerCase()).toLowerCase());

const memo = new Map<string, string>();
/**
 * The key two tickers or names are compared by: `foldIdentity` with Unicode's confusables. Every
 * door (deploy, listing, rename, airdrop, admin), search and the autocomplete compare by it.
 */
export function identityKey(text: string): string {
  let key = memo.get(text);
  if (key === undefined) {
    key = foldIdentity(text, skeleton);
    // Tickers and names repeat (every snapshot, every search): bounded, cleared when full.
    if (memo.size > 50_000) memo.clear();
    memo.set(text, key);
  }
  return key;
}

/** The folded word runs of a free text (`foldedPhrases` with `identityKey`). */
export const identityPhrases = (text: string): Set<string> => foldedPhrases(text, identityKey);

/** Identities no user token may wear: the ledger's own currency and the platform's stablecoin. */
export const RESERVED_IDENTITIES: ReadonlyArray<{ ticker: string; names: readonly string[] }> = [
  { ticker: 'XRP', names: ['XRP', 'Ripple', 'XRP Ledger'] },
  { ticker: RLUSD_TICKER, names: [RLUSD_TICKER, 'Ripple USD', 'RLUSD Stablecoin'] },
];

const reservedKeys = (): Map<string, string> => {
  const out = new Map<string, string>();
  for (const r of RESERVED_IDENTITIES)
    for (const n of [r.ticker, ...r.names]) out.set(identityKey(n), r.ticker);
  return out;
};
let reserved: Map<string, string> | undefined;

/** The reserved identity ('XRP', 'RLUSD') a ticker or name folds to, or null. */
export function reservedIdentityOf(text: string): string | null {
  reserved ??= reservedKeys();
  return reserved.get(identityKey(text)) ?? null;
}

export interface IdentityCandidate {
  id?: number;
  ticker: string;
  name: string;
}

/** The keys a token is known by: its ticker's and its name's (empty ones left out). */
export function identityKeys(t: { ticker: string; name: string }): Set<string> {
  return new Set([identityKey(t.ticker), identityKey(t.name)].filter((k) => k !== ''));
}

/**
 * The ticker of the reserved identity or other token this one reads as, or null: a ticker or a
 * name equal, by `identityKey`, to one of theirs (a token never reads as itself).
 */
export function lookalikeOf(
  candidate: IdentityCandidate,
  others: ReadonlyArray<IdentityCandidate>,
): string | null {
  const mine = identityKeys(candidate);
  const reservedHit = [...mine].map((k) => (reserved ??= reservedKeys()).get(k)).find(Boolean);
  if (reservedHit) return reservedHit;
  for (const v of others) {
    if (v.id !== undefined && v.id === candidate.id) continue;
    for (const k of identityKeys(v)) if (mine.has(k)) return v.ticker;
  }
  return null;
}

/**
 * The protected identity a free text (an airdrop's project name) names, or null: a run of its
 * words folding to a reserved identity or to a protected token's ticker or name (keys of 3 or more
 * characters: 'ON' inside 'Claim on Friday' is no one's). `own`: the keys of the token the text is
 * about (its own ticker and name are allowed).
 */
export function phraseNamesProtected(
  text: string,
  protectedTokens: ReadonlyArray<IdentityCandidate>,
  own: ReadonlySet<string> = new Set(),
): string | null {
  const phrases = identityPhrases(text);
  reserved ??= reservedKeys();
  for (const [key, ticker] of reserved) if (phrases.has(key) && !own.has(key)) return ticker;
  for (const t of protectedTokens)
    for (const k of identityKeys(t)) if (k.length >= 3 && phrases.has(k) && !own.has(k)) return t.ticker;
  return null;
}

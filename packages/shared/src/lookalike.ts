import unhomoglyph from 'unhomoglyph';
import { RLUSD_TICKER } from './constants';

// The lookalike rule of token identity (issue 24), apart from token-identity.ts because it carries
// Unicode's confusables table (unhomoglyph, ~100 KB): only the server decides lookalikes, so the
// web bundle never loads it. Import it as '@ledgerpad/shared/lookalike'.

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

/**
 * The key two tickers or names are compared by: NFKC (full-width and compatibility forms),
 * invisible and bidi characters removed, Unicode's confusable characters mapped to their Latin
 * "skeleton" (Cyrillic/Greek homoglyphs, 0/O, 1/l …, via unhomoglyph, which ships Unicode's
 * confusables.txt), case ignored, spaces collapsed.
 */
export function identityKey(text: string): string {
  const visible = Array.from(text.normalize('NFKC'))
    .filter((c) => !INVISIBLE.has(c.codePointAt(0)!))
    .join('');
  return unhomoglyph(unhomoglyph(visible.toLowerCase()).toLowerCase())
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Identities no user token may wear: the ledger's own currency and the platform's stablecoin. */
const RESERVED_IDENTITIES: ReadonlyArray<{ ticker: string; name: string }> = [
  { ticker: 'XRP', name: 'XRP' },
  { ticker: RLUSD_TICKER, name: 'Ripple USD' },
];

export interface IdentityCandidate {
  id?: number;
  ticker: string;
  name: string;
}

/**
 * The ticker of the verified token (or reserved identity) this one looks like, or null. Matching
 * is on the ticker or the name, each by `identityKey`; a token never looks like itself.
 */
export function lookalikeOf(
  candidate: IdentityCandidate,
  verified: ReadonlyArray<IdentityCandidate>,
): string | null {
  const ticker = identityKey(candidate.ticker);
  const name = identityKey(candidate.name);
  for (const v of [...RESERVED_IDENTITIES, ...verified]) {
    if ('id' in v && v.id !== undefined && v.id === candidate.id) continue;
    const vt = identityKey(v.ticker);
    const vn = identityKey(v.name);
    if (ticker === vt || (name !== '' && name === vn) || name === vt || ticker === vn) return v.ticker;
  }
  return null;
}

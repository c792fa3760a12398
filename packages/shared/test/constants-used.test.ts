import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Spec constants are single-sourced (issue 29): every constant packages/shared exports from
// constants.ts is used by some source file, and the values that were once typed again as literals
// do not come back. A new constant nobody reads, or a literal copy of one, fails here.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const CONSTANTS = path.join(ROOT, 'packages/shared/src/constants.ts');
const SOURCES = ['apps/server/src', 'apps/web/src', 'packages/shared/src', 'scripts'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx|mts)$/.test(name) ? [p] : [];
  });
}

const sources = SOURCES.flatMap((d) => files(path.join(ROOT, d)))
  .filter((f) => f !== CONSTANTS)
  .map((f) => ({ file: path.relative(ROOT, f), text: readFileSync(f, 'utf8') }));

/** Literal copies of spec constants, each with the constant to use instead. */
const LITERALS: Array<{ pattern: RegExp; use: string; except?: string[] }> = [
  { pattern: /\bTOP = 10\b/, use: 'ORDER_BOOK_TOP_N' },
  { pattern: /'1e-10'/, use: 'ORDER_BOOK_MIN_VALUE' },
  { pattern: /\buserId === 1\b/, use: 'OWNER_USER_ID' },
  { pattern: /\.limit\(100\)/, use: 'ADMIN_FEE_OVERRIDE_LIST_CAP' },
  { pattern: /\b9 \* 60_000\b/, use: 'SOCKET_TOKEN_CACHE_MS' },
  { pattern: /\[25, 50, 75, 100\]/, use: 'PERCENT_PRESETS' },
  { pattern: /\[10, 50, 100\]/, use: 'XRP_PRESETS' },
  { pattern: /setTimeout\([^;]*,\s*(5_?000|6_?000)\)/, use: 'STATUS_FADE_MS / STATUS_CLEAR_MS' },
  {
    pattern: /(\.(div|mul)\(|[*/] )(1_000_000|1000000)\b/,
    use: 'the money helpers (dropsToDecimal, decimalToDrops, microsToUnits, unitsToMicros)',
  },
  { pattern: /XRP Ledger is not reachable/, use: 'LEDGER_UNAVAILABLE_MESSAGE' },
  // The ledger's vocabulary (issue 41): protocol facts come from xrpl.js or from one constant here.
  {
    pattern: /946_?684_?800/,
    use: "xrpl.js's rippleTimeToUnixTime / unixTimeToRippleTime, or RIPPLE_EPOCH_UNIX_S",
  },
  {
    pattern: /\b(SetFlag|ClearFlag|Flags)\s*[:=]\s*\(?\s*\d/,
    use: "xrpl.js's flag enums (AccountSetAsfFlags, TrustSetFlags, OfferCreateFlags, PaymentFlags, …)",
  },
  {
    pattern: /\bconst (ASF|TF|LSF)_\w+\s*=\s*\d/,
    use: "xrpl.js's flag enums (AccountSetAsfFlags, AccountRootFlags, …)",
  },
  {
    pattern: /\b(flags|Flags)\s*&\s*\d/,
    use: "xrpl.js's flag enums (GlobalFlags, LedgerEntry.AccountRootFlags, …)",
  },
  { pattern: /'1_?000_?000_?000_?000_?000'/, use: 'TRUST_LINE_MAX_LIMIT' },
  {
    pattern: /'793_?100_?000'|\b793_100_000n?\b|['`][^'`\n]*793,100,000/,
    use: 'BONDING_CURVE_SUPPLY (groupDigits of it in a message)',
    except: ['packages/shared/src/bonding.ts'],
  },
  {
    pattern: /\btype LedgerAmount =/,
    use: 'LedgerAmount from @ledgerpad/shared',
    except: ['packages/shared/src/money.ts'],
  },
  {
    pattern: /reserve\w*\s*(=|\?\?|:)\s*(BigInt\()?(1_?000_?000|200_?000)n?\b/i,
    use: 'DEFAULT_RESERVE_BASE_DROPS / DEFAULT_RESERVE_INCREMENT_DROPS',
  },
  { pattern: /\b(drops|Drops|DROPS)\w*\s*=\s*1_?000_?000n\b/, use: 'DROPS_PER_XRP' },
];

/**
 * Flag values typed as numbers: a hex literal of one bit at or above 0x10000 (where the ledger's
 * transaction and ledger-entry flags live) is a flag whatever it is named. The small hex literals of
 * byte parsing (0x80, 0x40) and masks like 0xffffffff are not single high bits.
 */
function handTypedFlags(text: string): string[] {
  return [...text.matchAll(/\b0x[0-9a-fA-F_]+\b/g)]
    .map((m) => m[0])
    .filter((hex) => {
      const v = BigInt(hex.replace(/_/g, ''));
      return v >= 0x10000n && (v & (v - 1n)) === 0n;
    });
}

describe('spec constants', () => {
  it('are each used by some source file', () => {
    const names = [...readFileSync(CONSTANTS, 'utf8').matchAll(/^export const (\w+)/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(50);
    const unused = names.filter((n) => !sources.some((s) => new RegExp(`\\b${n}\\b`).test(s.text)));
    expect(unused).toEqual([]);
  });

  it('are not typed again as literals', () => {
    const found = sources.flatMap((s) =>
      LITERALS.filter((l) => !l.except?.includes(s.file) && l.pattern.test(s.text)).map(
        (l) => `${s.file}: ${l.pattern} (use ${l.use})`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('include no hand-typed ledger flag (xrpl.js names them)', () => {
    const found = sources.flatMap((s) => handTypedFlags(s.text).map((hex) => `${s.file}: ${hex}`));
    expect(found).toEqual([]);
  });

  it('reach packages by name from the package index, not by `export *`', () => {
    const index = readFileSync(path.join(ROOT, 'packages/shared/src/index.ts'), 'utf8');
    expect(index).not.toMatch(/^export \*/m);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFiles, ROOT } from './source-files';

// One fee rule (issue 41, docs/money.md "One fee rule"): the platform's fee on a trade is
// `platformFee` (or `platformFeeDrops`, its drop form) from packages/shared/src/money.ts — the
// server's records and checks call it, and so does the web's readiness. No module keeps a rule of its
// own: no fee percent multiplied or divided outside money.ts, and no wrapper that renames the rule
// (trading's `tradingFee` was one; its call sites call `platformFee` now).

const DIRS = ['apps/server/src', 'apps/web/src', 'packages/shared/src'];
const RULE_FILE = 'packages/shared/src/money.ts';

/** A fee percent in arithmetic: `feePercent ... .div(`, `.mul(... percentOf(...))`, `fee_percentage ... .mul(`. */
const FEE_ARITHMETIC =
  /(?:\bfee_?[Pp]ercent\w*|\bpercentOf)\b[^;\n]*\.(?:mul|div)\(|\.(?:mul|div)\([^;\n]*(?:\bfee_?[Pp]ercent\w*|\bpercentOf)\b/g;
/** A second name for the rule. */
const RENAMED = /\btradingFee\s*\(|\bfunction\s+(?:[Pp]latform|[Tt]rading|[Tt]rade)Fee\s*\(/g;

/**
 * Fee arithmetic that is not a fee charged, by file and count, and why:
 * - trade-records.ts: what unrecorded trades and resting orders may still owe (the fee-payer's
 *   reserved balance), an upper bound summed unrounded and rounded up once (`decimalToDrops(…, 'up')`).
 */
const NOT_A_CHARGE: Record<string, number> = {
  'apps/server/src/modules/trading/trade-records.ts': 2,
};

function findings(file: string, text: string): string[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) =>
    [...line.matchAll(FEE_ARITHMETIC), ...line.matchAll(RENAMED)].map(
      () => `${file}:${i + 1}: ${line.trim()}`,
    ),
  );
}

describe('one fee rule', () => {
  const sources = DIRS.flatMap(repoFiles).map((file) => ({
    file,
    text: readFileSync(path.join(ROOT, file), 'utf8'),
  }));

  it('computes the platform fee only in money.ts', () => {
    expect(sources.length).toBeGreaterThan(300);
    const byFile = new Map<string, string[]>();
    for (const { file, text } of sources) {
      if (file === RULE_FILE) continue;
      const found = findings(file, text);
      if (found.length > 0) byFile.set(file, found);
    }
    const extra = [...byFile].flatMap(([file, found]) =>
      found.length > (NOT_A_CHARGE[file] ?? 0) ? found : [],
    );
    expect(extra).toEqual([]);
    // The allowances are live (a stale one would hide a new rule in its file).
    for (const [file, n] of Object.entries(NOT_A_CHARGE)) expect(byFile.get(file)?.length, file).toBe(n);
  });

  it('money.ts defines the rule', () => {
    const money = sources.find((s) => s.file === RULE_FILE)!.text;
    expect(money).toMatch(/export function platformFee\(/);
    expect(money).toMatch(/export function platformFeeDrops\(/);
  });

  it('sees a fee of its own and a renamed rule, and lets a call of the rule pass', () => {
    expect(findings('a.ts', "const fee = new Decimal(p.feePercent ?? '0').div(100);")).toHaveLength(1);
    expect(findings('a.ts', 'add(q, value.mul(await percentOf(u.userId)).div(100));')).toHaveLength(1);
    expect(findings('a.ts', 'const f = amount.mul(fee_percentage).div(100);')).toHaveLength(1);
    expect(findings('a.ts', 'const fee = tradingFee(amount, pct, m.quote);')).toHaveLength(1);
    expect(findings('a.ts', 'export function tradeFee(n: Decimal) {')).toHaveLength(1);
    expect(findings('a.ts', "const fee = platformFee(amount, await feePercent(userId), 'iou');")).toEqual([]);
    expect(findings('a.ts', 'const ppm = feePercentToPpm(p);')).toEqual([]);
  });
});

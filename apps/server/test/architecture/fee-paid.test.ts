import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The accounting of a paid trading fee (the creator's share, the referrer's share) hangs off one
// place: trading's FeeSettlement (modules/trading/fee-paid.ts). It runs when a recorded trade's fee
// turns paid (`markPaid`) and when a trade row is written with its fee already paid (TradeRecorder's
// `insert` calls `recorded`). Whoever moves the fee's payment — today the fee job, later the trade's
// own Batch — must go through one of the two, or the shares would silently stop accruing: this
// checks that no other code writes a paid fee status or a trade row.

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const rel = (p: string) => path.relative(SRC, p);
const sources = files(SRC).map((f) => ({ file: rel(f), text: readFileSync(f, 'utf8') }));

describe('the paid trading fee is accounted in one place', () => {
  it('writes a paid fee status only in fee-paid.ts (an update) or trade-records.ts (a row inserted through TradeRecorder)', () => {
    const PAID = /feeStatus:\s*[^,}\n]*['"]paid['"]|set\s+fee_status\s*=\s*['"]paid['"]/i;
    const offenders = sources
      .filter((s) => PAID.test(s.text))
      .map((s) => s.file)
      .filter((f) => f !== 'modules/trading/fee-paid.ts' && f !== 'modules/trading/trade-records.ts');
    expect(offenders).toEqual([]);
  });

  it('inserts trade rows only in TradeRecorder.insert, which runs the settlement for a paid fee', () => {
    const INSERT =
      /\.insert\(\s*tradingTrades\s*\)|insert\s+into\s+(?:\$\{tradingTrades\}|"?trading_trades"?)/i;
    const offenders = sources.filter((s) => INSERT.test(s.text)).map((s) => s.file);
    expect(offenders).toEqual(['modules/trading/trade-records.ts']);
    const recorder = sources.find((s) => s.file === 'modules/trading/trade-records.ts')!.text;
    expect(recorder).toMatch(/settlement\?\.recorded\(tx, row\)/);
  });
});

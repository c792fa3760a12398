import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { files, rel, SRC } from './source-files';

// The accounting of a paid trading fee (the creator's share, the referrer's share) hangs off one
// place: trading's FeeSettlement (modules/trading/fee-paid.ts). It runs when a recorded trade's fee
// turns paid (`markPaid`: the fee job's Payment after a custodial trade), when a self-custody trade's
// own intent paid it (`settleIntent`), and when a trade row is written with its fee already paid
// (TradeRecorder's `insert` calls `recorded`: the trade's own Batch, issue 36). Whoever moves the
// fee's payment must go through one of these, or the shares would silently stop accruing: this checks
// that no other code writes a fee status that can be 'paid' — a literal 'paid', or any value that is
// not one of the statuses that owe or settle nothing (a variable could hold 'paid') — or a trade row.

const sources = files(SRC).map((f) => ({ file: rel(f), text: readFileSync(f, 'utf8') }));

describe('the paid trading fee is accounted in one place', () => {
  /** Fee statuses that say the fee is not paid: anyone may write these. */
  const UNPAID = new Set(['pending', 'none', 'failed', 'intent', 'owed']);

  /**
   * The values an expression written as a fee status can take: the branches of its conditionals
   * (`a ? 'x' : b ? 'y' : 'z'` → 'x', 'y', 'z'), each as written.
   */
  const valuesOf = (expr: string): string[] => {
    const parts = expr.split(/(\?|:)/);
    const values: string[] = [];
    for (let i = 0; i < parts.length; i += 2) {
      const next = parts[i + 1];
      if (next === undefined || next === ':') values.push(parts[i]!.trim());
    }
    return values;
  };

  /** Every fee status a source writes: `feeStatus: …` in an object, `set fee_status = …` in SQL. */
  const statusWrites = (text: string): string[] => [
    ...[...text.matchAll(/\bfeeStatus:\s*([^,}\n]*)/g)]
      .map((m) => m[1]!.trim())
      // The column's definition in the schema, not a write.
      .filter((e) => !/^text\(/.test(e)),
    ...[...text.matchAll(/(?:\bset\s+|,\s*)fee_status\s*=\s*([^,\n]*)/gi)].map((m) => m[1]!.trim()),
  ];

  /** A write that can make a fee paid: a value that is not a literal unpaid status. */
  const canPay = (expr: string) =>
    valuesOf(expr).some((v) => {
      const literal = /^['"](\w+)['"](?:\s+as\s+const)?$/.exec(v);
      return !literal || !UNPAID.has(literal[1]!);
    });

  it('reads the writes it is about', () => {
    expect(canPay("'paid'")).toBe(true);
    expect(canPay('status')).toBe(true);
    expect(canPay("ok ? 'paid' : 'failed'")).toBe(true);
    expect(canPay("fee.gt(0) ? 'pending' : 'none'")).toBe(false);
    expect(canPay("sub.signer === 'wallet' ? 'intent' : fee.gt(0) ? 'pending' : 'none'")).toBe(false);
    expect(statusWrites("update t set fee_status = 'paid', fee_hash = $1")).toEqual(["'paid'"]);
    expect(statusWrites('.set({ feeStatus: status, feeHash: h })')).toEqual(['status']);
  });

  it('writes a fee status that can be paid only in fee-paid.ts', () => {
    const offenders = sources
      .filter((s) => s.file !== 'modules/trading/fee-paid.ts')
      .flatMap((s) =>
        statusWrites(s.text)
          .filter(canPay)
          .map((e) => `${s.file}: ${e}`),
      );
    expect(offenders).toEqual([]);
    // …and there, every write to paid runs the accruals in its transaction.
    const settlement = sources.find((s) => s.file === 'modules/trading/fee-paid.ts')!.text;
    const writes = statusWrites(settlement).filter(canPay).length;
    expect(writes).toBeGreaterThanOrEqual(2);
    expect(settlement.match(/await this\.accrue\(tx as unknown as Db, (?:\[row\]|rows)\)/g)).toHaveLength(
      writes,
    );
  });

  it('inserts trade rows only in TradeRecorder.insert, which runs the settlement for a paid fee', () => {
    const INSERT =
      /\.insert\(\s*tradingTrades\s*\)|insert\s+into\s+(?:\$\{tradingTrades\}|"?trading_trades"?)/i;
    const offenders = sources.filter((s) => INSERT.test(s.text)).map((s) => s.file);
    expect(offenders).toEqual(['modules/trading/trade-records.ts']);
    const recorder = sources.find((s) => s.file === 'modules/trading/trade-records.ts')!.text;
    expect(recorder).toMatch(/this\.deps\.settlement\.recorded\(tx, row\)/);
  });
});

import { dropsToXrp, parseDecimal, parseXrpDrops } from '@ledgerpad/shared';

// The wallet screens' own money helpers, on the one money layer in @ledgerpad/shared (conventions
// §6: never floats for money). Available XRP, formatting and amount input come from lib/ and the
// shared format: one definition each.

/** -1, 0 or 1; undefined when either side is not a number. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 | undefined {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return undefined;
  return x.comparedTo(y) as -1 | 0 | 1;
}

/** The sum of XRP balances, as XRP text. Values that aren't XRP amounts count as 0. */
export function sumXrp(values: string[]): string {
  return dropsToXrp(values.reduce((sum, v) => sum + (parseXrpDrops(v) ?? 0n), 0n));
}

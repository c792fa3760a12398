import { AMOUNT_DECIMALS, SWAP_MESSAGES } from '@ledgerpad/shared';

// Multi-wallet orders (spec 001 §5, §8): one request per ticked wallet, sent together; randomized
// buys give each wallet its own amount in [min, max]; the summary line counts what went through.

const UNIT = 10n ** BigInt(AMOUNT_DECIMALS);
const DECIMAL_RE = new RegExp(`^\\d+(\\.\\d{1,${AMOUNT_DECIMALS}})?$`);

/** A decimal string in millionths (bigint), or null when it is not a 6-decimal amount. */
export function toMicro(value: string): bigint | null {
  const v = value.trim();
  if (!DECIMAL_RE.test(v)) return null;
  const [whole, frac = ''] = v.split('.');
  return BigInt(whole!) * UNIT + BigInt(frac.padEnd(AMOUNT_DECIMALS, '0'));
}

export function fromMicro(micro: bigint): string {
  const whole = micro / UNIT;
  const frac = (micro % UNIT).toString().padStart(AMOUNT_DECIMALS, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** The min/max of a randomized buy, or the spec's message when they are not both positive with min < max. */
export function randomRange(min: string, max: string): { min: bigint; max: bigint } | string {
  const lo = toMicro(min);
  const hi = toMicro(max);
  if (lo === null || hi === null || lo <= 0n || hi <= 0n || lo >= hi) return SWAP_MESSAGES.randomRange;
  return { min: lo, max: hi };
}

/**
 * `count` amounts uniformly in [min, max] in whole millionths (6 decimals), counted in integers so
 * no amount is a float's approximation. `random` returns [0, 1) (Math.random by default).
 */
export function randomAmounts(
  range: { min: bigint; max: bigint },
  count: number,
  random: () => number = Math.random,
): string[] {
  const span = range.max - range.min + 1n;
  return Array.from({ length: count }, () => {
    // span fits a double exactly (amounts below 1e15 XRP), so the pick is an exact integer.
    const pick = BigInt(Math.floor(random() * Number(span)));
    return fromMicro(range.min + (pick < span ? pick : span - 1n));
  });
}

/**
 * The summary line of a batch: successes (swaps or limit orders), then failures if any. The spec's
 * '⚠️ N swap(s) failed. Check logs.' sends people to logs they cannot read: each wallet's outcome is
 * listed under this line instead, so it ends with a colon.
 */
export function batchSummary(kind: 'market' | 'limit', ok: number, failed: number): string {
  const parts: string[] = [];
  if (ok > 0)
    parts.push(kind === 'limit' ? `📌 ${ok} limit order(s) placed.` : `✅ ${ok} swap(s) successful!`);
  if (failed > 0)
    parts.push(kind === 'limit' ? `⚠️ ${failed} limit order(s) failed:` : `⚠️ ${failed} swap(s) failed:`);
  return parts.join(' ');
}

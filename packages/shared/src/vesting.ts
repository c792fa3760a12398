import { RIPPLE_EPOCH_UNIX_S as RIPPLE_EPOCH_OFFSET } from './constants';
import { Decimal } from './money';
import type { EscrowLockState, VestingSettings } from './schemas/vesting';

/** Most tranches a schedule can have: the cliff and 12 monthly ones. */
export const VESTING_MAX_TRANCHES = 13;

// The dev allocation's vesting schedule (issue 28, docs/vesting.md): pure arithmetic, shared by the
// deploy (which turns each tranche into one EscrowCreate), the dashboard and the form's preview.

/**
 * The one conversion between ledger times (seconds since the Ripple epoch: FinishAfter,
 * CancelAfter, close_time) and Unix time. `toRipple` truncates milliseconds to whole seconds.
 */
export const rippleTime = {
  fromUnixMs: (ms: number): number => Math.floor(ms / 1000) - RIPPLE_EPOCH_OFFSET,
  toUnixMs: (ripple: number): number => (ripple + RIPPLE_EPOCH_OFFSET) * 1000,
  toIso: (ripple: number): string => new Date((ripple + RIPPLE_EPOCH_OFFSET) * 1000).toISOString(),
};

export interface VestingTranche {
  /** 1-based, in unlock order. */
  index: number;
  /** Decimal string; the tranches sum exactly to the allocation. */
  amount: string;
  /** The escrow's FinishAfter: seconds since the Ripple epoch. */
  unlockAt: number;
}

/**
 * `months` calendar months after a UTC time, clamped to the month's last day (Jan 31 + 1 month =
 * Feb 28 or 29), time of day kept: what people mean by "monthly".
 */
export function addUtcMonths(unixMs: number, months: number): number {
  const d = new Date(unixMs);
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(
      d.getUTCFullYear(),
      d.getUTCMonth() + months,
      1,
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime();
}

/** Decimal places an amount of this size keeps within 15 significant digits (the supply's rule). */
function placesFor(allocation: Decimal): number {
  const intDigits = allocation.gte(1) ? allocation.trunc().toFixed().length : 0;
  return Math.max(0, 15 - intDigits);
}

/** How many tranches (escrows) a schedule makes at most: the cliff's and the monthly ones. */
export function vestingTrancheCount(v: Pick<VestingSettings, 'cliffPercent' | 'months'>): number {
  const cliff = new Decimal(v.cliffPercent);
  return (cliff.gt(0) ? 1 : 0) + (cliff.lt(100) ? v.months : 0);
}

/**
 * The tranches of `allocation` (a decimal string) from `start` (Ripple time, seconds):
 * - the cliff tranche: cliffPercent % of it, rounded down, unlocking cliffHours after start;
 * - the rest in `months` equal tranches (rounded down), unlocking 1..months calendar months after
 *   the cliff; the last one takes what rounding left, so the amounts sum exactly to the allocation.
 * Amounts are rounded to the allocation's 15-significant-digit precision, so every tranche and the
 * balance it is added back to stay exact in the ledger's 16 digits. Empty tranches are left out.
 */
export function vestingTranches(allocation: string, v: VestingSettings, start: number): VestingTranche[] {
  const total = new Decimal(allocation);
  if (!total.gt(0)) return [];
  const places = placesFor(total);
  const cliffAt =
    start + new Decimal(v.cliffHours).mul(3600).toDecimalPlaces(0, Decimal.ROUND_DOWN).toNumber();
  const cliffAmount = total.mul(v.cliffPercent).div(100).toDecimalPlaces(places, Decimal.ROUND_DOWN);
  const rest = total.minus(cliffAmount);
  const out: Array<{ amount: Decimal; unlockAt: number }> = [{ amount: cliffAmount, unlockAt: cliffAt }];
  if (rest.gt(0)) {
    const each = rest.div(v.months).toDecimalPlaces(places, Decimal.ROUND_DOWN);
    const cliffMs = rippleTime.toUnixMs(cliffAt);
    for (let k = 1; k <= v.months; k++) {
      const amount = k < v.months ? each : rest.minus(each.mul(v.months - 1));
      out.push({ amount, unlockAt: rippleTime.fromUnixMs(addUtcMonths(cliffMs, k)) });
    }
  }
  return out
    .filter((t) => t.amount.gt(0))
    .map((t, i) => ({ index: i + 1, amount: t.amount.toFixed(), unlockAt: t.unlockAt }));
}

/**
 * The dev allocation's amount: `percent` of `supply`, rounded down to the supply's 15 significant
 * digits (what the deploy sends the deployer; `splitSupply` keeps the rest in the hot wallet).
 */
export function devAllocationAmount(supply: string, percent: string): Decimal {
  const s = new Decimal(supply);
  const intDigits = s.gte(1) ? s.trunc().toFixed().length : 0;
  const places = Math.max(0, 15 - intDigits);
  return s.mul(percent).div(100).toDecimalPlaces(places, Decimal.ROUND_DOWN);
}

/**
 * What an escrow guarantees at a validated close (issue 35): 'locked' only with a FinishAfter the
 * ledger has not passed and no Condition — a crypto-condition can be fulfilled at any time, and an
 * escrow with only a CancelAfter can be finished with its fulfilment at once. 'due': its FinishAfter
 * has passed (rippled finishes it once a ledger closed after it), it can be released now.
 */
export function escrowLockState(
  e: { finishAfter: number | null; condition: string | null },
  closeTime: number,
): EscrowLockState {
  if (e.condition) return 'conditional';
  if (e.finishAfter === null) return 'no-finish-after';
  return closeTime > e.finishAfter ? 'due' : 'locked';
}

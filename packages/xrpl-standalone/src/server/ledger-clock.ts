import { RIPPLE_EPOCH_OFFSET } from '../core/ledger-node';

/**
 * The clock ledger close times are read from: the wall clock, or behind it by an offset. An
 * embedded ledger can start days in the past so a demo builds history with real closes, then
 * catch up. The offset only ever shrinks, so ledger time never runs backward (the node also never
 * closes at or before its parent's close time).
 */
export class LedgerClock {
  constructor(private offset = 0) {
    LedgerClock.check(offset);
  }

  /** Milliseconds behind the wall clock. */
  get offsetMs(): number {
    return this.offset;
  }

  /** Seconds since the Ripple epoch, as close times are counted. */
  now(): number {
    return Math.floor((Date.now() - this.offset) / 1000) - RIPPLE_EPOCH_OFFSET;
  }

  /** Moves the clock forward to `offsetMs` behind the wall clock; never backward. */
  setOffset(offsetMs: number): void {
    LedgerClock.check(offsetMs);
    if (offsetMs > this.offset) {
      throw new RangeError(`offset_ms can only shrink (now ${this.offset}): ledger time never runs backward`);
    }
    this.offset = offsetMs;
  }

  private static check(offsetMs: number): void {
    if (!Number.isSafeInteger(offsetMs) || offsetMs < 0) {
      throw new RangeError('offset_ms must be a whole number of milliseconds, 0 or more');
    }
  }
}

import { describe, expect, it } from 'vitest';
import * as c from '../src/constants';

// The constants are requirements copied from the spec; these checks catch an accidental edit.
describe('business constants', () => {
  it('matches the spec figures', () => {
    expect(c.TOKENS_PER_PAGE).toBe(10);
    expect(c.TOKEN_FETCH_LIMIT).toBe(10000);
    expect(c.RECONNECT_CAP_MS).toBe(30000);
    expect(c.RATE_LIMIT_RETRY_CAP_MS).toBe(60000);
    expect(c.TRADING_FEE_PERCENT).toBe('0.75');
    expect(c.TOKEN_CREATION_FEE_XRP).toBe('15');
    expect(c.DEFAULT_SLIPPAGE_PERCENT).toBe('0.50');
    expect(c.ALL_IN_FRACTION).toBe('0.992');
    expect(c.LP_FULL_REMOVAL_FRACTION).toBe('0.9999');
    expect(c.ORDERS_PAGE_SIZE).toBe(20);
    expect(c.MNEMONIC_WORD_COUNTS).toEqual([12, 14, 16, 24]);
    expect(c.DROPS_PER_XRP).toBe(1000000n);
    expect(new Date(c.RIPPLE_EPOCH_UNIX_S * 1000).toISOString()).toBe('2000-01-01T00:00:00.000Z');
    expect(c.TRUST_LINE_MAX_LIMIT).toBe('1' + '0'.repeat(15));
    expect(c.RLUSD_CURRENCY_HEX.startsWith('524C5553440000')).toBe(true);
    expect(c.RLUSD_CURRENCY_HEX).toHaveLength(40);
    expect(c.PRICE_CHANGE_INTERVALS.map((i) => i.seconds)).toEqual([300, 3600, 14400, 86400]);
  });
});

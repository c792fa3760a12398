// The ledger clock extension: a ledger that starts behind the wall clock (clockOffsetMs), moved
// forward by `ledger_clock` or setClockOffset, never backward — not even across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startStandaloneLedger } from '../../src/index';
import { methods } from '../../src/server/methods';
import { rpc, startHarness, type Harness } from './helpers';

const RIPPLE_EPOCH = 946_684_800;
const DAY_MS = 86_400_000;
/** Close times are rounded to 10 s (rippled's resolution); allow that and a slow machine. */
const SLACK_S = 15;

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const wallSeconds = () => Math.floor(Date.now() / 1000) - RIPPLE_EPOCH;

async function closeTime(h: Harness): Promise<number> {
  h.ledger.closeLedger();
  const r = await h.client.request({ command: 'ledger', ledger_index: 'validated' });
  return r.result.ledger.close_time;
}

describe('ledger clock', () => {
  it('closes ledgers behind the wall clock by the offset, and moves forward on ledger_clock', async () => {
    const h = await startHarness({ clockOffsetMs: 3 * DAY_MS });
    try {
      const first = await closeTime(h);
      expect(Math.abs(first - (wallSeconds() - 3 * 86_400))).toBeLessThanOrEqual(SLACK_S);

      const read = (await h.client.request({ command: 'ledger_clock' } as never)) as {
        result: { offset_ms: number; clock_time: number; clock_time_iso: string };
      };
      expect(read.result.offset_ms).toBe(3 * DAY_MS);
      expect(Math.abs(read.result.clock_time - (wallSeconds() - 3 * 86_400))).toBeLessThanOrEqual(2);
      expect(Date.parse(read.result.clock_time_iso)).toBe((read.result.clock_time + RIPPLE_EPOCH) * 1000);

      await h.client.request({ command: 'ledger_clock', offset_ms: DAY_MS } as never);
      const later = await closeTime(h);
      expect(Math.abs(later - (wallSeconds() - 86_400))).toBeLessThanOrEqual(SLACK_S);

      // Growing the offset would move time backward: refused, and the clock stays where it was.
      await expect(
        h.client.request({ command: 'ledger_clock', offset_ms: 2 * DAY_MS } as never),
      ).rejects.toMatchObject({ data: { error: 'invalidParams' } });
      await expect(
        h.client.request({ command: 'ledger_clock', offset_ms: -1 } as never),
      ).rejects.toMatchObject({
        data: { error: 'invalidParams' },
      });
      h.ledger.setClockOffset(0);
      const now = await closeTime(h);
      expect(Math.abs(now - wallSeconds())).toBeLessThanOrEqual(SLACK_S);
      expect(() => h.ledger.setClockOffset(1)).toThrow(/only shrink/);
    } finally {
      await h.close();
    }
  });

  it('never closes at or before the last close after a restart, whatever the offset', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xrpl-standalone-clock-'));
    dirs.push(dataDir);
    const first = await startHarness({ dataDir });
    const last = await closeTime(first);
    await first.close();
    // Restarted a day behind: the ledger's time cannot go back, so it steps on from its last close.
    const second = await startHarness({ dataDir, clockOffsetMs: DAY_MS });
    try {
      const a = await closeTime(second);
      const b = await closeTime(second);
      expect(a).toBeGreaterThan(last);
      expect(b).toBeGreaterThan(a);
    } finally {
      await second.close();
    }
  });

  it('is an admin command, served over JSON-RPC too; a bad starting offset is refused', async () => {
    // rippled's Role::ADMIN: a caller who is not admin gets `forbidden` (test/server/access.test.ts).
    // This harness has no admin password, so its loopback clients are admin, as on rippled's local
    // admin ports (docs/xrpl-standalone-server.md "Access").
    expect(methods.ledger_clock!.admin).toBe(true);
    await expect(startStandaloneLedger({ port: 0, clockOffsetMs: -1 })).rejects.toThrow(RangeError);
    await expect(startStandaloneLedger({ port: 0, clockOffsetMs: 1.5 })).rejects.toThrow(RangeError);
    const h = await startHarness({ clockOffsetMs: DAY_MS });
    try {
      const read = await rpc(h, { method: 'ledger_clock', params: [{}] });
      expect(read.json).toMatchObject({ result: { offset_ms: DAY_MS, status: 'success' } });
      const moved = await rpc(h, { method: 'ledger_clock', params: [{ offset_ms: 60_000 }] });
      expect(moved.json).toMatchObject({ result: { offset_ms: 60_000, status: 'success' } });
      const back = await rpc(h, { method: 'ledger_clock', params: [{ offset_ms: DAY_MS }] });
      expect(back.json).toMatchObject({ result: { error: 'invalidParams', status: 'error' } });
      const notNumber = await rpc(h, { method: 'ledger_clock', params: [{ offset_ms: '0' }] });
      expect(notNumber.json).toMatchObject({ result: { error: 'invalidParams', status: 'error' } });
    } finally {
      await h.close();
    }
  });
});

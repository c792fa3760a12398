import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_UNAVAILABLE_MESSAGE } from '@ledgerpad/shared';
import type { LedgerHealth } from '../../src/ledger/connection';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';

// A hung ledger (issue 34): the ledger process stopped with SIGSTOP keeps its socket open, so the
// connection looks up while nothing answers. The app must notice within 5 s: /api/health 503, a
// ledger-reading route 503 with the shared sentence (one already waiting on the ledger, and one
// asked after), then all back once the process runs again (SIGCONT). The ledger is the CLI, a
// process of its own, as an operator would run it beside the app (XRPL_URL).

const CLI = fileURLToPath(
  new URL('../../../../packages/xrpl-standalone/bin/xrpl-standalone.mjs', import.meta.url),
);
const BOUND_MS = 5_000;

function startCli(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--close-interval-ms', '1000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += String(d);
      const match = /listening on (ws:\/\/\S+)/.exec(text);
      if (match) resolve({ child, url: match[1]! });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`xrpl-standalone exited (${code}):\n${text}`)));
  });
}

describe('a hung ledger process (SIGSTOP) under the app', () => {
  let cli: ChildProcess;
  let t: TestApp;
  let alice: SignedIn;
  let walletId: number;
  let stopped = false;

  beforeAll(async () => {
    const started = await startCli();
    cli = started.child;
    t = await createTestApp({ ledgerUrl: started.url, captureLogs: true });
    alice = await t.signIn('alice');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/wallets',
      headers: alice.headers,
      payload: {},
    });
    walletId = (created.json() as { id: number }).id;
    const funded = await t.app.inject({
      method: 'POST',
      url: `/api/wallets/${walletId}/fund`,
      headers: alice.headers,
    });
    expect(funded.statusCode, funded.body).toBe(200);
  }, 120_000);

  afterAll(async () => {
    // Never leave a stopped process behind, and never close a connection to one (its close
    // handshake would wait for an answer).
    if (stopped) cli?.kill('SIGCONT');
    await t?.close();
    if (cli && cli.exitCode === null) {
      const gone = new Promise((resolve) => cli.once('exit', resolve));
      cli.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000))]);
      if (cli.exitCode === null) cli.kill('SIGKILL');
    }
  });

  const read = () => t.app.inject({ url: `/api/wallets/${walletId}/trustlines`, headers: alice.headers });
  const health = () => t.app.inject('/api/health');
  /** Resolves with the first health verdict (from the connection's own events) that passes `test`. */
  const verdict = (test: (h: LedgerHealth) => boolean): Promise<LedgerHealth> =>
    new Promise((resolve) => {
      const now = t.ledger!.health();
      if (test(now)) return resolve(now);
      const off = t.ledger!.onHealthChange((h) => {
        if (!test(h)) return;
        off();
        resolve(h);
      });
    });
  const closes = (n: number): Promise<void> =>
    new Promise((resolve) => {
      let seen = 0;
      const onClosed = () => {
        if (++seen < n) return;
        t.ledger!.client.off('ledgerClosed', onClosed);
        resolve();
      };
      t.ledger!.client.on('ledgerClosed', onClosed);
    });

  it('answers 503 on health and on a ledger read within 5 s, and serves again after SIGCONT', async () => {
    // A ledger elsewhere: its cadence is observed (a few closes) before lag can be judged.
    await closes(5);
    expect(t.ledger!.health()).toMatchObject({ healthy: true, responsive: true });
    expect(t.ledger!.health().closeIntervalMs).toBeGreaterThanOrEqual(900);
    expect((await health()).statusCode).toBe(200);
    expect((await read()).statusCode).toBe(200);

    const at = performance.now();
    cli.kill('SIGSTOP');
    stopped = true;
    // A read already waiting on the ledger when it hung.
    const waiting = read().then((res) => ({ res, ms: performance.now() - at }));
    const unhealthy = await verdict((h) => !h.healthy);
    const noticedMs = performance.now() - at;
    const healthRes = await health();
    const healthMs = performance.now() - at;
    const { res: waited, ms: waitedMs } = await waiting;
    const askedAt = performance.now();
    const asked = await read();
    const askedMs = performance.now() - askedAt;

    expect(unhealthy.reason).toMatch(/unresponsive|disconnected/);
    expect(healthRes.statusCode).toBe(503);
    expect(healthRes.json()).toEqual({ status: 'degraded' });
    for (const res of [waited, asked]) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ error: 'ledger_unavailable', message: LEDGER_UNAVAILABLE_MESSAGE });
    }
    expect(healthMs).toBeLessThanOrEqual(BOUND_MS);
    expect(waitedMs).toBeLessThanOrEqual(BOUND_MS);
    // Once noticed, a ledger request fails at once instead of waiting on the stopped process.
    expect(askedMs).toBeLessThan(1_000);
    expect(t.logs.join('')).toMatch(/ledger unhealthy/);

    const resumedAt = performance.now();
    cli.kill('SIGCONT');
    stopped = false;
    await verdict((h) => h.healthy);
    const healthyMs = performance.now() - resumedAt;
    expect((await health()).statusCode).toBe(200);
    const again = await read();
    const servedMs = performance.now() - resumedAt;
    expect(again.statusCode, again.body).toBe(200);
    process.stdout.write(
      `ledger stopped → noticed in ${Math.round(noticedMs)} ms, /api/health 503 at ${Math.round(healthMs)} ms, ` +
        `the waiting read 503 at ${Math.round(waitedMs)} ms, a new read 503 in ${Math.round(askedMs)} ms; ` +
        `resumed → healthy in ${Math.round(healthyMs)} ms, read served at ${Math.round(servedMs)} ms\n`,
    );
  }, 60_000);
});

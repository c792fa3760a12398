import { getHeapStatistics } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'xrpl';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { until } from '../helpers/wait';

// The embedded ledger in a worker thread (LEDGER_THREAD=thread) keeps the same port rules as in the
// API's thread: its admin credentials reach the worker, only the app's connection carries them, and
// the worker reports the requests it refuses to the app.
describe('the embedded ledger in a worker thread', () => {
  let t: TestApp;
  let outsider: Client;
  beforeAll(async () => {
    t = await createTestApp({ ledgerThread: true });
    outsider = new Client(t.ledger!.url);
    await outsider.connect();
  }, 60_000);
  afterAll(async () => {
    await outsider?.disconnect();
    await t?.close();
  });

  const current = async () =>
    (await outsider.request({ command: 'ledger_current' })).result.ledger_current_index;

  it('serves admin methods to the app alone and reports refused web pages', async () => {
    const before = await current();
    await expect(outsider.request({ command: 'ledger_accept' } as never)).rejects.toMatchObject({
      data: { error: 'forbidden' },
    });
    expect(await current()).toBe(before);
    await t.ledger!.client.request({ command: 'ledger_accept' } as never);
    expect(await current()).toBe(before + 1);

    const page = await fetch(t.ledger!.url.replace('ws:', 'http:'), {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:5173', 'content-type': 'text/plain' },
      body: JSON.stringify({ method: 'ledger_accept' }),
    });
    expect(page.status).toBe(403);
    // The worker's report crosses to this thread as a message, possibly after the 403 itself.
    await until(() => t.ledgerRefusals.length > 0, 5_000);
    expect(t.ledgerRefusals).toMatchObject([
      { reason: 'origin', origin: 'http://127.0.0.1:5173', transport: 'http', method: 'POST' },
    ]);
    expect(await current()).toBe(before + 1);
  });

  it('refuses a close interval when it closes only on ledger_accept', () => {
    expect(() => t.setCloseInterval(100)).toThrow('it has no close timer');
  });

  // The hot-launch bench's memory breakdown (issue 40): the thread is an isolate of its own, so its
  // heap is not in this thread's process.memoryUsage() figures; it answers with its own.
  it("reports its own V8 heap, not this thread's", async () => {
    const heap = await t.ledgerHeap!();
    expect(heap.usedBytes).toBeGreaterThan(1024 * 1024);
    expect(heap.usedBytes).toBeLessThanOrEqual(heap.totalBytes);
    // This thread holds the test runner, the app and its modules: several times the ledger's heap.
    expect(heap.totalBytes).toBeLessThan(getHeapStatistics().used_heap_size);
  });
});

// A bench sets up on fast closes and measures at production's 1 s, with the ledger in its thread.
describe('the close interval of the embedded ledger in a worker thread', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ledgerThread: true, closeIntervalMs: 600_000 });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('follows setCloseInterval across the thread', async () => {
    const current = async () =>
      (await t.ledger!.client.request({ command: 'ledger_current' })).result.ledger_current_index;
    const before = await current();
    t.setCloseInterval(20);
    await until(async () => (await current()) >= before + 3, 10_000);
    expect(() => t.setCloseInterval(0)).toThrow('at least 1 ms');
  });
});

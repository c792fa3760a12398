// Persistence: state and history survive a clean restart and a SIGKILL mid-write; the journal's
// torn tail is cut off on load.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, type Payment } from 'xrpl';
import { startStandaloneLedger } from '../../src/index';
import { LedgerStore, decodeFrames } from '../../src/server/store';
import { syntheticHeader, syntheticRecord } from './fixtures/store-records';
import { fund, genesis, startHarness, submitAndClose } from './helpers';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xrpl-standalone-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('persistence', () => {
  it('keeps balances, transactions and ledger history across a restart', async () => {
    const dataDir = tempDir();
    const first = await startHarness({ dataDir });
    const alice = await fund(first, '50000000');
    const payment: Payment = {
      TransactionType: 'Payment',
      Account: alice.address,
      Destination: genesis.address,
      Amount: '1000000',
    };
    const { hash } = await submitAndClose(first, payment, alice);
    // Past 256 closes the skip list starts dropping old hashes: the journal's deltas must follow.
    for (let i = 0; i < 300; i += 1) first.ledger.closeLedger();
    const before = await first.client.request({
      command: 'account_info',
      account: alice.address,
      ledger_index: 'validated',
    });
    const closed = await first.client.request({ command: 'ledger_closed' });
    const stateBefore = [...first.ledger.node.validated().entries()];
    await first.close();

    const second = await startHarness({ dataDir });
    try {
      const after = await second.client.request({
        command: 'account_info',
        account: alice.address,
        ledger_index: 'validated',
      });
      expect(after.result.account_data).toEqual(before.result.account_data);
      const again = await second.client.request({ command: 'ledger_closed' });
      expect(again.result).toEqual(closed.result);
      expect([...second.ledger.node.validated().entries()]).toEqual(stateBefore);
      const tx = await second.client.request({ command: 'tx', transaction: hash });
      expect(tx.result.validated).toBe(true);
      const history = await second.client.request({ command: 'account_tx', account: alice.address });
      expect(history.result.transactions.map((t) => t.hash)).toContain(hash);
      // The chain continues from where it stopped.
      second.ledger.closeLedger();
      const next = await second.client.request({ command: 'ledger', ledger_index: 'validated' });
      expect(next.result.ledger.parent_hash).toBe(closed.result.ledger_hash);
    } finally {
      await second.close();
    }
  });

  it('survives SIGKILL mid-write without corruption', async () => {
    const dataDir = tempDir();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures/crash-child.ts'), dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    const durable: Array<{ index: number; hash: string; sequence: number }> = [];
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (d: Buffer) => {
        buffer += String(d);
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          const [kind, index, hash, sequence] = line.split(' ');
          if (kind === 'closed')
            durable.push({ index: Number(index), hash: hash as string, sequence: Number(sequence) });
          // Kill at an arbitrary point once enough ledgers are on disk.
          if (durable.length === 15) {
            setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 5));
          }
        }
      });
      child.on('exit', () => resolve());
      child.on('error', reject);
    });
    expect(stderr).not.toMatch(/Error/);
    expect(durable.length).toBeGreaterThanOrEqual(15);
    const last = durable[durable.length - 1] as { index: number; hash: string; sequence: number };

    const ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 0, dataDir });
    const client = new Client(ledger.url);
    await client.connect();
    try {
      const validated = ledger.node.validated().header;
      // Everything reported durable is there; at most the one ledger being written is lost or kept.
      expect(validated.ledger_index).toBeGreaterThanOrEqual(last.index);
      expect(ledger.node.ledger({ ledger_index: last.index })?.header.ledger_hash).toBe(last.hash);
      const info = await client.request({
        command: 'account_info',
        account: genesis.address,
        ledger_index: 'validated',
      });
      expect(info.result.account_data.Sequence).toBeGreaterThanOrEqual(last.sequence);
      // And it keeps working: a new close extends the recovered chain.
      ledger.closeLedger();
      expect(ledger.node.validated().header.parent_hash).toBe(validated.ledger_hash);
    } finally {
      await client.disconnect();
      await ledger.close();
    }
  });
});

function runUntilKilled(script: string, dataDir: string, killAfter: number): Promise<number[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, script), dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const durable: number[] = [];
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += String(d);
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const [kind, index] = buffer.slice(0, nl).split(' ');
        buffer = buffer.slice(nl + 1);
        if (kind === 'durable') durable.push(Number(index));
        if (durable.length === killAfter)
          setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 10));
      }
    });
    child.on('exit', () => resolve(durable));
    child.on('error', reject);
  });
}

describe('store under SIGKILL with frequent compaction', () => {
  it('always reloads a contiguous, exact prefix that includes every acknowledged ledger', async () => {
    const dataDir = tempDir();
    let acknowledged = 1;
    // Three kill/restart rounds on the same directory, each landing at an arbitrary point
    // (appends, snapshot writes, renames, truncations).
    for (const killAfter of [40, 55, 70]) {
      const durable = await runUntilKilled('fixtures/store-crash-child.ts', dataDir, killAfter);
      acknowledged = Math.max(acknowledged, ...durable);
      const store = new LedgerStore(dataDir);
      const records = store.load();
      store.close();
      const indexes = records.map((r) => r.header.ledger_index);
      expect(indexes[0]).toBe(2);
      expect(indexes).toEqual(Array.from({ length: indexes.length }, (_, i) => i + 2));
      expect(indexes[indexes.length - 1]).toBeGreaterThanOrEqual(acknowledged);
      for (const record of records) expect(record).toEqual(syntheticRecord(record.header.ledger_index));
    }
  });
});

describe('ledger store', () => {
  const record = (i: number) => ({ header: syntheticHeader(i), transactions: [], stateChanges: [] });

  it('journals skip lists as deltas and rebuilds them exactly', () => {
    const dir = tempDir();
    const store = new LedgerStore(dir);
    store.load();
    const hashesEntry = (i: number) => ({
      LedgerEntryType: 'LedgerHashes',
      index: 'B'.repeat(64),
      Flags: 0,
      LastLedgerSequence: i - 1,
      Hashes: Array.from({ length: Math.min(i, 256) }, (_, k) => String(i - k).padStart(64, '0')).reverse(),
    });
    const written = [];
    for (let i = 2; i <= 300; i += 1) {
      const r = {
        ...record(i),
        stateChanges: [[hashesEntry(i).index, hashesEntry(i)]] as Array<[string, never]>,
      };
      written.push(r);
      store.append(r);
    }
    store.close();
    expect(statSync(join(dir, 'ledgers.journal')).size).toBeLessThan(300 * 1500);
    const reopened = new LedgerStore(dir);
    expect(reopened.load()).toEqual(written);
    reopened.close();
  });

  it('refuses a second writer on the same directory, but takes over a dead owner’s lock', () => {
    const dir = tempDir();
    const store = new LedgerStore(dir);
    expect(() => new LedgerStore(dir)).toThrow(/in use by process/);
    store.close();
    // A lock left by a killed process (no such pid) is stale.
    writeFileSync(join(dir, 'LOCK'), '2147483646');
    const next = new LedgerStore(dir);
    next.close();
  });

  it('cuts a torn or corrupt tail and keeps appending after it', () => {
    const dir = tempDir();
    const store = new LedgerStore(dir);
    store.load();
    for (let i = 2; i <= 6; i += 1) store.append(record(i));
    store.close();
    const journal = join(dir, 'ledgers.journal');
    truncateSync(journal, statSync(journal).size - 7);
    appendFileSync(journal, Buffer.from('garbage'));
    const reopened = new LedgerStore(dir);
    expect(reopened.load().map((r) => r.header.ledger_index)).toEqual([2, 3, 4, 5]);
    reopened.append(record(6));
    reopened.close();
    expect(decodeFrames(readFileSync(journal)).records.map((r) => r.header.ledger_index)).toEqual([
      2, 3, 4, 5, 6,
    ]);
  });

  it('compacts into a snapshot and deduplicates after a crash between rename and truncate', () => {
    const dir = tempDir();
    const store = new LedgerStore(dir, { compactEvery: 3 });
    store.load();
    for (let i = 2; i <= 8; i += 1) store.append(record(i));
    store.close();
    expect(statSync(join(dir, 'ledgers.snapshot')).size).toBeGreaterThan(0);
    // Simulate the crash window: the journal still holds ledgers the snapshot already has.
    const snapshot = readFileSync(join(dir, 'ledgers.snapshot'));
    appendFileSync(join(dir, 'ledgers.journal'), snapshot);
    const reopened = new LedgerStore(dir);
    expect(reopened.load().map((r) => r.header.ledger_index)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    reopened.close();
  });
});

// Bounded in-memory history (ledgerHistory, rippled's [ledger_history] + online_delete): old
// ledgers and their transactions are dropped, lookups answer as rippled with history gaps, state
// is kept, and a restart rebuilds only the retained range.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Payment } from 'xrpl';
import { LedgerNode } from '../../src/core/ledger-node';
import { fund, genesis, startHarness, submitAndClose } from './helpers';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const HISTORY = 20;

describe('bounded ledger history', () => {
  it('keeps only the last N closed ledgers in memory over many closes', () => {
    const node = new LedgerNode({}, { ledgerHistory: HISTORY });
    for (let i = 0; i < 500; i += 1) node.closeLedger();
    const { first, last } = node.completeLedgers();
    expect(last).toBe(502);
    expect(last - first + 1).toBe(HISTORY);
    let held = 0;
    for (let index = 1; index <= last; index += 1) if (node.ledger({ ledger_index: index })) held += 1;
    expect(held).toBe(HISTORY);
    expect(node.ledger({ ledger_index: first - 1 })).toBeUndefined();
    expect(node.ledger({ ledger_index: first })?.header.ledger_index).toBe(first);
  });

  it('drops old transactions: tx says txnNotFound with searched_all false, account_tx starts at the oldest ledger', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'xrpl-standalone-history-'));
    dirs.push(dataDir);
    const h = await startHarness({ ledgerHistory: HISTORY, dataDir });
    let aliceAddress: string;
    let oldHash: string;
    let oldLedger: number;
    let balance: string;
    try {
      const alice = await fund(h, '50000000');
      aliceAddress = alice.address;
      const payment: Payment = {
        TransactionType: 'Payment',
        Account: alice.address,
        Destination: genesis.address,
        Amount: '1000000',
      };
      const old = await submitAndClose(h, payment, alice);
      oldHash = old.hash;
      const found = await h.client.request({ command: 'tx', transaction: oldHash });
      oldLedger = Number(found.result.ledger_index);
      for (let i = 0; i < HISTORY; i += 1) h.ledger.closeLedger();
      const recent = await submitAndClose(h, { ...payment, Amount: '2000000' }, alice);

      const info = await h.client.request({ command: 'server_info' });
      const last = h.ledger.node.validated().header.ledger_index;
      const first = last - HISTORY + 1;
      expect(info.result.info.complete_ledgers).toBe(`${first}-${last}`);
      expect(oldLedger).toBeLessThan(first);

      // Dropped: not found; with a range reaching into the dropped part, searched_all is false.
      const gone = await h.client
        .request({ command: 'tx', transaction: oldHash, min_ledger: oldLedger, max_ledger: last })
        .catch((e: { data: Record<string, unknown> }) => e.data);
      expect(gone).toMatchObject({ error: 'txnNotFound', searched_all: false });
      const plain = await h.client
        .request({ command: 'tx', transaction: oldHash })
        .catch((e: { data: Record<string, unknown> }) => e.data);
      expect(plain).toMatchObject({ error: 'txnNotFound' });
      expect((plain as Record<string, unknown>).searched_all).toBeUndefined();
      // A range fully inside the retained history was searched completely.
      const missing = await h.client
        .request({ command: 'tx', transaction: oldHash, min_ledger: first, max_ledger: last })
        .catch((e: { data: Record<string, unknown> }) => e.data);
      expect(missing).toMatchObject({ error: 'txnNotFound', searched_all: true });
      // Retained transactions are still served.
      const kept = await h.client.request({ command: 'tx', transaction: recent.hash });
      expect(kept.result.validated).toBe(true);

      // account_tx: -1 means the oldest retained ledger; only retained transactions are listed.
      const history = await h.client.request({
        command: 'account_tx',
        account: alice.address,
        ledger_index_min: -1,
        ledger_index_max: -1,
      });
      expect(history.result.ledger_index_min).toBe(first);
      expect(history.result.transactions.map((t) => t.hash)).toEqual([recent.hash]);
      // API v2 rejects a minimum below the retained range, as rippled does outside its validated range.
      const below = await h.client
        .request({ command: 'account_tx', account: alice.address, ledger_index_min: oldLedger })
        .catch((e: { data: Record<string, unknown> }) => e.data);
      expect(below).toMatchObject({ error: 'lgrIdxMalformed' });
      // State is never dropped: the balance still reflects both payments.
      const account = await h.client.request({
        command: 'account_info',
        account: alice.address,
        ledger_index: 'validated',
      });
      const fees =
        [old.hash, recent.hash].length *
        Number((await h.client.request({ command: 'tx', transaction: recent.hash })).result.tx_json.Fee);
      balance = account.result.account_data.Balance;
      expect(balance).toBe(String(50_000_000 - 3_000_000 - fees));
    } finally {
      await h.close();
    }

    // After a restart the state is intact and only the retained range is back in memory.
    const again = await startHarness({ ledgerHistory: HISTORY, dataDir });
    try {
      const account = await again.client.request({
        command: 'account_info',
        account: aliceAddress,
        ledger_index: 'validated',
      });
      expect(account.result.account_data.Balance).toBe(balance);
      const { first, last } = (again.ledger.node as LedgerNode).completeLedgers();
      expect(last - first + 1).toBe(HISTORY);
      const gone = await again.client
        .request({ command: 'tx', transaction: oldHash })
        .catch((e: { data: Record<string, unknown> }) => e.data);
      expect(gone).toMatchObject({ error: 'txnNotFound' });
      const history = await again.client.request({ command: 'account_tx', account: aliceAddress });
      expect(history.result.transactions).toHaveLength(1);
      again.ledger.closeLedger();
      expect((again.ledger.node as LedgerNode).completeLedgers().first).toBe(first + 1);
    } finally {
      await again.close();
    }
  });

  it('rejects tx ranges rippled rejects', async () => {
    const h = await startHarness({ ledgerHistory: HISTORY });
    try {
      const hash = 'A'.repeat(64);
      const inverted = await h.client
        .request({ command: 'tx', transaction: hash, min_ledger: 5, max_ledger: 3 })
        .catch((e: { data: Record<string, unknown> }) => e.data);
      expect(inverted).toMatchObject({ error: 'invalidLgrRange' });
      const wide = await h.client
        .request({ command: 'tx', transaction: hash, min_ledger: 1, max_ledger: 1500 })
        .catch((e: { data: Record<string, unknown> }) => e.data);
      expect(wide).toMatchObject({ error: 'excessiveLgrRange' });
    } finally {
      await h.close();
    }
  });
});

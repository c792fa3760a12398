import { describe, expect, it } from 'vitest';
import { Wallet, getBalanceChanges, hashes, type TransactionMetadata } from 'xrpl';
import { Harness, genesis } from './helpers';
import { GENESIS_ADDRESS } from '../../src/core/ledger-node';

describe('XRP payments', () => {
  it('genesis holds 100 billion XRP and ledgers 1-2 exist with 3 open', () => {
    const h = new Harness();
    expect(h.balance(GENESIS_ADDRESS)).toBe(100_000_000_000_000_000n);
    expect(h.node.validated().header.ledger_index).toBe(2);
    expect(h.node.current().header.ledger_index).toBe(3);
  });

  it('funds a new account, charges the fee and reports exact balance changes', () => {
    const h = new Harness();
    const w = Wallet.generate();
    const r = h.submit(genesis, {
      TransactionType: 'Payment',
      Destination: w.classicAddress,
      Amount: '25000000',
    });
    expect(r.engine_result).toBe('tesSUCCESS');
    expect(r.applied).toBe(true);
    expect(h.balance(w.classicAddress)).toBe(25_000_000n);
    expect(h.balance(GENESIS_ADDRESS)).toBe(100_000_000_000_000_000n - 25_000_000n - 10n);
    const rec = h.node.txByHash(r.hash);
    const meta = rec?.meta as unknown as TransactionMetadata;
    expect(meta.TransactionResult).toBe('tesSUCCESS');
    expect(meta.delivered_amount).toBe('25000000');
    const changes = getBalanceChanges(meta);
    const byAccount = Object.fromEntries(changes.map((c) => [c.account, c.balances]));
    expect(byAccount[w.classicAddress]).toEqual([{ currency: 'XRP', value: '25' }]);
    expect(byAccount[GENESIS_ADDRESS]).toEqual([{ currency: 'XRP', value: '-25.00001' }]);
    const created = meta.AffectedNodes.find((n) => 'CreatedNode' in n);
    expect(created && 'CreatedNode' in created && created.CreatedNode.NewFields).toEqual({
      Account: w.classicAddress,
      Balance: '25000000',
      Sequence: 3,
    });
    expect(hashes.hashSignedTx(rec!.blob)).toBe(r.hash);
  });

  it('closes a ledger whose hashes match xrpl.js hashing', () => {
    const h = new Harness();
    const w = Wallet.generate();
    h.fund(w.classicAddress, 50_000_000n);
    const rec = h.node.closeLedger();
    const view = h.node.validated();
    expect(view.header.ledger_index).toBe(3);
    expect(rec.transactions).toHaveLength(1);
    const entries = [...view.entries()];
    expect(hashes.hashStateTree(entries as never)).toBe(view.header.account_hash);
    const txs = rec.transactions.map((t) => ({ ...t.tx, hash: t.hash, metaData: t.meta }));
    expect(hashes.hashTxTree(txs as never)).toBe(view.header.transaction_hash);
    expect(
      hashes.hashLedgerHeader({
        ledger_index: String(view.header.ledger_index),
        total_coins: view.header.total_coins,
        parent_hash: view.header.parent_hash,
        transaction_hash: view.header.transaction_hash,
        account_hash: view.header.account_hash,
        parent_close_time: view.header.parent_close_time,
        close_time: view.header.close_time,
        close_time_resolution: view.header.close_time_resolution,
        close_flags: view.header.close_flags,
      } as never),
    ).toBe(view.header.ledger_hash);
    expect(view.header.total_coins).toBe((100_000_000_000_000_000n - 10n).toString());
  });
});

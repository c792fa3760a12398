// The `books` subscription with snapshot, and AMM/offer objects in ledger_entry/account_objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'xrpl';
import { type Dex, expectResult, funded, issue, issuer, request, startDex, usd } from './helpers';

describe('books subscription and ledger objects', () => {
  let dex: Dex;
  let gw: Wallet;
  let alice: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    alice = await funded(dex, 30_000);
    await issue(dex, gw, alice, 'USD', '20000');
    await expectResult(dex, alice, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '10'),
      TakerPays: '20000000',
    });
  });
  afterAll(() => dex.close());

  it('snapshots the book, then streams transactions that touch it', async () => {
    const book = { taker_gets: { currency: 'USD', issuer: gw.address }, taker_pays: { currency: 'XRP' } };
    const sub = await request<{ offers: Array<Record<string, unknown>> }>(dex, {
      command: 'subscribe',
      books: [{ ...book, snapshot: true }],
    });
    expect(sub.offers).toHaveLength(1);
    expect(sub.offers[0]).toMatchObject({ Account: alice.address, quality: '2000000' });
    const both = await request<{ bids: unknown[]; asks: unknown[] }>(dex, {
      command: 'subscribe',
      books: [{ ...book, snapshot: true, both: true }],
    });
    expect(both.asks).toHaveLength(1);
    expect(both.bids).toHaveLength(0);
    const seen: string[] = [];
    dex.client.on('transaction', (t) =>
      seen.push(String((t as unknown as { tx_json?: { TransactionType: string } }).tx_json?.TransactionType)),
    );
    await expectResult(dex, alice, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '5'),
      TakerPays: '11000000',
    });
    // an unrelated transaction is not sent
    await expectResult(dex, alice, { TransactionType: 'AccountSet' });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual(['OfferCreate']);
    await request(dex, { command: 'unsubscribe', books: [book] });
  });

  it('offers appear in account_objects and ledger_entry; the AMM in ledger_entry by asset pair', async () => {
    const objects = await dex.client.request({
      command: 'account_objects',
      account: alice.address,
      type: 'offer',
    });
    expect(objects.result.account_objects.length).toBe(2);
    const seq = (objects.result.account_objects[0] as unknown as { Sequence: number }).Sequence;
    const entry = await request<{ node: { LedgerEntryType: string } }>(dex, {
      command: 'ledger_entry',
      offer: { account: alice.address, seq },
    });
    expect(entry.node.LedgerEntryType).toBe('Offer');
    await expectResult(dex, alice, {
      TransactionType: 'AMMCreate',
      Amount: '1000000000',
      Amount2: usd(gw, '1000'),
      TradingFee: 100,
    });
    const amm = await request<{ node: { LedgerEntryType: string; TradingFee: number; Account: string } }>(
      dex,
      {
        command: 'ledger_entry',
        amm: { asset: { currency: 'XRP' }, asset2: { currency: 'USD', issuer: gw.address } },
      },
    );
    expect(amm.node.LedgerEntryType).toBe('AMM');
    expect(amm.node.TradingFee).toBe(100);
    const info = await request<{ amm: { account: string } }>(dex, {
      command: 'amm_info',
      asset: { currency: 'XRP' },
      asset2: { currency: 'USD', issuer: gw.address },
    });
    expect(amm.node.Account).toBe(info.amm.account);
  });
});

// simulate: a dry run against the open ledger. What it reports for a trade through an AMM and the
// order book together is exactly what the same transaction does when submitted right after, and
// it leaves no trace (balances, sequence, the open ledger's transactions).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode } from 'ripple-binary-codec';
import {
  classicAddressToXAddress,
  getBalanceChanges,
  PaymentFlags,
  type TransactionMetadata,
  type Wallet,
} from 'xrpl';
import {
  expectResult,
  funded,
  issue,
  issuer,
  request,
  startDex,
  submit,
  trust,
  usd,
  xrpBalance,
  type Dex,
} from './helpers';

let dex: Dex;
let gw: Wallet;
let maker: Wallet;
let trader: Wallet;

interface SimResult {
  applied: boolean;
  engine_result: string;
  engine_result_code: number;
  ledger_index: number;
  tx_json: Record<string, unknown>;
  meta: TransactionMetadata;
}

beforeAll(async () => {
  dex = await startDex();
  gw = await issuer(dex);
  maker = await funded(dex, 100_000);
  trader = await funded(dex, 10_000);
  await issue(dex, gw, maker, 'USD', '100000');
  // A pool (10,000 XRP / 10,000 USD, 0.3%) and a resting offer at a better price than the pool's.
  await expectResult(dex, maker, {
    TransactionType: 'AMMCreate',
    Amount: '10000000000',
    Amount2: usd(gw, '10000'),
    TradingFee: 300,
  });
  await expectResult(dex, maker, {
    TransactionType: 'OfferCreate',
    TakerGets: usd(gw, '50'),
    TakerPays: '45000000',
  });
  await trust(dex, trader, gw, 'USD');
}, 60_000);

afterAll(async () => dex?.close());

const changesOf = (meta: TransactionMetadata, account: string) =>
  getBalanceChanges(meta).find((c) => c.account === account)?.balances ?? [];

describe('simulate', () => {
  it('reports a buy through the book and the pool exactly as it then executes, keeping nothing', async () => {
    // Spend exactly 200 XRP on USD (sell XRP, immediate or cancel): crosses the offer, then the pool.
    const offer = {
      TransactionType: 'OfferCreate',
      Account: trader.address,
      TakerGets: '200000000',
      TakerPays: usd(gw, '1'),
      Flags: 0x00020000 | 0x00080000, // tfImmediateOrCancel | tfSell
    };
    const before = await xrpBalance(dex, trader.address);
    const sim = await request<SimResult>(dex, { command: 'simulate', tx_json: offer });
    expect(sim.applied).toBe(false);
    expect(sim.engine_result).toBe('tesSUCCESS');
    expect(sim.engine_result_code).toBe(0);
    expect(sim.tx_json.SigningPubKey).toBe('');
    expect(sim.tx_json.Fee).toBe('10');
    expect(typeof sim.tx_json.Sequence).toBe('number');
    // Nothing kept: the balance and the account's sequence are as they were.
    expect(await xrpBalance(dex, trader.address)).toBe(before);
    const info = await dex.client.request({
      command: 'account_info',
      account: trader.address,
      ledger_index: 'current',
    });
    expect(info.result.account_data.Sequence).toBe(sim.tx_json.Sequence);

    const quoted = changesOf(sim.meta, trader.address);
    const done = await submit(dex, trader, {
      TransactionType: 'OfferCreate',
      // The fee simulate filled in (xrpl.js's autofill would add a cushion).
      Fee: sim.tx_json.Fee,
      TakerGets: '200000000',
      TakerPays: usd(gw, '1'),
      Flags: 0x00020000 | 0x00080000,
    });
    expect(done.result).toBe('tesSUCCESS');
    const executed = changesOf(done.meta as unknown as TransactionMetadata, trader.address);
    // To the last digit: the USD received and the XRP spent (fee included) are the quote's.
    expect(executed).toEqual(quoted);
    const usdGot = executed.find((b) => b.currency === 'USD')!;
    // More than the offer's 50 USD: the rest came from the pool.
    expect(Number(usdGot.value)).toBeGreaterThan(50);
  });

  it('reports a failing trade with its engine result (a limit the market cannot meet)', async () => {
    const sim = await request<SimResult>(dex, {
      command: 'simulate',
      tx_json: {
        TransactionType: 'OfferCreate',
        Account: trader.address,
        TakerGets: '10000000',
        TakerPays: usd(gw, '1000'),
        Flags: 0x00040000, // tfFillOrKill
      },
    });
    expect(sim.engine_result).toBe('tecKILLED');
    expect(sim.meta.TransactionResult).toBe('tecKILLED');
  });

  it('refuses signed transactions and unknown accounts, as rippled does', async () => {
    const signed = trader.sign(
      await dex.client.autofill({ TransactionType: 'AccountSet', Account: trader.address }),
    );
    await expect(request(dex, { command: 'simulate', tx_blob: signed.tx_blob })).rejects.toMatchObject({
      data: { error: 'transactionSigned' },
    });
    await expect(
      request(dex, {
        command: 'simulate',
        tx_json: { TransactionType: 'AccountSet', Account: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe' },
      }),
    ).rejects.toMatchObject({ data: { error: 'srcActNotFound' } });
    await expect(request(dex, { command: 'simulate' })).rejects.toMatchObject({
      data: { error: 'invalidParams' },
    });
  });

  it('answers binary: the simulated transaction and its metadata serialized, the same as the JSON answer', async () => {
    const payment = {
      TransactionType: 'Payment',
      Account: trader.address,
      Destination: maker.address,
      Amount: '2500000',
    };
    const json = await request<SimResult>(dex, { command: 'simulate', tx_json: payment });
    const bin = await request<Record<string, unknown>>(dex, {
      command: 'simulate',
      tx_json: payment,
      binary: true,
    });
    expect(bin).toMatchObject({
      applied: false,
      engine_result: 'tesSUCCESS',
      engine_result_code: 0,
      engine_result_message: 'The simulated transaction would have been applied.',
      ledger_index: json.ledger_index,
    });
    expect(bin.tx_json).toBeUndefined();
    expect(bin.meta).toBeUndefined();
    // The blob is the autofilled, unsigned transaction.
    expect(decode(bin.tx_blob as string)).toEqual({
      ...payment,
      Fee: '10',
      Sequence: json.tx_json.Sequence,
      SigningPubKey: '',
    });
    // The metadata blob is what the ledger would store: the JSON meta without delivered_amount.
    const { delivered_amount: delivered, ...stored } = json.meta as unknown as Record<string, unknown>;
    expect(delivered).toBe('2500000');
    expect(decode(bin.meta_blob as string)).toEqual(stored);
    await expect(
      request(dex, { command: 'simulate', tx_json: payment, binary: 'yes' }),
    ).rejects.toMatchObject({ data: { error: 'invalidParams', error_message: "Invalid field 'binary'." } });
  });

  // The blob is encoded by the package's serializer where that decodes back to the very JSON, else
  // by the codec (issue 40): either way exactly the codec's encoding of the autofilled transaction.
  it("simulates the codec's encoding of every tx_json: fast shapes, and those left to the codec", async () => {
    const sequence = async () =>
      Number(
        (
          await request<{ account_data: { Sequence: number } }>(dex, {
            command: 'account_info',
            account: trader.address,
          })
        ).account_data.Sequence,
      );
    const cases: Array<Record<string, unknown>> = [
      {
        TransactionType: 'Payment',
        Account: trader.address,
        Destination: trader.address,
        Amount: usd(gw, '12.5'),
        SendMax: '20000000',
        DeliverMin: usd(gw, '6.25'),
        Flags: PaymentFlags.tfPartialPayment,
        Memos: [{ Memo: { MemoType: '74726164', MemoData: 'CAFE' } }],
      },
      {
        TransactionType: 'OfferCreate',
        Account: trader.address,
        TakerGets: '1000000',
        TakerPays: usd(gw, '1'),
      },
      // Values spelled otherwise than the decoder prints them (the same numbers).
      {
        TransactionType: 'OfferCreate',
        Account: trader.address,
        TakerGets: '1000000',
        TakerPays: usd(gw, '1.50'),
      },
      {
        TransactionType: 'Payment',
        Account: trader.address,
        Destination: trader.address,
        Amount: usd(gw, '1e30'),
        SendMax: '1000000',
        DeliverMin: usd(gw, '0.000125e4'),
        Flags: PaymentFlags.tfPartialPayment,
      },
      // Left to the codec: lower-case hex, an X-address.
      {
        TransactionType: 'Payment',
        Account: trader.address,
        Destination: maker.address,
        Amount: '1000',
        InvoiceID: 'ab'.repeat(32),
      },
      {
        TransactionType: 'Payment',
        Account: trader.address,
        Destination: classicAddressToXAddress(maker.address, 7, false),
        Amount: '1000',
      },
    ];
    for (const tx of cases) {
      const bin = await request<{ tx_blob: string }>(dex, { command: 'simulate', tx_json: tx, binary: true });
      const autofilled = { ...tx, Fee: '10', Sequence: await sequence(), SigningPubKey: '' };
      expect(bin.tx_blob).toBe(encode(autofilled as never));
    }
  });

  it('answers through xrpl.js Client.simulate', async () => {
    const res = await dex.client.simulate({
      TransactionType: 'Payment',
      Account: trader.address,
      Destination: maker.address,
      Amount: '1000000',
    });
    expect(res.result.engine_result).toBe('tesSUCCESS');
    expect(res.result.meta?.delivered_amount).toBe('1000000');
  });

  it('answers a repeated question from the open ledger as it is: a write to it or a close answers anew', async () => {
    // The same unsigned payment (same blob: same Sequence, Fee) asked three times; between the
    // second and third someone else's payment to the trader enters the open ledger, then it closes.
    const payment = {
      TransactionType: 'Payment',
      Account: trader.address,
      Destination: maker.address,
      Amount: '1000000',
    };
    const traderBefore = (sim: SimResult) => {
      const node = sim.meta.AffectedNodes.find(
        (n) => 'ModifiedNode' in n && n.ModifiedNode.FinalFields?.Account === trader.address,
      ) as unknown as { ModifiedNode: { PreviousFields: { Balance: string } } };
      return BigInt(node.ModifiedNode.PreviousFields.Balance);
    };
    const first = await request<SimResult>(dex, { command: 'simulate', tx_json: payment });
    const again = await request<SimResult>(dex, { command: 'simulate', tx_json: payment });
    expect(again).toEqual(first);
    // 5 XRP from the maker, applied to the open ledger only (no close yet).
    const gift = maker.sign(
      await dex.client.autofill({
        TransactionType: 'Payment',
        Account: maker.address,
        Destination: trader.address,
        Amount: '5000000',
      }),
    );
    const sent = await dex.client.request({ command: 'submit', tx_blob: gift.tx_blob });
    expect(sent.result.engine_result).toBe('tesSUCCESS');
    const afterWrite = await request<SimResult>(dex, { command: 'simulate', tx_json: payment });
    expect(afterWrite.tx_json.Sequence).toBe(first.tx_json.Sequence);
    expect(afterWrite.ledger_index).toBe(first.ledger_index);
    expect(traderBefore(afterWrite)).toBe(traderBefore(first) + 5_000_000n);
    // A close: the next open ledger answers, at its own index.
    dex.ledger.closeLedger();
    const afterClose = await request<SimResult>(dex, { command: 'simulate', tx_json: payment });
    expect(afterClose.ledger_index).toBe(first.ledger_index + 1);
    expect(traderBefore(afterClose)).toBe(traderBefore(afterWrite));
  });

  it('answers in-process (StandaloneLedger.request) exactly as over the WebSocket, in the same envelope', async () => {
    // A trade through the book and the pool, asked over the socket and in this thread.
    const tx_json = {
      TransactionType: 'Payment',
      Account: trader.address,
      Destination: trader.address,
      Amount: usd(gw, '30'),
      SendMax: '40000000',
      Flags: 0x00020000, // tfPartialPayment
    };
    const overSocket = await dex.client.request({ command: 'simulate', tx_json, api_version: 2 } as never);
    const local = await dex.ledger.request({ command: 'simulate', tx_json, api_version: 2, id: 7 });
    expect(local).toMatchObject({ status: 'success', type: 'response', id: 7, api_version: 2 });
    expect(JSON.parse(JSON.stringify(local.result))).toEqual((overSocket as { result: unknown }).result);
    // rippled's error envelope for an unknown account; no streams without a connection.
    const missing = await dex.ledger.request({
      command: 'account_info',
      account: 'rrrrrrrrrrrrrrrrrrrrBZbvji',
      ledger_index: 'current',
    });
    expect(missing).toMatchObject({ status: 'error', error: 'actNotFound', type: 'response' });
    expect(await dex.ledger.request({ command: 'subscribe', streams: ['ledger'] })).toMatchObject({
      status: 'error',
      error: 'notSupported',
    });
  });
});

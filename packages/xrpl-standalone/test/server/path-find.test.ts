// path_find over WebSocket through xrpl.js: create answers at once (full_reply false), status
// repeats the answer, every ledger close sends a `path_find` update with full_reply true, close
// ends it. Prices come from one order book: 10 USD bought at 2 XRP per USD cost 20 XRP, and after
// a better offer at 1.5 XRP per USD, 15 XRP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PathFindStream, Wallet } from 'xrpl';
import { expectResult, funded, issue, issuer, request, startDex, trust, usd, type Dex } from '../dex/helpers';

let dex: Dex;
let gw: Wallet;
let maker: Wallet;
let alice: Wallet;
let bob: Wallet;

beforeAll(async () => {
  dex = await startDex();
  gw = await issuer(dex);
  maker = await funded(dex, 10_000);
  alice = await funded(dex, 1_000);
  bob = await funded(dex, 1_000);
  await issue(dex, gw, maker, 'USD', '1000');
  await trust(dex, bob, gw, 'USD');
  // 100 USD for 200 XRP: 2 XRP per USD.
  await expectResult(dex, maker, {
    TransactionType: 'OfferCreate',
    TakerGets: usd(gw, '100'),
    TakerPays: '200000000',
  });
}, 60_000);

afterAll(async () => dex?.close());

interface PathFindReply {
  id: number | string;
  result: Record<string, unknown>;
}

/** path_find through xrpl.js's request (its typings have no path_find subcommand replies). */
const pathFind = async (req: Record<string, unknown>): Promise<PathFindReply> =>
  (await dex.client.request(req as never)) as unknown as PathFindReply;

const create = () => ({
  command: 'path_find',
  subcommand: 'create',
  source_account: alice.address,
  destination_account: bob.address,
  destination_amount: usd(gw, '10'),
});

describe('path_find', () => {
  it('creates a request, repeats it on status, updates it on every close and closes it', async () => {
    const created = await pathFind(create());
    expect(created.result).toEqual({
      source_account: alice.address,
      destination_account: bob.address,
      destination_amount: usd(gw, '10'),
      full_reply: false,
      id: created.id,
      alternatives: [{ source_amount: '20000000', paths_computed: [] }],
    });
    const status = await request(dex, { command: 'path_find', subcommand: 'status' });
    expect(status).toEqual({ ...(created.result as object), status: 'success' });

    const updates: PathFindStream[] = [];
    const next = () =>
      new Promise<PathFindStream>((resolve) => {
        dex.client.once('path_find', (m: PathFindStream) => {
          updates.push(m);
          resolve(m);
        });
      });
    // A better offer, 100 USD for 150 XRP, then a close: the update prices 10 USD at 15 XRP.
    let update = next();
    await expectResult(dex, maker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '100'),
      TakerPays: '150000000',
    });
    expect(await update).toEqual({
      type: 'path_find',
      source_account: alice.address,
      destination_account: bob.address,
      destination_amount: usd(gw, '10'),
      full_reply: true,
      id: created.id,
      alternatives: [{ source_amount: '15000000', paths_computed: [] }],
    });
    // Every close sends one, changed or not.
    update = next();
    dex.ledger.closeLedger();
    expect((await update).alternatives).toEqual([{ source_amount: '15000000', paths_computed: [] }]);
    expect(updates).toHaveLength(2);

    const closed = await request(dex, { command: 'path_find', subcommand: 'close' });
    expect(closed).toMatchObject({ closed: true, status: 'success', full_reply: true });
    dex.ledger.closeLedger();
    // Updates are sent while the ledger closes, before any later reply: none arrived.
    await dex.client.request({ command: 'ping' });
    expect(updates).toHaveLength(2);
    await expect(request(dex, { command: 'path_find', subcommand: 'status' })).rejects.toMatchObject({
      data: { error: 'noPathRequest', error_code: 33 },
    });
  });

  it('a new create replaces the open request', async () => {
    await pathFind(create());
    const second = await pathFind({ ...create(), destination_amount: usd(gw, '20') });
    expect((second.result as { alternatives: unknown }).alternatives).toEqual([
      { source_amount: '30000000', paths_computed: [] },
    ]);
    const status = await request<{ destination_amount: unknown }>(dex, {
      command: 'path_find',
      subcommand: 'status',
    });
    expect(status.destination_amount).toEqual(usd(gw, '20'));
    await request(dex, { command: 'path_find', subcommand: 'close' });
  });

  it("answers with rippled's errors", async () => {
    const { source_account: _s, ...noSource } = create();
    await expect(request(dex, noSource)).rejects.toMatchObject({ data: { error: 'srcActMissing' } });
    await expect(request(dex, { ...create(), destination_amount: undefined })).rejects.toMatchObject({
      data: { error: 'dstAmtMissing' },
    });
    await expect(request(dex, { ...create(), subcommand: 'restart' })).rejects.toMatchObject({
      data: { error: 'invalidParams' },
    });
    await expect(
      request(dex, { ...create(), destination_account: 'rUnknownUnknownUnknownUnknownUn' }),
    ).rejects.toMatchObject({
      data: { error: 'dstActMalformed' },
    });
    // Tokens cannot go to an account that does not exist.
    await expect(
      request(dex, { ...create(), destination_account: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe' }),
    ).rejects.toMatchObject({ data: { error: 'actNotFound' } });
    // JSON-RPC has no connection for the updates.
    const res = await fetch(dex.ledger.httpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'path_find', params: [{ ...create(), command: undefined }] }),
    });
    expect(((await res.json()) as { result: { error: string } }).result.error).toBe('noEvents');
  });
});

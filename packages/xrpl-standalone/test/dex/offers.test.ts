// OfferCreate / OfferCancel through xrpl.js: crossing at the taker's quality, partial fills, the
// flags, replacement, expiry, unfunded offers, reserves and the book/account views.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'xrpl';
import {
  type Dex,
  expectResult,
  funded,
  genesis,
  issue,
  issuer,
  request,
  startDex,
  submit,
  submitRaw,
  tokenBalance,
  usd,
  xrpBalance,
} from './helpers';

interface OfferView {
  seq: number;
  flags: number;
  taker_gets: unknown;
  taker_pays: unknown;
  quality: string;
}

async function offersOf(dex: Dex, w: Wallet): Promise<OfferView[]> {
  return (
    await request<{ offers: OfferView[] }>(dex, {
      command: 'account_offers',
      account: w.address,
      ledger_index: 'current',
    })
  ).offers;
}

async function liquid(dex: Dex, w: Wallet): Promise<bigint> {
  const info = await dex.client.request({
    command: 'account_info',
    account: w.address,
    ledger_index: 'current',
  });
  return (
    BigInt(info.result.account_data.Balance) -
    1_000_000n -
    200_000n * BigInt(info.result.account_data.OwnerCount)
  );
}

async function book(dex: Dex, gw: Wallet, side: 'sell-usd' | 'buy-usd') {
  const usdIssue = { currency: 'USD', issuer: gw.address };
  const req =
    side === 'sell-usd'
      ? { taker_gets: usdIssue, taker_pays: { currency: 'XRP' } }
      : { taker_gets: { currency: 'XRP' }, taker_pays: usdIssue };
  return (
    await request<{ offers: Array<Record<string, unknown>> }>(dex, {
      command: 'book_offers',
      ledger_index: 'current',
      ...req,
    })
  ).offers;
}

describe('OfferCreate crossing', () => {
  let dex: Dex;
  let gw: Wallet;
  let alice: Wallet;
  let bob: Wallet;
  let carol: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    alice = await funded(dex);
    bob = await funded(dex);
    carol = await funded(dex);
    await issue(dex, gw, alice, 'USD', '1000');
  });
  afterAll(() => dex.close());

  it('rejects malformed offers with tem codes, charging nothing', async () => {
    const before = await xrpBalance(dex, alice.address);
    expect(
      await submitRaw(dex, alice, { TransactionType: 'OfferCreate', TakerGets: '100', TakerPays: '200' }),
    ).toBe('temBAD_OFFER');
    expect(
      await submitRaw(dex, alice, {
        TransactionType: 'OfferCreate',
        TakerGets: usd(gw, '1'),
        TakerPays: usd(gw, '2'),
      }),
    ).toBe('temREDUNDANT');
    expect(
      await submitRaw(dex, alice, {
        TransactionType: 'OfferCreate',
        TakerGets: usd(gw, '0'),
        TakerPays: '2',
      }),
    ).toBe('temBAD_OFFER');
    expect(
      await submitRaw(dex, alice, {
        TransactionType: 'OfferCreate',
        TakerGets: usd(gw, '1'),
        TakerPays: '2',
        Flags: 0x00060000,
      }),
    ).toBe('temINVALID_FLAG');
    expect(await submitRaw(dex, alice, { TransactionType: 'OfferCancel', OfferSequence: 0 })).toBe(
      'temBAD_SEQUENCE',
    );
    expect(await xrpBalance(dex, alice.address)).toBe(before);
  });

  it('places a resting offer visible in book_offers, account_offers and account_objects', async () => {
    await expectResult(dex, alice, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '100'),
      TakerPays: '200000000',
    });
    const offers = await book(dex, gw, 'sell-usd');
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({
      Account: alice.address,
      quality: '2000000',
      owner_funds: '1000',
      TakerPays: '200000000',
    });
    expect((await offersOf(dex, alice))[0]).toMatchObject({
      taker_gets: usd(gw, '100'),
      taker_pays: '200000000',
      quality: '2000000',
    });
    const objects = await dex.client.request({
      command: 'account_objects',
      account: alice.address,
      type: 'offer',
    });
    expect(objects.result.account_objects).toHaveLength(1);
  });

  it('crosses at the maker price: bob buys 50 USD for 100 XRP and gets a trust line', async () => {
    const before = await xrpBalance(dex, bob.address);
    const r = await expectResult(dex, bob, {
      TransactionType: 'OfferCreate',
      TakerGets: '100000000',
      TakerPays: usd(gw, '50'),
    });
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('50');
    expect(before - (await xrpBalance(dex, bob.address))).toBe(
      100_000_000n + BigInt((r.tx as { Fee: string }).Fee),
    );
    expect(await offersOf(dex, bob)).toEqual([]);
    expect((await offersOf(dex, alice))[0]).toMatchObject({
      taker_gets: usd(gw, '50'),
      taker_pays: '100000000',
    });
  });

  it('a better-priced taker still pays the maker price; the rest of a partial fill rests', async () => {
    // carol bids up to 2.5 XRP/USD for 80 USD: she takes alice's 50 USD at 2 XRP each and the
    // remaining 30 USD rest at her own price (75 XRP).
    const before = await xrpBalance(dex, carol.address);
    const r = await expectResult(dex, carol, {
      TransactionType: 'OfferCreate',
      TakerGets: '200000000',
      TakerPays: usd(gw, '80'),
    });
    expect(before - (await xrpBalance(dex, carol.address))).toBe(
      100_000_000n + BigInt((r.tx as { Fee: string }).Fee),
    );
    expect(await tokenBalance(dex, carol.address, gw.address, 'USD')).toBe('50');
    expect(await offersOf(dex, alice)).toEqual([]);
    expect((await offersOf(dex, carol))[0]).toMatchObject({
      taker_gets: '75000000',
      taker_pays: usd(gw, '30'),
    });
    const bids = await book(dex, gw, 'buy-usd');
    expect(bids[0]).toMatchObject({
      Account: carol.address,
      quality: '0.0000004',
      owner_funds: String(await liquid(dex, carol)),
    });
  });

  it('tfPassive does not cross an offer of equal quality; without it, it does', async () => {
    // carol's bid is 2.5 XRP/USD; alice offers 10 USD for 25 XRP passively: both rest.
    await expectResult(dex, alice, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '10'),
      TakerPays: '25000000',
      Flags: 0x00010000,
    });
    expect((await offersOf(dex, alice))[0]).toMatchObject({ flags: 0x00010000 });
    expect((await offersOf(dex, carol))[0]).toMatchObject({ taker_pays: usd(gw, '30') });
    await expectResult(dex, alice, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '10'),
      TakerPays: '25000000',
    });
    expect((await offersOf(dex, carol))[0]).toMatchObject({
      taker_gets: '50000000',
      taker_pays: usd(gw, '20'),
    });
    expect(await offersOf(dex, alice)).toHaveLength(1);
  });

  it('tfImmediateOrCancel: tecKILLED when nothing crosses; a partial cross places nothing', async () => {
    const dave = await funded(dex);
    expect(
      (
        await submit(dex, dave, {
          TransactionType: 'OfferCreate',
          TakerGets: '1000000',
          TakerPays: usd(gw, '10'),
          Flags: 0x00020000,
        })
      ).result,
    ).toBe('tecKILLED');
    // alice's passive 10 USD @ 2.5 XRP is the only ask: dave buys 10 of the 20 he wants, nothing rests
    await expectResult(dex, dave, {
      TransactionType: 'OfferCreate',
      TakerGets: '50000000',
      TakerPays: usd(gw, '20'),
      Flags: 0x00020000,
    });
    expect(await tokenBalance(dex, dave.address, gw.address, 'USD')).toBe('10');
    expect(await offersOf(dex, dave)).toEqual([]);
    expect(await offersOf(dex, alice)).toEqual([]);
  });

  it('tfFillOrKill: tecKILLED and no change when the book cannot fill it', async () => {
    // alice asks 3 XRP/USD for 5 USD (above carol's 2.5 XRP bid, so it rests)
    await expectResult(dex, alice, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '5'),
      TakerPays: '15000000',
    });
    const erin = await funded(dex);
    const before = await xrpBalance(dex, erin.address);
    const r = await submit(dex, erin, {
      TransactionType: 'OfferCreate',
      TakerGets: '150000000',
      TakerPays: usd(gw, '50'),
      Flags: 0x00040000,
    });
    expect(r.result).toBe('tecKILLED');
    expect(before - (await xrpBalance(dex, erin.address))).toBe(BigInt((r.tx as { Fee: string }).Fee));
    expect((await offersOf(dex, alice)).length).toBe(1);
    await expectResult(dex, erin, {
      TransactionType: 'OfferCreate',
      TakerGets: '15000000',
      TakerPays: usd(gw, '5'),
      Flags: 0x00040000,
    });
    expect(await tokenBalance(dex, erin.address, gw.address, 'USD')).toBe('5');
    expect(await offersOf(dex, alice)).toEqual([]);
  });

  it('tfSell sells all of TakerGets even for more than TakerPays', async () => {
    // carol still bids 2.5 XRP/USD for 20 USD; alice sells 10 USD asking only 10 XRP with tfSell:
    // she receives 25 XRP (carol's price) instead of 10.
    const before = await xrpBalance(dex, alice.address);
    const r = await expectResult(dex, alice, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '10'),
      TakerPays: '10000000',
      Flags: 0x00080000,
    });
    expect((await xrpBalance(dex, alice.address)) - before).toBe(
      25_000_000n - BigInt((r.tx as { Fee: string }).Fee),
    );
    expect((await offersOf(dex, carol))[0]).toMatchObject({
      taker_gets: '25000000',
      taker_pays: usd(gw, '10'),
    });
    expect(await offersOf(dex, alice)).toEqual([]);
  });

  it('OfferSequence replaces an offer; OfferCancel removes one', async () => {
    const seq = (await offersOf(dex, carol))[0]!.seq;
    await expectResult(dex, carol, {
      TransactionType: 'OfferCreate',
      TakerGets: '1000000',
      TakerPays: usd(gw, '1'),
      OfferSequence: seq,
    });
    const mine = await offersOf(dex, carol);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.seq).not.toBe(seq);
    await expectResult(dex, carol, { TransactionType: 'OfferCancel', OfferSequence: mine[0]!.seq });
    expect(await offersOf(dex, carol)).toEqual([]);
  });

  it('removes an expired offer when a taker reaches it, instead of crossing it', async () => {
    const eur = (value: string) => ({ currency: 'EUR', issuer: gw.address, value });
    const maker = await funded(dex);
    await issue(dex, gw, maker, 'EUR', '10');
    const now = dex.ledger.node.validated().header.close_time;
    await expectResult(dex, maker, {
      TransactionType: 'OfferCreate',
      TakerGets: eur('10'),
      TakerPays: '1000000',
      Expiration: now + 100,
    });
    expect(await offersOf(dex, maker)).toHaveLength(1);
    // let the ledger clock pass the expiration
    dex.ledger.node.closeLedger(now + 200);
    const taker = await funded(dex);
    await expectResult(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: '2000000',
      TakerPays: eur('10'),
    });
    expect(await offersOf(dex, taker)).toHaveLength(1);
    expect(await offersOf(dex, maker)).toEqual([]);
    expect(await tokenBalance(dex, maker.address, gw.address, 'EUR')).toBe('10');
    expect(await tokenBalance(dex, taker.address, gw.address, 'EUR')).toBe('0');
  });

  it('removes an unfunded offer when a taker reaches it', async () => {
    const frank = await funded(dex);
    await issue(dex, gw, frank, 'USD', '10');
    await expectResult(dex, frank, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '10'),
      TakerPays: '1000000',
    });
    // frank gives his USD away, so his offer is unfunded
    await expectResult(dex, frank, {
      TransactionType: 'Payment',
      Destination: gw.address,
      Amount: usd(gw, '10'),
    });
    const grace = await funded(dex);
    await expectResult(dex, grace, {
      TransactionType: 'OfferCreate',
      TakerGets: '2000000',
      TakerPays: usd(gw, '10'),
    });
    expect(await offersOf(dex, frank)).toEqual([]);
  });
});

describe('OfferCreate failures', () => {
  let dex: Dex;
  let gw: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
  });
  afterAll(() => dex.close());

  it('tecUNFUNDED_OFFER without the funds, tecFROZEN when frozen, tecEXPIRED when expired', async () => {
    const a = await funded(dex);
    expect(
      (
        await submit(dex, a, {
          TransactionType: 'OfferCreate',
          TakerGets: usd(gw, '10'),
          TakerPays: '1000000',
        })
      ).result,
    ).toBe('tecUNFUNDED_OFFER');
    await issue(dex, gw, a, 'USD', '10');
    await expectResult(dex, gw, {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: 'USD', issuer: a.address, value: '0' },
      Flags: 0x00100000,
    });
    // frozen funds count as zero
    expect(
      (
        await submit(dex, a, {
          TransactionType: 'OfferCreate',
          TakerGets: usd(gw, '10'),
          TakerPays: '1000000',
        })
      ).result,
    ).toBe('tecUNFUNDED_OFFER');
    expect(
      (
        await submit(dex, a, {
          TransactionType: 'OfferCreate',
          TakerGets: '1000000',
          TakerPays: usd(gw, '1'),
          Expiration: 1,
        })
      ).result,
    ).toBe('tecEXPIRED');
    await expectResult(dex, gw, { TransactionType: 'AccountSet', SetFlag: 7 });
    expect(
      (
        await submit(dex, a, {
          TransactionType: 'OfferCreate',
          TakerGets: '1000000',
          TakerPays: usd(gw, '1'),
        })
      ).result,
    ).toBe('tecFROZEN');
  });

  it('tecINSUF_RESERVE_OFFER when the owner reserve is not covered', async () => {
    const gw2 = await issuer(dex);
    const poor = await funded(dex, 1);
    await expectResult(dex, genesis, {
      TransactionType: 'Payment',
      Destination: poor.address,
      Amount: '100000',
    });
    const r = await submit(dex, poor, {
      TransactionType: 'OfferCreate',
      TakerGets: '100000',
      TakerPays: { currency: 'EUR', issuer: gw2.address, value: '1' },
    });
    expect(r.result).toBe('tecINSUF_RESERVE_OFFER');
    expect(await offersOf(dex, poor)).toEqual([]);
  });
});

describe('OfferCreate crossing the AMM', () => {
  let dex: Dex;
  let gw: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
  });
  afterAll(() => dex.close());

  it('an offer takes the pool at the swap price when it beats the offer limit', async () => {
    const lp = await funded(dex, 30_000);
    await issue(dex, gw, lp, 'USD', '20000');
    await expectResult(dex, lp, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 0,
    });
    const bob = await funded(dex);
    const before = await xrpBalance(dex, bob.address);
    // bob bids up to 2 XRP/USD for 100 USD; the pool sells 100 USD for 10^14/9,900 - 10^10
    // = 101,010,101.0101 -> 101,010,102 drops, and nothing is left to rest.
    const r = await expectResult(dex, bob, {
      TransactionType: 'OfferCreate',
      TakerGets: '200000000',
      TakerPays: usd(gw, '100'),
    });
    expect(before - (await xrpBalance(dex, bob.address))).toBe(
      101_010_102n + BigInt((r.tx as { Fee: string }).Fee),
    );
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('100');
    expect(await offersOf(dex, bob)).toEqual([]);
  });
});

describe('metadata of a consumed offer', () => {
  let dex: Dex;
  let gw: Wallet;
  let maker: Wallet;
  let taker: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    maker = await funded(dex);
    taker = await funded(dex);
    await issue(dex, gw, taker, 'USD', '100');
  });
  afterAll(() => dex.close());

  it('as rippled: the DeletedNode has FinalFields at zero and PreviousFields with what it held', async () => {
    // The maker bids 20 XRP for 10 USD; the taker sells exactly 10 USD into it.
    const made = await submit(dex, maker, {
      TransactionType: 'OfferCreate',
      TakerGets: '20000000',
      TakerPays: usd(gw, '10'),
    });
    expect(made.result).toBe('tesSUCCESS');
    const taken = await submit(dex, taker, {
      TransactionType: 'OfferCreate',
      TakerGets: usd(gw, '10'),
      TakerPays: '20000000',
    });
    expect(taken.result).toBe('tesSUCCESS');
    const nodes = (taken.meta!.AffectedNodes as Array<Record<string, Record<string, unknown>>>)
      .map((n) => Object.entries(n)[0]!)
      .filter(([, body]) => body.LedgerEntryType === 'Offer');
    // Only the maker's offer is touched: the taker's was filled whole and never placed.
    expect(nodes).toHaveLength(1);
    const [kind, body] = nodes[0]!;
    expect(kind).toBe('DeletedNode');
    expect(body.FinalFields).toMatchObject({
      Account: maker.address,
      TakerGets: '0',
      TakerPays: usd(gw, '0'),
    });
    expect(body.PreviousFields).toEqual({ TakerGets: '20000000', TakerPays: usd(gw, '10') });
  });
});

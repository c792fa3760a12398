import { tickerToCurrency } from '@ledgerpad/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, encode } from 'xrpl';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { marketPools, marketTrades } from '../../src/modules/market/schema';
import { tradingTrades } from '../../src/modules/trading/schema';
import { PositionsService } from '../../src/modules/positions';
import { positionBases, positionCheckpoints, positionFills } from '../../src/modules/positions/schema';
import { tokens as tokensTable } from '../../src/modules/tokens/schema';
import { createTestDatabase } from '../db';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Positions' checkpoints: a read folds a wallet's trades into bases kept per wallet and token, and
// the next read folds only the trades of later ledgers. The figures must be the same, digit for
// digit, as a read without any checkpoint; an RLUSD-quoted trade (valued at the current price)
// stops the checkpoint from moving past it.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let t: TestApp;
let service: PositionsService;
let tokenId: number;
const wallet = Wallet.generate().classicAddress;
const issuer = Wallet.generate().classicAddress;
const currency = tickerToCurrency('CKPT');
let hash = 0;

const trade = (
  ledgerIndex: number,
  side: 'BUY' | 'SELL',
  tokenAmount: string,
  quoteAmount: string,
  quote = 'XRP',
  account = wallet,
) => ({
  tokenId,
  quote,
  ledgerIndex,
  txIndex: 0,
  hash: (++hash).toString(16).padStart(64, '0'),
  account,
  side,
  price: '1',
  tokenAmount,
  quoteAmount,
  time: new Date(1_700_000_000_000 + ledgerIndex * 1000),
});

const read = async () => (await service.positions(1))[0]!.tokens[0]!;
const checkpoint = async () =>
  (await database.db.select().from(positionCheckpoints).where(eq(positionCheckpoints.account, wallet)))[0]
    ?.throughLedger;
/** The same read with no checkpoint at all (every trade folded from the first). */
const fresh = async () => {
  await database.db.delete(positionBases);
  await database.db.delete(positionCheckpoints);
  return read();
};

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp({ ledger: 'none', database });
  await t.app.ready();
  const [tok] = await database.db
    .insert(tokensTable)
    .values({
      name: 'Checkpoint',
      ticker: 'CKPT',
      currency,
      issuerAddress: issuer,
      supply: '1000000',
      source: 'deploy',
    })
    .returning({ id: tokensTable.id });
  tokenId = tok!.id;
  // 2 XRP per token: 1,000 XRP against 500 tokens.
  await database.db.insert(marketPools).values({
    tokenId,
    quote: 'XRP',
    ammAccount: Wallet.generate().classicAddress,
    tokenAmount: '500',
    quoteAmount: '1000',
    lpSupply: '1000',
    lpCurrency: '03' + 'C'.repeat(38),
    tradingFee: 300,
    ledgerIndex: 1,
  });
  await t.app.marketSnapshot.refresh();
  service = serviceOf(wallet, '80');
}, 60_000);

/** Positions of one wallet holding `balance` CKPT (no ledger: nothing to sell into, realisable 0). */
function serviceOf(address: string, balance: string): PositionsService {
  return new PositionsService({
    db: database.db,
    snapshot: t.app.marketSnapshot,
    wallets: {
      list: async () => [{ address, name: 'Checkpoint' }] as never,
      accountState: async () => ({ activated: true, balanceDrops: 10_000_000n, ownerCount: 1 }),
      lines: async () => [
        {
          account: issuer,
          balance,
          currency,
          limit: '1e9',
          limit_peer: '0',
          quality_in: 0,
          quality_out: 0,
        },
      ],
    },
  });
}

afterAll(async () => {
  await t?.close();
  await database?.close();
});

describe('position checkpoints', () => {
  it('folds only later ledgers onto the kept bases, with the figures of a read from scratch', async () => {
    // Buy 100 for 100 XRP, sell 40 for 60 XRP: realized 60 − 40 × 1 = 20; 60 left costing 60.
    await database.db
      .insert(marketTrades)
      .values([trade(10, 'BUY', '100', '100'), trade(11, 'SELL', '40', '60')]);
    const first = await read();
    expect(first.realizedPNL).toBe('20');
    expect(await checkpoint()).toBe(11);

    // Later: buy 30 for 45 (90 costing 105), and a fill of a resting offer selling 10 for 21 at
    // ledger 12: 10 × 105/90 = 11.666… of cost sold, realized 21 − 11.666… more.
    await database.db.insert(marketTrades).values(trade(12, 'BUY', '30', '45'));
    await database.db.insert(positionFills).values({
      account: wallet,
      currency,
      issuer,
      quote: 'XRP',
      side: 'SELL',
      tokenAmount: '10',
      quoteAmount: '21',
      ledgerIndex: 12,
      txIndex: 1,
      hash: 'F'.repeat(64),
    });
    const later = await read();
    expect(await checkpoint()).toBe(12);
    expect(later.realizedPNL).toBe('29.333333'); // 20 + 21 − 11.666666…
    expect(await fresh()).toEqual(later);
    expect(await checkpoint()).toBe(12);
    // Read again from the checkpoint (no newer trades): the same answer.
    expect(await read()).toEqual(later);
  });

  it('does not move past an RLUSD-quoted trade, whose XRP value is read at the current price', async () => {
    await database.db.insert(marketTrades).values(trade(13, 'BUY', '5', '7', 'RLUSD'));
    const withRlusd = await read();
    expect(await checkpoint()).toBe(12);
    await database.db.insert(marketTrades).values(trade(14, 'SELL', '20', '50'));
    const after = await read();
    expect(await checkpoint()).toBe(12);
    expect(after.realizedPNL).not.toBe(withRlusd.realizedPNL);
    expect(await fresh()).toEqual(after);
    // From scratch the RLUSD trade is among the first folded: no checkpoint is kept at all.
    expect(await checkpoint()).toBeUndefined();
  });

  it("counts a trade's fees and does not keep it in a checkpoint until its fee is paid (issue 39)", async () => {
    const other = Wallet.generate().classicAddress;
    const mine = serviceOf(other, '50');
    const through = async () =>
      (await database.db.select().from(positionCheckpoints).where(eq(positionCheckpoints.account, other)))[0]
        ?.throughLedger;
    /** A validated submission of `other` whose blob says it paid `fee` drops. */
    const submitted = (h: string, fee: string, purpose: string) => ({
      intentKey: `ckpt:${h}`,
      account: other,
      sequence: Number.parseInt(h.slice(-4), 16),
      lastLedgerSequence: 100,
      txType: 'Payment',
      purpose,
      hash: h,
      txBlob: encode({
        TransactionType: 'Payment',
        Account: other,
        Destination: other,
        Amount: '1',
        Fee: fee,
        Sequence: 1,
      }),
      status: 'success',
      ledgerIndex: 20,
    });
    // Buy 100 for 100 XRP here (its transaction paid 12 drops); its 0.75 XRP fee not paid yet.
    const buy = trade(20, 'BUY', '100', '100', 'XRP', other);
    await database.db.insert(marketTrades).values(buy);
    await database.db.insert(ledgerSubmissions).values(submitted(buy.hash, '12', 'swap'));
    await database.db.insert(tradingTrades).values({
      userId: 1,
      walletId: 1,
      walletAddress: other,
      issuer,
      currency,
      quote: 'XRP',
      side: 'BUY',
      spent: '100',
      received: '100',
      hash: buy.hash,
      ledgerIndex: 20,
      fee: '0.75',
      feeStatus: 'pending',
    });
    await mine.positions(1);
    // The fee's payment (and its network fee) is still to come: no checkpoint.
    expect(await through()).toBeUndefined();
    // Paid, by a payment that cost 10 drops: cost 100 + 0.75 + 0.000012 + 0.00001 = 100.750022.
    const paid = 'E'.repeat(60) + '0001';
    await database.db.insert(ledgerSubmissions).values(submitted(paid, '10', 'trading-fee'));
    await database.db
      .update(tradingTrades)
      .set({ feeStatus: 'paid', feeHash: paid })
      .where(eq(tradingTrades.hash, buy.hash));
    await mine.positions(1);
    expect(await through()).toBe(20);
    // Sell 50 for 80 XRP elsewhere (no fee known): realized 80 − 50 × 1.00750022 = 29.624989.
    await database.db.insert(marketTrades).values(trade(21, 'SELL', '50', '80', 'XRP', other));
    const [after] = (await mine.positions(1))[0]!.tokens;
    expect(await through()).toBe(21);
    expect(after!.realizedPNL).toBe('29.624989');
    // Nothing to sell into here: realisable 0, so unrealized is minus the 50 left's cost 50.375011.
    expect(after).toMatchObject({ realisableXRP: '0', unrealizedPNL: '-50.375011' });
    await database.db.delete(positionBases);
    await database.db.delete(positionCheckpoints);
    expect((await mine.positions(1))[0]!.tokens[0]).toEqual(after);
  });
});

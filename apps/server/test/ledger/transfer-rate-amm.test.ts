import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type SubmittableTransaction, type Wallet, AccountSetAsfFlags, OfferCreateFlags } from 'xrpl';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import { submitAndWait } from '../helpers/submit-and-wait';
import { fundedAccount } from '../listing/issuer-fixture';

// Issue 37 asked for an anti-sniper fee on instant-AMM launches enforced by the ledger on every venue
// bots use, e.g. the issuer's TransferRate stepped down over a window before the blackhole. Measured
// here on the embedded ledger with xrpl.js, as a bot would trade: which buys from the token's AMM pool
// pay the issuer's transfer fee. rippled's AMMOffer::adjustRates waives the fee on the pool's output
// ("AMM doesn't pay transfer fee"): a Payment buy routed through the pool pays it (the sender is
// charged on the path), an OfferCreate that crosses the pool does not — so a TransferRate window
// would tax only the bots that buy with Payment, and is not shipped (docs/launch-protection.md).

let ledger: StandaloneLedger;
let client: Client;

beforeAll(async () => {
  ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 100 });
  client = new Client(ledger.url);
  await client.connect();
}, 60_000);
afterAll(async () => {
  await client?.disconnect();
  await ledger?.close();
});

const IOC = OfferCreateFlags.tfImmediateOrCancel;
/** TransferRate 1.5: a 50% transfer fee (rippled stores 1e9 × (1 + fee)). */
const RATE_50 = 1_500_000_000;

async function ok(tx: SubmittableTransaction, wallet: Wallet) {
  const r = await submitAndWait(client, tx, wallet);
  expect((r.meta as { TransactionResult: string }).TransactionResult, tx.TransactionType).toBe('tesSUCCESS');
  return r;
}

let issuer: Wallet;
let token: { currency: string; issuer: string };

/** The pool as the validated ledger holds it: drops and tokens. */
async function pool(): Promise<{ drops: Decimal; tokens: Decimal }> {
  const r = await client.request({
    command: 'amm_info',
    asset: { currency: 'XRP' },
    asset2: token,
    ledger_index: 'validated',
  });
  const amm = r.result.amm;
  return {
    drops: new Decimal(amm.amount as string),
    tokens: new Decimal((amm.amount2 as { value: string }).value),
  };
}

async function buyer(): Promise<Wallet> {
  const w = await fundedAccount(client, 100);
  await ok(
    { TransactionType: 'TrustSet', Account: w.address, LimitAmount: { ...token, value: '1000000' } },
    w,
  );
  return w;
}

async function held(w: Wallet): Promise<string> {
  const r = await client.request({
    command: 'account_lines',
    account: w.address,
    peer: issuer.address,
    ledger_index: 'validated',
  });
  return r.result.lines[0]?.balance ?? '0';
}

/** A buy of `amount` tokens the way a bot sends it: a Payment to itself, or an OfferCreate (IOC). */
async function buy(kind: 'payment' | 'offer', amount: string) {
  const w = await buyer();
  const before = await pool();
  await ok(
    kind === 'payment'
      ? {
          TransactionType: 'Payment',
          Account: w.address,
          Destination: w.address,
          Amount: { ...token, value: amount },
          SendMax: '20000000',
        }
      : {
          TransactionType: 'OfferCreate',
          Account: w.address,
          TakerPays: { ...token, value: amount },
          TakerGets: '20000000',
          Flags: IOC,
        },
    w,
  );
  const after = await pool();
  return {
    received: await held(w),
    poolTokensOut: before.tokens.minus(after.tokens),
    poolDropsIn: after.drops.minus(before.drops),
    before,
  };
}

/** What a 0-fee constant-product pool charges for `out` tokens: ⌈x·out / (y − out)⌉ drops. */
const dropsFor = (p: { drops: Decimal; tokens: Decimal }, out: Decimal) =>
  p.drops.mul(out).div(p.tokens.minus(out)).ceil();

describe("the issuer's TransferRate on buys from the token's AMM pool", () => {
  beforeAll(async () => {
    issuer = await fundedAccount(client, 100);
    const hot = await fundedAccount(client, 300);
    token = { currency: 'SNP', issuer: issuer.address };
    await ok(
      {
        TransactionType: 'AccountSet',
        Account: issuer.address,
        SetFlag: AccountSetAsfFlags.asfDefaultRipple,
      },
      issuer,
    );
    await ok(
      { TransactionType: 'TrustSet', Account: hot.address, LimitAmount: { ...token, value: '1000000' } },
      hot,
    );
    await ok(
      {
        TransactionType: 'Payment',
        Account: issuer.address,
        Destination: hot.address,
        Amount: { ...token, value: '1000000' },
      },
      issuer,
    );
    // A pool without a trading fee: every difference below is the transfer fee alone.
    await ok(
      {
        TransactionType: 'AMMCreate',
        Account: hot.address,
        Amount: '100000000',
        Amount2: { ...token, value: '1000000' },
        TradingFee: 0,
      },
      hot,
    );
    await ok({ TransactionType: 'AccountSet', Account: issuer.address, TransferRate: RATE_50 }, issuer);
  }, 60_000);

  it('a Payment buy routed through the pool pays it: the pool gives 1.5× what the buyer receives', async () => {
    const b = await buy('payment', '1000');
    expect(b.received).toBe('1000');
    // 1,000 delivered + 500 of transfer fee (burned by the issuer), all out of the pool.
    expect(b.poolTokensOut.toFixed()).toBe('1500');
    expect(b.poolDropsIn.toFixed()).toBe(dropsFor(b.before, new Decimal(1500)).toFixed());
  });

  it('an OfferCreate crossing the pool does not: the AMM pays no transfer fee on its output', async () => {
    const b = await buy('offer', '1000');
    expect(b.received).toBe('1000');
    expect(b.poolTokensOut.toFixed()).toBe('1000');
    expect(b.poolDropsIn.toFixed()).toBe(dropsFor(b.before, new Decimal(1000)).toFixed());
  });

  it('with the rate cleared neither pays it', async () => {
    await ok({ TransactionType: 'AccountSet', Account: issuer.address, TransferRate: 0 }, issuer);
    for (const kind of ['payment', 'offer'] as const) {
      const b = await buy(kind, '1000');
      expect(b.received).toBe('1000');
      expect(b.poolTokensOut.toFixed(), kind).toBe('1000');
      expect(b.poolDropsIn.toFixed(), kind).toBe(dropsFor(b.before, new Decimal(1000)).toFixed());
    }
  });
});

import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'xrpl';
import { desiredLadder, type BondingParams, type BondingView, type TokenView } from '@ledgerpad/shared';
import { fundedWallet } from '../helpers/trading-world';
import type { SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import {
  launchCurve,
  offersOf,
  outsideWallets,
  send,
  startCloser,
  submitNow,
  tokenBalance,
  waitValidated,
  xrpBalance,
  type Closer,
} from './bonding-world';

// A curve launch on the embedded ledger, end to end, checked through xrpl.js. pump.fun's curve with
// a 30 XRP virtual reserve (their 30 SOL): 200 steps of S = 3,965,500 tokens, a step j..j+1 costing
// X(j+1) − X(j) with X(j) = ceil(k / (y0 − j·S)) − x0, k = x0·y0; every expectation is worked out
// from that formula here, in BigInt, never read back from the code under test.

const x0 = 30_000_000n; // drops
const y0 = 1_073_000_000n;
const k = x0 * y0;
const S = 3_965_500n;
const X = (j: bigint) => (k + (y0 - j * S) - 1n) / (y0 - j * S) - x0;
const FEE_PPM = 7_500n; // the 0.75% trading fee
const feeOn = (v: bigint) => (v * FEE_PPM) / 1_000_000n;
/** What buying whole steps [a, b) one offer each costs: each step's value plus the fee on it. */
const buyCost = (a: bigint, b: bigint) => {
  let total = 0n;
  for (let j = a; j < b; j++) total += X(j + 1n) - X(j) + feeOn(X(j + 1n) - X(j));
  return total;
};
const params: BondingParams = { virtualQuote: x0, steps: 200, fineSteps: 6 };

let t: WalletTestApp;
let closer: Closer;
let owner: SignedIn;
let issuer: string;
let currency: string;
let curveAddress: string;
let outsider: Wallet;
const client = () => t.connection.client;

async function settled(): Promise<void> {
  // Everything validated so far is indexed, and the keeper has answered it.
  await t.app.platform.indexer!.caughtUp();
  await t.app.bonding.keeper!.idle();
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 0 });
  closer = startCloser(t, 100);
  await t.app.platform.accounts.bootstrapped();
  await t.app.platform.settings.set('bonding_virtual_xrp', '30');
  await t.app.platform.settings.set('bonding_snipe_ledgers', '0');
  owner = await t.signInOwner();
  const w = await fundedWallet(t, owner);
  const launched = await launchCurve(t, owner, w.id, { name: 'Curve Coin', ticker: 'CURVE' });
  issuer = launched.issuer_address;
  currency = launched.currency;
  curveAddress = launched.hot_wallet_address;
  [outsider] = await outsideWallets(client(), 1);
  await send(client(), outsider!, {
    TransactionType: 'TrustSet',
    Account: outsider!.classicAddress,
    LimitAmount: { currency, issuer, value: '1000000000' },
  });
}, 120_000);

afterAll(async () => {
  closer?.stop();
  await t?.close();
});

const ladderOnLedger = async () =>
  (await offersOf(client(), curveAddress)).map((o) => {
    const sell = typeof o.taker_gets !== 'string';
    const tokens = sell
      ? (o.taker_gets as { value: string }).value
      : (o.taker_pays as { value: string }).value;
    const quote = sell ? (o.taker_pays as string) : (o.taker_gets as string);
    return `${sell ? 'sell' : 'buy'} ${new Decimal(tokens).toFixed()} for ${quote}`;
  });
const ladderWanted = (sold: string) =>
  desiredLadder(params, sold, FEE_PPM).map((c) => `${c.side} ${c.tokens} for ${c.quote}`);

describe('a bonding-curve launch', () => {
  it('lists the token on its curve, blackholes the issuer and posts the whole curve as offers', async () => {
    await settled();
    const token = (
      await t.app.inject({ method: 'GET', url: `/api/tokens/issuer/${issuer}` })
    ).json() as TokenView;
    expect(token).toMatchObject({
      launch_type: 'bonding',
      is_bonding_curve: true,
      bonding_active: true,
      has_graduated_to_amm: false,
      supply: '1000000000',
    });
    const info = await client().request({
      command: 'account_info',
      account: issuer,
      ledger_index: 'validated',
    });
    expect(info.result.account_data.RegularKey).toBe('rrrrrrrrrrrrrrrrrrrrBZbvji');
    expect(info.result.account_data.Flags & 0x00100000).toBeTruthy(); // lsfDisableMaster
    expect(await tokenBalance(client(), curveAddress, issuer, currency)).toBe('1000000000');
    // Fine steps 0..5, then the aligned blocks [6,8) [8,16) [16,32) [32,64) [64,128) [128,192) [192,200).
    const wanted = ladderWanted('0');
    expect(wanted).toHaveLength(13);
    expect(wanted[0]).toBe(`sell 3965500 for ${X(1n) + feeOn(X(1n))}`);
    expect((await ladderOnLedger()).sort()).toEqual([...wanted].sort());
    const view = (await t.app.inject({ method: 'GET', url: `/api/bonding/${issuer}` })).json() as BondingView;
    expect(view).toMatchObject({
      status: 'active',
      percent: '0.00',
      raised: '0',
      target: '85.00536',
      quote: 'XRP',
    });
  });

  it('sells two whole steps to an outside wallet for exactly the curve integral plus the fee', async () => {
    const before = await xrpBalance(client(), outsider.classicAddress);
    const r = await send(client(), outsider, {
      TransactionType: 'Payment',
      Account: outsider.classicAddress,
      Destination: outsider.classicAddress,
      Amount: { currency, issuer, value: (2n * S).toString() },
      SendMax: '1000000000',
    });
    const fee = BigInt(r.tx_json?.Fee ?? (r as unknown as { Fee: string }).Fee);
    const after = await xrpBalance(client(), outsider.classicAddress);
    // (X(1) − X(0)) + (X(2) − X(1)) + the fee on each step = 111,283 + 834 + 112,111 + 840
    expect(before - after - fee).toBe(buyCost(0n, 2n));
    expect(buyCost(0n, 2n)).toBe(225_068n);
    expect(await tokenBalance(client(), outsider.classicAddress, issuer, currency)).toBe('7931000');
  });

  it('re-posts the ladder within one ledger of the crossing', async () => {
    await settled();
    closer.pause();
    try {
      // A crossing in ledger L (the outsider buys half a step), then the keeper's round into L + 1.
      const hash = await submitNow(client(), outsider, {
        TransactionType: 'Payment',
        Account: outsider.classicAddress,
        Destination: outsider.classicAddress,
        Amount: { currency, issuer, value: (S / 2n).toString() },
        SendMax: '1000000000',
      });
      const L = closer.close();
      expect((await waitValidated(client(), hash)).ledger).toBe(L);
      const rounds: string[] = [];
      const off = t.app.bonding.keeper!.onRound((r) => rounds.push(...r.hashes));
      await t.app.platform.indexer!.caughtUp(L);
      await t.app.bonding.keeper!.idle();
      off();
      expect(rounds.length).toBeGreaterThan(0);
      const next = closer.close();
      expect(next).toBe(L + 1);
      for (const h of rounds)
        expect(await waitValidated(client(), h)).toEqual({ ledger: L + 1, result: 'tesSUCCESS' });
      // In ledger L + 1 the ladder is the one 2.5 steps sold calls for: step 2 split between the
      // sell side and the buy side, steps 1 and 0 bought back at their value less the fee.
      const sold = (2n * S + S / 2n).toString();
      expect((await ladderOnLedger()).sort()).toEqual(ladderWanted(sold).sort());
      const half = (X(3n) - X(2n)) / 2n; // floor(D(2) / 2), the sold half of step 2
      expect(ladderWanted(sold)).toContain(`buy 1982750 for ${half - feeOn(half)}`);
      expect(ladderWanted(sold)).toContain(`buy 3965500 for ${X(2n) - X(1n) - feeOn(X(2n) - X(1n))}`);
    } finally {
      closer.resume();
    }
  });
});

// AMM transactions through xrpl.js against the stand-alone server. Expected pool balances and LP
// token amounts are worked out from the XLS-30 formulas with rippled's rounding (see comments).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'xrpl';
import {
  type Dex,
  expectResult,
  funded,
  issue,
  issuer,
  startDex,
  submit,
  submitRaw,
  tokenBalance,
  usd,
  xrpBalance,
  request,
} from './helpers';

const XRP = { currency: 'XRP' };

async function ammInfo(dex: Dex, gw: Wallet, account?: string) {
  const r = await request<{ amm: Record<string, unknown> }>(dex, {
    command: 'amm_info',
    asset: XRP,
    asset2: { currency: 'USD', issuer: gw.address },
    ...(account ? { account } : {}),
  });
  return r.amm;
}

function lpValue(info: Record<string, unknown>): string {
  return (info.lp_token as { value: string }).value;
}

describe('AMMCreate', () => {
  let dex: Dex;
  let gw: Wallet;
  let alice: Wallet;
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    alice = await funded(dex, 30_000);
    await issue(dex, gw, alice, 'USD', '50000');
  });
  afterAll(() => dex.close());

  it('rejects malformed pools with tem codes and charges nothing', async () => {
    const before = await xrpBalance(dex, alice.address);
    const base = { TransactionType: 'AMMCreate', Amount: '10000000000', Amount2: usd(gw, '10000') };
    expect(await submitRaw(dex, alice, { ...base, TradingFee: 1001 }, '200000')).toBe('temBAD_FEE');
    expect(await submitRaw(dex, alice, { ...base, Amount2: '5000000', TradingFee: 0 }, '200000')).toBe(
      'temBAD_AMM_TOKENS',
    );
    expect(await submitRaw(dex, alice, { ...base, Amount: '0', TradingFee: 0 }, '200000')).toBe(
      'temBAD_AMOUNT',
    );
    expect(await submitRaw(dex, alice, { ...base, Amount2: usd(gw, '-5'), TradingFee: 0 }, '200000')).toBe(
      'temBAD_AMOUNT',
    );
    // the fee must be one owner reserve
    expect(await submitRaw(dex, alice, { ...base, TradingFee: 0 }, '10')).toBe('telINSUF_FEE_P');
    expect(await xrpBalance(dex, alice.address)).toBe(before);
  });

  it('needs DefaultRipple on the issuer (terNO_RIPPLE)', async () => {
    const plain = await funded(dex);
    await issue(dex, plain, alice, 'EUR', '100');
    const r = await submit(dex, alice, {
      TransactionType: 'AMMCreate',
      Amount: '1000000',
      Amount2: { currency: 'EUR', issuer: plain.address, value: '10' },
      TradingFee: 0,
    });
    expect(r.result).toBe('terNO_RIPPLE');
  });

  it('creates the pool: sqrt(A*B) LP tokens, creator vote and auction slot, fee = owner reserve', async () => {
    const before = await xrpBalance(dex, alice.address);
    const r = await expectResult(dex, alice, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 500,
    });
    // xrpl.js autofills the AMMCreate fee as one owner reserve (0.2 XRP)
    expect((r.tx as { Fee: string }).Fee).toBe('200000');
    expect(before - (await xrpBalance(dex, alice.address))).toBe(10_000_000_000n + 200_000n);
    const info = await ammInfo(dex, gw);
    expect(info.amount).toBe('10000000000');
    expect(info.amount2).toEqual(usd(gw, '10000'));
    // sqrt(10^10 drops * 10^4) = 10^7
    expect(lpValue(info)).toBe('10000000');
    const lpt = info.lp_token as { currency: string; issuer: string };
    expect(lpt.currency).toMatch(/^03[0-9A-F]{38}$/);
    expect(lpt.issuer).toBe(info.account);
    expect(info.trading_fee).toBe(500);
    expect(info.vote_slots).toEqual([{ account: alice.address, trading_fee: 500, vote_weight: 100000 }]);
    const slot = info.auction_slot as Record<string, unknown>;
    expect(slot.account).toBe(alice.address);
    expect(slot.discounted_fee).toBe(50);
    expect(slot.time_interval).toBe(0);
    expect((slot.price as { value: string }).value).toBe('0');
    expect(await tokenBalance(dex, alice.address, lpt.issuer, lpt.currency)).toBe('10000000');
    // the AMM object is readable by account too, and its pseudo-account has AMMID and no master key
    const byAccount = await request<{ amm: { lp_token: unknown } }>(dex, {
      command: 'amm_info',
      amm_account: String(info.account),
    });
    expect(byAccount.amm.lp_token).toEqual(info.lp_token);
    const acct = await dex.client.request({ command: 'account_info', account: String(info.account) });
    expect(acct.result.account_data.Flags & 0x00100000).toBe(0x00100000);
    expect(typeof (acct.result.account_data as unknown as { AMMID: string }).AMMID).toBe('string');
  });

  it('refuses a second pool for the same pair (tecDUPLICATE), charging the fee', async () => {
    const before = await xrpBalance(dex, alice.address);
    const r = await submit(dex, alice, {
      TransactionType: 'AMMCreate',
      Amount2: '1000000',
      Amount: usd(gw, '10'),
      TradingFee: 0,
    });
    expect(r.result).toBe('tecDUPLICATE');
    expect(before - (await xrpBalance(dex, alice.address))).toBe(200_000n);
  });

  it('refuses frozen funds (tecFROZEN)', async () => {
    const bob = await funded(dex);
    await issue(dex, gw, bob, 'GBP', '100');
    await expectResult(dex, gw, {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: 'GBP', issuer: bob.address, value: '0' },
      Flags: 0x00100000,
    });
    const r = await submit(dex, bob, {
      TransactionType: 'AMMCreate',
      Amount: '1000000',
      Amount2: { currency: 'GBP', issuer: gw.address, value: '10' },
      TradingFee: 0,
    });
    expect(r.result).toBe('tecFROZEN');
  });

  it('refuses an unfunded creator (tecUNFUNDED_AMM)', async () => {
    const carol = await funded(dex, 100);
    await issue(dex, gw, carol, 'USD', '5');
    const r = await submit(dex, carol, {
      TransactionType: 'AMMCreate',
      Amount: '1000000',
      Amount2: { currency: 'CAD', issuer: gw.address, value: '10' },
      TradingFee: 0,
    });
    expect(r.result).toBe('tecUNFUNDED_AMM');
  });
});

describe('AMMDeposit and AMMWithdraw (zero fee pool, 10,000 XRP / 10,000 USD)', () => {
  let dex: Dex;
  let gw: Wallet;
  let alice: Wallet;
  let bob: Wallet;
  const asset = { Asset: XRP, Asset2: { currency: 'USD', issuer: '' } };
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    alice = await funded(dex, 30_000);
    bob = await funded(dex, 30_000);
    await issue(dex, gw, alice, 'USD', '50000');
    await issue(dex, gw, bob, 'USD', '50000');
    asset.Asset2.issuer = gw.address;
    await expectResult(dex, alice, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 0,
    });
  });
  afterAll(() => dex.close());

  it('validates flags and fields (temMALFORMED, temBAD_AMM_TOKENS, terNO_AMM)', async () => {
    expect(
      await submitRaw(dex, bob, { TransactionType: 'AMMDeposit', ...asset, Amount: '1000000', Flags: 0 }),
    ).toBe('temMALFORMED');
    expect(await submitRaw(dex, bob, { TransactionType: 'AMMDeposit', ...asset, Flags: 0x00080000 })).toBe(
      'temMALFORMED',
    );
    expect(
      await submitRaw(dex, bob, {
        TransactionType: 'AMMDeposit',
        Asset: XRP,
        Asset2: XRP,
        Amount: '1000000',
        Flags: 0x00080000,
      }),
    ).toBe('temBAD_AMM_TOKENS');
    expect(
      await submitRaw(dex, bob, {
        TransactionType: 'AMMDeposit',
        ...asset,
        Amount: usd(gw, '-1'),
        Flags: 0x00080000,
      }),
    ).toBe('temBAD_AMOUNT');
    expect(await submitRaw(dex, bob, { TransactionType: 'AMMWithdraw', ...asset, Flags: 0x00030000 })).toBe(
      'temMALFORMED',
    );
    expect(
      (
        await submit(dex, bob, {
          TransactionType: 'AMMDeposit',
          Asset: XRP,
          Asset2: { currency: 'JPY', issuer: gw.address },
          Amount: '1000000',
          Flags: 0x00080000,
        })
      ).result,
    ).toBe('terNO_AMM');
  });

  it('tfLPToken: 1,000 LP tokens for 1/10,000 of each side', async () => {
    const info0 = await ammInfo(dex, gw);
    const lpt = info0.lp_token as { currency: string; issuer: string };
    await expectResult(dex, bob, {
      TransactionType: 'AMMDeposit',
      ...asset,
      LPTokenOut: { currency: lpt.currency, issuer: lpt.issuer, value: '1000' },
      Flags: 0x00010000,
    });
    const info = await ammInfo(dex, gw);
    expect(info.amount).toBe('10001000000');
    expect((info.amount2 as { value: string }).value).toBe('10001');
    expect(lpValue(info)).toBe('10001000');
    expect(lpValue(await ammInfo(dex, gw, bob.address))).toBe('1000');
  });

  it('tfTwoAsset: limited by the scarcer side (100 XRP, up to 200 USD)', async () => {
    // frac = 100 XRP / 10,001 XRP; tokens = 10,001,000 * frac = 100,000 exactly; USD = 10,001 * frac = 100
    await expectResult(dex, bob, {
      TransactionType: 'AMMDeposit',
      ...asset,
      Amount: '100000000',
      Amount2: usd(gw, '200'),
      Flags: 0x00100000,
    });
    const info = await ammInfo(dex, gw);
    expect(info.amount).toBe('10101000000');
    expect((info.amount2 as { value: string }).value).toBe('10101');
    expect(lpValue(info)).toBe('10101000');
  });

  it('tfWithdrawAll by bob returns his proportional share', async () => {
    // bob holds 101,000 of 10,101,000 tokens = 1/100.0099...: exactly 101,000,000 drops and 101 USD
    await expectResult(dex, bob, { TransactionType: 'AMMWithdraw', ...asset, Flags: 0x00020000 });
    const info = await ammInfo(dex, gw);
    expect(info.amount).toBe('10000000000');
    expect((info.amount2 as { value: string }).value).toBe('10000');
    expect(lpValue(info)).toBe('10000000');
    expect(lpValue(await ammInfo(dex, gw, bob.address))).toBe('0');
  });

  it('tfSingleAsset: 100 USD in mints 49,875.62112089 LP tokens (eq. 3, fixAMMv1_3)', async () => {
    // tokens: 10^7 * ((0.01 - c)/(1 + c)), c = sqrt(1.01) - 1 rounded, then the 16-digit balance
    // adjustment (10^7 + t) - 10^7 -> 49,875.62112089; the deposit is re-derived from the tokens
    // (eq. 4): the quadratic's discriminant is 0.9999999999999992, whose root by rippled's Newton
    // iteration is 0.9999999999999995 (one below the correctly rounded value), giving
    // frac = 0.009999999999999848 and a deposit of 99.99999999999848 USD (rounded up). The pool's
    // trust line then holds 10,099.99999999999848, which 16 digits round to 10,100.
    const before = await tokenBalance(dex, bob.address, gw.address, 'USD');
    await expectResult(dex, bob, {
      TransactionType: 'AMMDeposit',
      ...asset,
      Amount: usd(gw, '100'),
      Flags: 0x00080000,
    });
    const info = await ammInfo(dex, gw);
    expect(lpValue(await ammInfo(dex, gw, bob.address))).toBe('49875.62112089');
    // bob's 50,000 - 99.99999999999848 = 49,900.00000000000152 -> 49,900 in 16 digits
    expect(before).toBe('50000');
    expect(await tokenBalance(dex, bob.address, gw.address, 'USD')).toBe('49900');
    expect((info.amount2 as { value: string }).value).toBe('10100');
    expect(lpValue(info)).toBe('10049875.62112089');
  });

  it('tfOneAssetLPToken / tfLimitLPToken deposits and tfSingleAsset withdrawal keep the invariant', async () => {
    const lpt = (await ammInfo(dex, gw)).lp_token as { currency: string; issuer: string };
    const lp = (v: string) => ({ currency: lpt.currency, issuer: lpt.issuer, value: v });
    await expectResult(dex, bob, {
      TransactionType: 'AMMDeposit',
      ...asset,
      Amount: '1000000000',
      LPTokenOut: lp('1000'),
      Flags: 0x00200000,
    });
    await expectResult(dex, bob, {
      TransactionType: 'AMMDeposit',
      ...asset,
      Amount: usd(gw, '50'),
      EPrice: usd(gw, '10'),
      Flags: 0x00400000,
    });
    await expectResult(dex, bob, {
      TransactionType: 'AMMWithdraw',
      ...asset,
      Amount: usd(gw, '10'),
      Flags: 0x00080000,
    });
    await expectResult(dex, bob, {
      TransactionType: 'AMMWithdraw',
      ...asset,
      Amount: '100000',
      LPTokenIn: lp('100'),
      Flags: 0x00200000,
    });
    // asking for more than the tokens are worth fails
    expect(
      (
        await submit(dex, bob, {
          TransactionType: 'AMMWithdraw',
          ...asset,
          Amount: '1000000',
          LPTokenIn: lp('100'),
          Flags: 0x00200000,
        })
      ).result,
    ).toBe('tecAMM_FAILED');
    const info = await ammInfo(dex, gw);
    const x = Number(info.amount);
    const y = Number((info.amount2 as { value: string }).value);
    // sqrt(asset1 * asset2) >= LP token balance, the pool never loses to rounding
    expect(Math.sqrt(x * y)).toBeGreaterThanOrEqual(Number(lpValue(info)));
  });

  it('withdrawing more than held fails (tecAMM_INVALID_TOKENS); withdrawing all of one side fails (tecAMM_BALANCE)', async () => {
    const lpt = (await ammInfo(dex, gw)).lp_token as { currency: string; issuer: string };
    const r1 = await submit(dex, bob, {
      TransactionType: 'AMMWithdraw',
      ...asset,
      LPTokenIn: { ...lpt, value: '99999999' },
      Flags: 0x00010000,
    });
    expect(r1.result).toBe('tecAMM_INVALID_TOKENS');
    const r2 = await submit(dex, bob, {
      TransactionType: 'AMMWithdraw',
      ...asset,
      Amount: usd(gw, '20000'),
      Flags: 0x00080000,
    });
    expect(r2.result).toBe('tecAMM_BALANCE');
  });

  it('the last LP withdrawing all deletes the AMM and its account', async () => {
    await expectResult(dex, bob, { TransactionType: 'AMMWithdraw', ...asset, Flags: 0x00020000 });
    const info = await ammInfo(dex, gw);
    const account = String(info.account);
    await expectResult(dex, alice, { TransactionType: 'AMMWithdraw', ...asset, Flags: 0x00020000 });
    await expect(ammInfo(dex, gw)).rejects.toThrow();
    await expect(dex.client.request({ command: 'account_info', account })).rejects.toThrow();
    const del = await submit(dex, alice, { TransactionType: 'AMMDelete', ...asset });
    expect(del.result).toBe('terNO_AMM');
  });
});

describe('AMMVote and AMMBid', () => {
  let dex: Dex;
  let gw: Wallet;
  let alice: Wallet;
  let bob: Wallet;
  const asset = { Asset: XRP, Asset2: { currency: 'USD', issuer: '' } };
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    alice = await funded(dex, 30_000);
    bob = await funded(dex, 30_000);
    await issue(dex, gw, alice, 'USD', '50000');
    await issue(dex, gw, bob, 'USD', '50000');
    asset.Asset2.issuer = gw.address;
    await expectResult(dex, alice, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 600,
    });
    // bob takes a third of alice's share: 5,000,000 LP tokens
    const lpt = (await ammInfo(dex, gw)).lp_token as { currency: string; issuer: string };
    await expectResult(dex, bob, {
      TransactionType: 'AMMDeposit',
      ...asset,
      LPTokenOut: { ...lpt, value: '5000000' },
      Flags: 0x00010000,
    });
  });
  afterAll(() => dex.close());

  it('weights the fee by LP tokens: (600*10M + 0*5M)/15M = 400', async () => {
    expect(await submitRaw(dex, bob, { TransactionType: 'AMMVote', ...asset, TradingFee: 1001 })).toBe(
      'temBAD_FEE',
    );
    const stranger = await funded(dex);
    expect(
      (await submit(dex, stranger, { TransactionType: 'AMMVote', ...asset, TradingFee: 10 })).result,
    ).toBe('tecAMM_INVALID_TOKENS');
    await expectResult(dex, bob, { TransactionType: 'AMMVote', ...asset, TradingFee: 0 });
    const info = await ammInfo(dex, gw);
    expect(info.trading_fee).toBe(400);
    // weights: 10M/15M and 5M/15M of 100,000
    expect(info.vote_slots).toEqual([
      { account: alice.address, trading_fee: 600, vote_weight: 66667 },
      { account: bob.address, trading_fee: 0, vote_weight: 33333 },
    ]);
    expect((info.auction_slot as { discounted_fee: number }).discounted_fee).toBe(40);
  });

  it('bob outbids alice in the first interval: he pays the minimum price, which is burned', async () => {
    // alice's slot cost 0; the minimum price is 15,000,000 * 0.004 / 25 = 2,400; alice is refunded
    // 95% of 0. The 2,400 tokens leave the LP token supply.
    await expectResult(dex, bob, {
      TransactionType: 'AMMBid',
      ...asset,
      AuthAccounts: [{ AuthAccount: { Account: gw.address } }],
    });
    const info = await ammInfo(dex, gw);
    const slot = info.auction_slot as Record<string, unknown>;
    expect(slot.account).toBe(bob.address);
    expect((slot.price as { value: string }).value).toBe('2400');
    expect(slot.auth_accounts).toEqual([{ account: gw.address }]);
    expect(lpValue(info)).toBe('14997600');
    expect(lpValue(await ammInfo(dex, gw, bob.address))).toBe('4997600');
  });

  it('alice outbids bob: 1.05 * 2,400 + min price; bob gets 95% back', async () => {
    // min price now 14,997,600 * 0.004 / 25 = 2,399.616; price = 2,520 + 2,399.616 = 4,919.616;
    // refund to bob = 0.95 * 2,400 = 2,280; burned 2,639.616
    await expectResult(dex, alice, { TransactionType: 'AMMBid', ...asset });
    const info = await ammInfo(dex, gw);
    expect((info.auction_slot as { account: string }).account).toBe(alice.address);
    expect((info.auction_slot as { price: { value: string } }).price.value).toBe('4919.616');
    expect(lpValue(await ammInfo(dex, gw, bob.address))).toBe('4999880');
    expect(lpValue(info)).toBe('14994960.384');
  });

  it('BidMax below the price fails (tecAMM_FAILED); more than held (tecAMM_INVALID_TOKENS)', async () => {
    const lpt = (await ammInfo(dex, gw)).lp_token as { currency: string; issuer: string };
    expect(
      (await submit(dex, bob, { TransactionType: 'AMMBid', ...asset, BidMax: { ...lpt, value: '10' } }))
        .result,
    ).toBe('tecAMM_FAILED');
    expect(
      (await submit(dex, bob, { TransactionType: 'AMMBid', ...asset, BidMin: { ...lpt, value: '99999999' } }))
        .result,
    ).toBe('tecAMM_INVALID_TOKENS');
  });

  it('AMMDelete refuses a non-empty pool (tecAMM_NOT_EMPTY)', async () => {
    expect((await submit(dex, bob, { TransactionType: 'AMMDelete', ...asset })).result).toBe(
      'tecAMM_NOT_EMPTY',
    );
  });
});

describe('AMMWithdraw modes (zero fee pool, 10,000 XRP / 10,000 USD)', () => {
  let dex: Dex;
  let gw: Wallet;
  let alice: Wallet;
  let bob: Wallet;
  const asset = { Asset: XRP, Asset2: { currency: 'USD', issuer: '' } };
  beforeAll(async () => {
    dex = await startDex();
    gw = await issuer(dex);
    alice = await funded(dex, 30_000);
    bob = await funded(dex, 30_000);
    await issue(dex, gw, alice, 'USD', '50000');
    await issue(dex, gw, bob, 'USD', '50000');
    asset.Asset2.issuer = gw.address;
    await expectResult(dex, alice, {
      TransactionType: 'AMMCreate',
      Amount: '10000000000',
      Amount2: usd(gw, '10000'),
      TradingFee: 0,
    });
  });
  afterAll(() => dex.close());

  it('tfTwoAsset: 100 XRP and up to 200 USD takes 1% of each side for 100,000 LP tokens', async () => {
    // frac = 10^8 / 10^10 = 0.01; tokens = 10^7 * 0.01 = 100,000; USD = 10,000 * 0.01 = 100 <= 200
    await expectResult(dex, alice, {
      TransactionType: 'AMMWithdraw',
      ...asset,
      Amount: '100000000',
      Amount2: usd(gw, '200'),
      Flags: 0x00100000,
    });
    const info = await ammInfo(dex, gw);
    expect(info.amount).toBe('9900000000');
    expect((info.amount2 as { value: string }).value).toBe('9900');
    expect(lpValue(info)).toBe('9900000');
  });

  it('tfLPToken: 1,000 LP tokens return 1,000,000 drops and 1 USD', async () => {
    // frac = divide(1000, 9,900,000) = 1.010101010101011e-4 (STAmount division rounds the last
    // digit up); 9.9e9 drops * frac = 1,000,000.000000001 -> 1,000,000 (down);
    // 9,900 USD * frac = 1.0000000000000009 -> 1 (down)
    const lpt = (await ammInfo(dex, gw)).lp_token as { currency: string; issuer: string };
    await expectResult(dex, alice, {
      TransactionType: 'AMMWithdraw',
      ...asset,
      LPTokenIn: { ...lpt, value: '1000' },
      Flags: 0x00010000,
    });
    const info = await ammInfo(dex, gw);
    expect(info.amount).toBe('9899000000');
    expect((info.amount2 as { value: string }).value).toBe('9899');
    expect(lpValue(info)).toBe('9899000');
  });

  it('tfTwoAssetIfEmpty is refused on a pool that is not empty (tecAMM_NOT_EMPTY)', async () => {
    const r = await submit(dex, bob, {
      TransactionType: 'AMMDeposit',
      ...asset,
      Amount: '1000000',
      Amount2: usd(gw, '1'),
      Flags: 0x00800000,
    });
    expect(r.result).toBe('tecAMM_NOT_EMPTY');
  });

  it('tfOneAssetWithdrawAll returns all of an LP share in one asset', async () => {
    const lpt = (await ammInfo(dex, gw)).lp_token as { currency: string; issuer: string };
    await expectResult(dex, bob, {
      TransactionType: 'AMMDeposit',
      ...asset,
      LPTokenOut: { ...lpt, value: '10000' },
      Flags: 0x00010000,
    });
    const before = await ammInfo(dex, gw);
    const usdBefore = Number(await tokenBalance(dex, bob.address, gw.address, 'USD'));
    await expectResult(dex, bob, {
      TransactionType: 'AMMWithdraw',
      ...asset,
      Amount: usd(gw, '0'),
      Flags: 0x00040000,
    });
    const after = await ammInfo(dex, gw);
    expect(lpValue(await ammInfo(dex, gw, bob.address))).toBe('0');
    expect(after.amount).toBe(before.amount);
    // bob put in 1/990 of each side (10 + 10,000,000 drops) and takes it all back as USD: about 20 USD
    const got = Number(await tokenBalance(dex, bob.address, gw.address, 'USD')) - usdBefore;
    expect(got).toBeGreaterThan(19.9);
    expect(got).toBeLessThan(20);
  });

  it('tfLimitLPToken withdraws at an effective price no worse than EPrice', async () => {
    const lpt = (await ammInfo(dex, gw)).lp_token as { currency: string; issuer: string };
    const before = await ammInfo(dex, gw);
    const mine = Number(lpValue(await ammInfo(dex, gw, alice.address)));
    // The marginal price of a tiny one-sided USD withdrawal is T / (2 * USD balance) LP tokens per
    // USD; ask for 2% above it, which solves to a withdrawal of a few hundred USD.
    const marginal = Number(lpValue(before)) / (2 * Number((before.amount2 as { value: string }).value));
    const ePrice = (marginal * 1.02).toFixed(6);
    await expectResult(dex, alice, {
      TransactionType: 'AMMWithdraw',
      ...asset,
      Amount: usd(gw, '5'),
      EPrice: { ...lpt, value: ePrice },
      Flags: 0x00400000,
    });
    const after = await ammInfo(dex, gw);
    const usdOut =
      Number((before.amount2 as { value: string }).value) -
      Number((after.amount2 as { value: string }).value);
    const tokensIn = mine - Number(lpValue(await ammInfo(dex, gw, alice.address)));
    expect(usdOut).toBeGreaterThanOrEqual(5);
    expect(tokensIn / usdOut).toBeLessThanOrEqual(Number(ePrice) * 1.000001);
    expect(tokensIn / usdOut).toBeGreaterThan(marginal);
  });
});

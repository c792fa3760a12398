import { describe, expect, it } from 'vitest';
import { ammSwapOut, deployCost, deployFormSchema, Decimal, firstBuyPreview } from '../src';

describe('the first buy (issue 37)', () => {
  it('swaps by XLS-30: out = B × (1 − A / (A + a(1 − f)))', () => {
    // 100 XRP and 1,000,000 tokens at 0.5%: 10 XRP in → 1e6 × (1 − 1e8 / (1e8 + 9,950,000)).
    const out = ammSwapOut('100000000', '1000000', '10000000', 500);
    const exact = new Decimal(1_000_000).mul(new Decimal(1).minus(new Decimal(1e8).div(1e8 + 9_950_000)));
    expect(out.toFixed()).toBe(exact.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed());
    expect(out.toFixed()).toBe('90495.6798544793');
    expect(ammSwapOut('100', '1000', '0', 0).toFixed()).toBe('0');
  });

  it('previews the starting price, market cap, holdings and cost', () => {
    const p = firstBuyPreview({
      liquidityXrp: '100',
      poolTokens: '900000',
      supply: '1000000',
      devAmount: '100000',
      lockedAmount: '60000',
      buyXrp: '10',
      tradingFee: 1000,
      feePercent: '0.75',
    });
    expect(p.startPrice.toFixed()).toBe(new Decimal(100).div(900000).toFixed());
    expect(p.marketCap.toFixed()).toBe(new Decimal(100).div(900000).mul(1000000).toFixed());
    // The buyer holds the pool's auction slot: TradingFee 1000 (1%) discounted to 100.
    const out = ammSwapOut('100000000', '900000', '10000000', 100);
    expect(p.tokensOut.toFixed()).toBe(out.toFixed());
    expect(p.creatorLocked.toFixed()).toBe('60000');
    expect(p.creatorUnlocked.toFixed()).toBe(out.plus(40000).toFixed());
    expect(p.buyDrops).toBe(10_000_000n);
    expect(p.feeDrops).toBe(75_000n);
    expect(p.totalDrops).toBe(10_075_000n);
  });

  it('is counted in the deploy cost, with its fee and a trust line', () => {
    const fees = {
      service_fee: '10',
      issuer_reserve: '2',
      hot_wallet_reserve: '4',
      airdrop_fee_xrp: '1',
      owner_reserve: '0.2',
      network_fee_allowance: '0.01',
      trading_fee_percent: '0.75',
    } as Parameters<typeof deployCost>[1];
    const base = { liquidityPairType: 'XRP' as const, liquidityAmount: '100', devAllocation: '0' };
    const without = deployCost(base, fees, 2);
    const withBuy = deployCost({ ...base, firstBuyXrp: '10' }, fees, 2);
    expect(withBuy.firstBuy).toBe('10');
    expect(withBuy.firstBuyFee).toBe('0.075');
    expect(new Decimal(withBuy.xrp).minus(without.xrp).toFixed()).toBe('10.276'); // + line + network
  });

  it('from a self-custody wallet, also carries the Checks and the pre-authorized line (docs/self-custody.md)', () => {
    const fees = {
      service_fee: '10',
      issuer_reserve: '2',
      hot_wallet_reserve: '4',
      airdrop_fee_xrp: '1',
      owner_reserve: '0.2',
      network_fee_allowance: '0.01',
      trading_fee_percent: '0.75',
      base_fee: '0.00001',
    } as Parameters<typeof deployCost>[1];
    const form = {
      liquidityPairType: 'XRP' as const,
      liquidityAmount: '100',
      devAllocation: '10',
      firstBuyXrp: '10',
      requireAuth: true,
    };
    const custodial = deployCost(form, fees, 2);
    const self = deployCost(form, fees, 2, { selfCustody: true });
    expect([custodial.selfCustodyIssuer, custodial.selfCustodyHot]).toEqual(['0', '0']);
    // Issuer: the dev allocation's Check (0.2) and its side of the pre-authorized line (0.2) with
    // that TrustSet's fee; hot wallet: the service fee's network fee, the first buy's Check and its fee.
    expect(self.selfCustodyIssuer).toBe('0.40001');
    expect(self.selfCustodyHot).toBe('0.20002');
    expect(new Decimal(self.xrp).minus(custodial.xrp).toFixed()).toBe('0.60003');
    // Without RequireAuth, no pre-authorization; without a service fee (the owner), no fee payment.
    expect(
      deployCost({ ...form, requireAuth: false }, fees, 2, { selfCustody: true }).selfCustodyIssuer,
    ).toBe('0.2');
    expect(deployCost(form, fees, 1, { selfCustody: true }).selfCustodyHot).toBe('0.20001');
    // An RLUSD pair (no first buy): the service fee's network fee and the CheckCash's of the RLUSD.
    const rlusdPair = { ...form, liquidityPairType: 'RLUSD' as const, firstBuyXrp: undefined };
    expect(deployCost(rlusdPair, fees, 2, { selfCustody: true }).selfCustodyHot).toBe('0.00002');
    expect(deployCost(rlusdPair, fees, 2).selfCustodyHot).toBe('0');
  });

  it('is refused on an RLUSD pair and with more than 6 decimals', () => {
    const form = {
      name: 'First Buy',
      ticker: 'FB',
      description: '',
      supply: '1000000',
      liquidityAmount: '100',
      ammFee: '0.5',
      logoUrl: '/uploads/x.png',
    };
    expect(deployFormSchema.safeParse({ ...form, firstBuyXrp: '10' }).success).toBe(true);
    expect(deployFormSchema.safeParse({ ...form, firstBuyXrp: '' }).success).toBe(true);
    expect(deployFormSchema.safeParse({ ...form, firstBuyXrp: '1.1234567' }).success).toBe(false);
    expect(
      deployFormSchema.safeParse({ ...form, liquidityPairType: 'RLUSD', firstBuyXrp: '10' }).success,
    ).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ammFeeToTradingFee, DEPLOY_MESSAGES, deployFormSchema, stripHtml } from '../src/schemas/deploy';

const valid = {
  name: 'Moon Coin',
  ticker: 'MOON',
  description: 'A token.',
  supply: '1000000',
  devAllocation: '5',
  liquidityAmount: '100',
  ammFee: '0.5',
  logoUrl: '/cdn/logos/x.webp',
};

const messageFor = (patch: Record<string, unknown>) => {
  const r = deployFormSchema.safeParse({ ...valid, ...patch });
  return r.success ? undefined : r.error.issues[0]!.message;
};

describe('deploy form schema (spec 001 §5)', () => {
  it('accepts a valid form with the defaults of the spec', () => {
    const r = deployFormSchema.parse(valid);
    expect(r).toMatchObject({ blackholeIssuer: true, requireAuth: false, liquidityPairType: 'XRP' });
  });

  it('gives the spec message for each rule', () => {
    expect(messageFor({ name: 'A' })).toBe(DEPLOY_MESSAGES.name);
    expect(messageFor({ name: 'Moon_Coin' })).toBe(DEPLOY_MESSAGES.name);
    expect(messageFor({ name: 'x'.repeat(31) })).toBe(DEPLOY_MESSAGES.name);
    expect(messageFor({ ticker: 'M' })).toBe(DEPLOY_MESSAGES.ticker);
    expect(messageFor({ ticker: 'MOON-1' })).toBe(DEPLOY_MESSAGES.ticker);
    expect(messageFor({ ticker: 'xrp' })).toBe(DEPLOY_MESSAGES.tickerXrp);
    expect(messageFor({ description: 'd'.repeat(501) })).toBe(
      'Description must be less than 500 characters.',
    );
    expect(messageFor({ supply: '0' })).toBe(DEPLOY_MESSAGES.supply);
    expect(messageFor({ supply: '-5' })).toBe(DEPLOY_MESSAGES.supply);
    expect(messageFor({ supply: '1234567890123456' })).toBe(DEPLOY_MESSAGES.supplyPrecision);
    expect(messageFor({ liquidityAmount: '0' })).toBe(DEPLOY_MESSAGES.liquidity);
    expect(messageFor({ ammFee: '1.01' })).toBe(DEPLOY_MESSAGES.ammFee);
    expect(messageFor({ ammFee: '0.005' })).toBe(DEPLOY_MESSAGES.ammFee);
    expect(messageFor({ devAllocation: '101' })).toBe(DEPLOY_MESSAGES.devAllocation);
    expect(messageFor({ twitterLink: 'https://evil.example/moon' })).toBe(DEPLOY_MESSAGES.twitter);
    expect(messageFor({ telegramLink: 'http://t.me/moon' })).toBe(DEPLOY_MESSAGES.telegram);
    expect(messageFor({ websiteLink: 'javascript:alert(1)' })).toBe(DEPLOY_MESSAGES.website);
    expect(messageFor({ logoUrl: '' })).toBe(DEPLOY_MESSAGES.logo);
  });

  it('strips HTML before checking, and accepts the links of the spec', () => {
    expect(stripHtml('<b>Moon</b> <script>x</script>Coin')).toBe('Moon xCoin');
    const r = deployFormSchema.parse({
      ...valid,
      name: '<i>Moon</i> Coin',
      twitterLink: 'https://x.com/moon',
      telegramLink: 'https://t.me/+invite',
      websiteLink: 'https://moon.example',
    });
    expect(r.name).toBe('Moon Coin');
  });

  it('converts the AMM fee percent to the ledger TradingFee exactly', () => {
    expect(ammFeeToTradingFee('0.5')).toBe(500);
    expect(ammFeeToTradingFee('1')).toBe(1000);
    expect(ammFeeToTradingFee('0.01')).toBe(10);
    expect(ammFeeToTradingFee('0.29')).toBe(290);
  });

  it('answers empty and non-numeric amounts with their message instead of throwing', () => {
    for (const [field, message] of [
      ['supply', DEPLOY_MESSAGES.supply],
      ['liquidityAmount', DEPLOY_MESSAGES.liquidity],
      ['ammFee', DEPLOY_MESSAGES.ammFee],
      ['devAllocation', DEPLOY_MESSAGES.devAllocation],
    ] as const) {
      for (const bad of ['', 'abc', '1e5']) {
        const r = deployFormSchema.safeParse({ ...valid, [field]: bad });
        expect(r.success).toBe(false);
        expect(r.error!.issues.map((i) => i.message)).toContain(message);
      }
    }
  });
});

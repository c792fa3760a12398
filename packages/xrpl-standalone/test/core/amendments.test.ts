import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_AMENDMENTS,
  Rules,
  amendmentId,
  currentRules,
  ledgerRules,
  parseAmendmentList,
  rulesEnabled,
  withRules,
} from '../../src/core/amendments';
import { LedgerNode } from '../../src/core/ledger-node';
import { getMantissaScale } from '../../src/core/number';
import { type Dex, expectResult, funded, issue, issuer, request, startDex, usd } from '../dex/helpers';

describe('amendment lists', () => {
  it('reads a comma list, a one-per-line file and only the [features] stanza of a rippled config', () => {
    expect(parseAmendmentList('AMM, fixAMMv1_1,Clawback')).toEqual(['AMM', 'fixAMMv1_1', 'Clawback']);
    expect(parseAmendmentList('# comment\nAMM\n\nfixAMMv1_2  # trailing\n')).toEqual(['AMM', 'fixAMMv1_2']);
    const cfg =
      '[server]\nport_rpc\n\n[features]\n# devnet\nAMM\nSingleAssetVault\n\n[voting]\nreference_fee = 200\n';
    expect(parseAmendmentList(cfg)).toEqual(['AMM', 'SingleAssetVault']);
    expect(() => parseAmendmentList('AMM, not an amendment')).toThrow(/invalid amendment name/);
  });

  it('IDs are SHA-512Half of the name (AMM: its published ID)', () => {
    expect(amendmentId('AMM')).toBe('8CC0774A3BF66D1D22E76BBDA8E8A232E6B6313834301B3B23E8601196AE6455');
  });

  it('SingleAssetVault or LendingProtocol select the 19-digit Number; the default set does not', () => {
    expect(new Rules(DEFAULT_AMENDMENTS).numberScale).toBe('small');
    expect(new Rules(['AMM', 'SingleAssetVault']).numberScale).toBe('large');
    expect(new Rules(['LendingProtocol']).numberScale).toBe('large');
    expect(DEFAULT_AMENDMENTS).toContain('fixAMMv1_3');
  });

  it('withRules is scoped and nests', () => {
    const pre13 = new Rules(['AMM']);
    const vault = new Rules(['AMM', 'fixAMMv1_3', 'SingleAssetVault']);
    expect(rulesEnabled('fixAMMv1_3')).toBe(true);
    withRules(pre13, () => {
      expect(rulesEnabled('fixAMMv1_3')).toBe(false);
      expect(getMantissaScale()).toBe('small');
      withRules(vault, () => {
        expect(rulesEnabled('fixAMMv1_3')).toBe(true);
        expect(getMantissaScale()).toBe('large');
      });
      expect(currentRules()).toBe(pre13);
      expect(getMantissaScale()).toBe('small');
    });
    expect(() =>
      withRules(vault, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(getMantissaScale()).toBe('small');
    expect(currentRules().enabled('SingleAssetVault')).toBe(false);
  });
});

describe('rules from the ledger', () => {
  it('the engine reads the Amendments object the genesis ledger was written with', () => {
    const plain = new LedgerNode();
    const vault = new LedgerNode({ amendments: ['AMM', 'fixAMMv1_1', 'LendingProtocol'] });
    const a = ledgerRules(plain.validated());
    const b = ledgerRules(vault.validated());
    expect(a.enabled('fixAMMv1_3')).toBe(true);
    expect(a.numberScale).toBe('small');
    expect(b.enabled('fixAMMv1_3')).toBe(false);
    expect(b.enabled('fixAMMv1_1')).toBe(true);
    expect(b.numberScale).toBe('large');
    expect(b.ids()).toEqual(['AMM', 'fixAMMv1_1', 'LendingProtocol'].map(amendmentId).sort());
    // cached per stored list: the same Rules object for the same ledger object
    expect(ledgerRules(vault.validated())).toBe(b);
    expect(ledgerRules({ read: () => undefined }).enabled('AMM')).toBe(false);
  });
});

describe('two ledgers in one process with different amendments', () => {
  let mainnet: Dex;
  let pre13: Dex;
  beforeAll(async () => {
    [mainnet, pre13] = await Promise.all([
      startDex(),
      startDex(DEFAULT_AMENDMENTS.filter((n) => n !== 'fixAMMv1_3').concat('SingleAssetVault')),
    ]);
  });
  afterAll(async () => {
    await Promise.all([mainnet.close(), pre13.close()]);
  });

  it('feature reports each ledger’s genesis Amendments object', async () => {
    type Features = { features: Record<string, { enabled: boolean; name: string }> };
    const a = await request<Features>(mainnet, { command: 'feature' });
    const b = await request<Features>(pre13, { command: 'feature' });
    const fix13 = amendmentId('fixAMMv1_3');
    const vault = amendmentId('SingleAssetVault');
    expect(a.features[fix13]).toMatchObject({ name: 'fixAMMv1_3', enabled: true });
    expect(b.features[fix13]).toMatchObject({ name: 'fixAMMv1_3', enabled: false });
    expect(b.features[vault]).toMatchObject({ name: 'SingleAssetVault', enabled: true });
    expect(a.features[vault]?.enabled ?? false).toBe(false);
  });

  it('AMMCreate of 5 drops and 1 USD: sqrt(5) LP tokens rounded down with fixAMMv1_3, to nearest without', async () => {
    // sqrt(5) = 2.2360679774997896964...: 16 digits down 2.236067977499789, nearest 2.236067977499790.
    // Without fixAMMv1_3 but with the 19-digit Number: 2.236067977499789696 (19 digits), then the
    // STAmount's 16 digits to nearest: 2.23606797749979.
    const lp = async (dex: Dex): Promise<string> => {
      const gw = await issuer(dex);
      const alice = await funded(dex, 1000);
      await issue(dex, gw, alice, 'USD', '10');
      await expectResult(dex, alice, {
        TransactionType: 'AMMCreate',
        Amount: '5',
        Amount2: usd(gw, '1'),
        TradingFee: 0,
      });
      const r = await request<{ amm: { lp_token: { value: string } } }>(dex, {
        command: 'amm_info',
        asset: { currency: 'XRP' },
        asset2: { currency: 'USD', issuer: gw.address },
      });
      return r.amm.lp_token.value;
    };
    const [a, b] = await Promise.all([lp(mainnet), lp(pre13)]);
    expect(a).toBe('2.236067977499789');
    expect(b).toBe('2.23606797749979');
  });
});

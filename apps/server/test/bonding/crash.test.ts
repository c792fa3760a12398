import Decimal from 'decimal.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, Wallet } from 'xrpl';
import type { BondingView } from '@ledgerpad/shared';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { useCrashRig } from '../helpers/child-server';
import { submitAndWait } from '../helpers/submit-and-wait';
import { launchCurveOverHttp } from './bonding-world';
import { until } from '../helpers/wait';

// kill -9 of the real server twice while a curve graduates — once when the ladder has started to
// come down, once right after the pool was created — then restarts with nobody retrying: the
// curve graduates exactly once (one pool, one fee payment, one refund, one burn, one lock).

type AccountTx = {
  tx_json?: { TransactionType: string; Account: string; Destination?: string; Amount?: unknown };
  meta?: { TransactionResult: string };
};

async function history(client: Client, account: string): Promise<AccountTx[]> {
  const r = await client.request({ command: 'account_tx', account, limit: 400 });
  return (r.result.transactions as unknown as AccountTx[]).filter(
    (x) => x.meta?.TransactionResult === 'tesSUCCESS' && x.tx_json?.Account === account,
  );
}

describe('graduation crash safety', () => {
  const rig = useCrashRig('bonding-crash', {
    PLATFORM_BOOTSTRAP: 'on',
    DEMO_SEED: 'off',
    // Each restart takes the graduation job up once the killed process's lease runs out: 3 s, not 15.
    JOB_LEASE_MS: '3000',
  });
  let client: Client | undefined;
  afterAll(async () => {
    await client?.disconnect().catch(() => undefined);
  });

  it('kill -9 while the ladder comes down and right after the pool: graduated exactly once', async () => {
    let server = await rig.start();
    const { deployed, creatorWallet } = await launchCurveOverHttp(
      server,
      { bonding_virtual_xrp: '30', bonding_snipe_ledgers: '0' },
      { name: 'Crash Curve', ticker: 'CRASHC' },
    );
    const { issuer_address: issuer, currency, hot_wallet_address: curve } = deployed;

    // Each restart brings the embedded ledger up on a new port: follow it.
    const connect = async () => {
      await client?.disconnect().catch(() => undefined);
      client = new Client(server.ledgerUrl);
      await client.connect();
      return client;
    };
    let c = await connect();
    // Wait for the keeper's ladder, then an outside wallet buys the whole curve.
    const curveOffers = async (client: Client) =>
      (await client.request({ command: 'account_offers', account: curve, ledger_index: 'validated' })).result
        .offers ?? [];
    await until('the keeper’s ladder', async () => (await curveOffers(c)).length > 0, {
      timeoutMs: 20_000,
      everyMs: 100,
    });
    const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
    const buyer = Wallet.generate();
    await submitAndWait(
      c,
      {
        TransactionType: 'Payment',
        Account: genesis.classicAddress,
        Destination: buyer.classicAddress,
        Amount: '500000000',
      },
      genesis,
    );
    await submitAndWait(
      c,
      {
        TransactionType: 'TrustSet',
        Account: buyer.classicAddress,
        LimitAmount: { currency, issuer, value: '1000000000' },
      },
      buyer,
    );
    const buy = async (tokens: string) => {
      const r = await submitAndWait(
        c,
        {
          TransactionType: 'Payment',
          Account: buyer.classicAddress,
          Destination: buyer.classicAddress,
          Amount: { currency, issuer, value: tokens },
          SendMax: '200000000',
        },
        buyer,
      );
      expect((r.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    };
    // Eight whole steps (chunks [0,1) … [5,6) and [6,8)), so the curve has bids to take down;
    // then, once they are posted, the other 192 steps.
    await buy('31724000');
    await until(
      'the curve’s bids',
      async () => (await curveOffers(c)).some((o) => typeof o.taker_gets === 'string'),
      {
        timeoutMs: 60_000,
        everyMs: 50,
      },
    );
    await buy('761376000');

    // First kill: as soon as the graduation has cancelled an offer of the ladder.
    const seen = (type: string) =>
      until(
        `a ${type} of the graduation`,
        async () => (await history(c, curve)).some((x) => x.tx_json?.TransactionType === type),
        {
          timeoutMs: 120_000,
          everyMs: 20,
        },
      );
    await seen('OfferCancel');
    await rig.kill();
    server = await rig.start();
    c = await connect();
    // Second kill: right after the pool was created.
    await seen('AMMCreate');
    await rig.kill();
    server = await rig.start();
    c = await connect();
    const view = await until(
      'the curve graduated',
      async () => {
        const v = (await (await fetch(`${server.base}/api/bonding/${issuer}`)).json()) as BondingView;
        return v.status === 'graduated' && v;
      },
      { timeoutMs: 120_000, everyMs: 200 },
    );
    expect(view.status).toBe('graduated');

    // Exactly once, on the ledger itself.
    const txs = await history(c, curve);
    const count = (type: string, to?: string) =>
      txs.filter(
        (x) => x.tx_json?.TransactionType === type && (to === undefined || x.tx_json.Destination === to),
      ).length;
    expect(count('AMMCreate')).toBe(1);
    expect(count('SetRegularKey')).toBe(1);
    expect(count('AccountSet')).toBe(1);
    expect(count('Payment', issuer)).toBeLessThanOrEqual(1); // the burn, when anything was left
    expect(count('Payment', creatorWallet)).toBe(1); // the deposit back
    const payments = txs.filter((x) => x.tx_json?.TransactionType === 'Payment');
    const feePayments = payments.filter(
      (x) => x.tx_json?.Destination !== issuer && x.tx_json?.Destination !== creatorWallet,
    );
    expect(feePayments).toHaveLength(1); // the fees, once (below the 1 XRP sweep threshold before)
    const offers = await c.request({ command: 'account_offers', account: curve, ledger_index: 'validated' });
    expect(offers.result.offers ?? []).toEqual([]);
    const amm = (
      await c.request({
        command: 'amm_info',
        asset: { currency: 'XRP' },
        asset2: { currency, issuer },
        ledger_index: 'validated',
      })
    ).result.amm;
    // The whole curve bought in whole chunks: the pool holds X(200) = 85,005,360 drops exactly.
    expect(amm.amount).toBe('85005360');
    expect(new Decimal((amm.amount2 as { value: string }).value).toFixed(0)).toBe('206886013');
  }, 180_000);
});

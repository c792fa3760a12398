import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { Wallet, AccountSetAsfFlags } from 'xrpl';
import type { AuditPage, RefundResult, StagedWalletBalance, StagedWalletView } from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import {
  jobEndedOverHttp,
  json,
  signInOverHttp,
  signInOwnerOverHttp,
  uploadLogoOverHttp,
  useCrashRig,
} from '../helpers/child-server';
import { xrpBalance } from '../helpers/ledger-reads';

// kill -9 of the real server (embedded PGlite and ledger in one process) while an admin refund of a
// failed deploy's staged wallet is in flight: the refund transaction is in the ledger's open ledger
// (seen on the accounts_proposed stream) and the HTTP answer has not come. After a restart the same
// request with the same Idempotency-Key answers with the one transaction: exactly one refund on the
// ledger, exactly the amount the reserves leave, one audit row.

const ASF_DEPOSIT_AUTH = AccountSetAsfFlags.asfDepositAuth;
const IDEMPOTENCY_KEY = '0b7f3c1e-6a2d-4e59-9c8b-3f1a2b4c5d6e';

type AccountTx = {
  hash?: string;
  tx_json?: { TransactionType: string; Account: string; Destination?: string };
  meta?: { TransactionResult: string; delivered_amount?: unknown };
};

const balance = xrpBalance;

describe('admin refund crash safety', () => {
  const rig = useCrashRig('refund-crash', { PLATFORM_BOOTSTRAP: 'on', DEMO_SEED: 'off' });

  it('kill -9 mid-refund, restart, same request again: one refund on the ledger, the exact amount, one audit row', async () => {
    let server = await rig.start();
    const user = await signInOverHttp(server.base, 'refund_crash_user');
    const post = (url: string, body: object, headers = user) =>
      fetch(`${rig.server.base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const payer = (await json(await post('/api/wallets', {}))) as {
      id: number;
      wallet_address: string;
      wallet_seed: string;
    };
    const back = (await json(await post('/api/wallets', {}))) as { id: number; wallet_address: string };
    for (const w of [payer, back]) expect((await post(`/api/wallets/${w.id}/fund`, {})).status).toBe(200);

    // A deploy that fails on the ledger after its staged wallets were funded: the paying wallet
    // turns on DepositAuth (its owner can, with the seed they were given), so the issuer's payment
    // of the dev allocation to it is refused (tecNO_PERMISSION).
    await rig.withLedger(async (client) => {
      const w = Wallet.fromSeed(payer.wallet_seed);
      const r = await client.submitAndWait(
        { TransactionType: 'AccountSet', Account: w.address, SetFlag: ASF_DEPOSIT_AUTH },
        { wallet: w },
      );
      expect((r.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
    });
    const deploy = await post('/api/deploy-token', {
      name: 'Refund Crash',
      ticker: 'RFND',
      description: '',
      supply: '1000000',
      devAllocation: '10',
      liquidityAmount: '10',
      ammFee: '0.5',
      logoUrl: await uploadLogoOverHttp(server.base, user),
      blackholeIssuer: true,
      requireAuth: false,
      liquidityPairType: 'XRP',
      walletId: payer.id,
    });
    expect(deploy.status, await deploy.clone().text()).toBe(202);
    const { jobId } = (await deploy.json()) as { jobId: string };
    const job = await jobEndedOverHttp(server.base, jobId, user, 60_000);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/tecNO_PERMISSION/);

    const owner = await signInOwnerOverHttp(server);
    const staged = (await json(
      await fetch(`${server.base}/api/admin/staged-wallets`, { headers: owner }),
    )) as unknown as StagedWalletView[];
    const issuer = staged.find((w) => w.type === 'issuer' && w.user_id !== null)!;
    expect(issuer).toBeDefined();
    const shown = (await json(
      await fetch(`${server.base}/api/admin/staged-wallets/balances`, { headers: owner }),
    )) as unknown as Record<string, StagedWalletBalance>;
    expect(shown[issuer.id]!.active).toBe(true);

    // What the refund must send, from the ledger's own reserves: the balance less the base reserve,
    // one owner reserve per object it owns, and two base fees.
    const { expected, destBefore } = await rig.withLedger(async (client) => {
      const state = (await client.request({ command: 'server_state' })).result.state.validated_ledger!;
      const acct = (
        await client.request({
          command: 'account_info',
          account: issuer.wallet_address,
          ledger_index: 'validated',
        })
      ).result.account_data;
      expect(new Decimal(shown[issuer.id]!.xrp).mul(1_000_000).toFixed()).toBe(acct.Balance);
      return {
        expected:
          BigInt(acct.Balance) -
          BigInt(state.reserve_base) -
          BigInt(state.reserve_inc) * BigInt(acct.OwnerCount) -
          2n * BigInt(state.base_fee),
        destBefore: await balance(client, back.wallet_address),
      };
    });
    expect(expected).toBeGreaterThan(0n);

    const refundBody = { wallet_id: issuer.id, destination_address: back.wallet_address, type: 'xrp' };
    const refund = () =>
      post('/api/admin/refund', refundBody, { ...owner, 'idempotency-key': IDEMPOTENCY_KEY });

    // Watch the issuer's proposed transactions, send the refund, and pull the plug the moment its
    // transaction is in the open ledger, before the answer.
    await rig.withLedger(async (client) => {
      const seen = new Promise<void>((resolve) =>
        client.on('transaction', (ev) => {
          const tx = (ev as unknown as { tx_json?: { Account?: string; TransactionType?: string } }).tx_json;
          if (tx?.Account === issuer.wallet_address) resolve();
        }),
      );
      await client.request({ command: 'subscribe', accounts_proposed: [issuer.wallet_address] });
      const inFlight = refund().then(
        (r) => `answered ${r.status}`,
        () => 'dropped',
      );
      await seen;
      await rig.kill();
      // The connection died with the server: no answer came.
      expect(await inFlight).toBe('dropped');
    });

    server = await rig.start();
    const again = await refund();
    expect(again.status, await again.clone().text()).toBe(200);
    const result = (await again.json()) as RefundResult;
    expect(result).toMatchObject({
      method: 'payment',
      amount: new Decimal(expected.toString()).div(1e6).toFixed(),
    });
    // Once more: still the same transaction.
    expect(((await (await refund()).json()) as RefundResult).hash).toBe(result.hash);

    await rig.withLedger(async (client) => {
      const txs = (
        await client.request({ command: 'account_tx', account: issuer.wallet_address, limit: 100 })
      ).result.transactions as unknown as AccountTx[];
      const refunds = txs.filter(
        (t) =>
          t.tx_json?.Account === issuer.wallet_address &&
          t.tx_json.Destination === back.wallet_address &&
          t.meta?.TransactionResult === 'tesSUCCESS',
      );
      expect(refunds.map((t) => t.hash)).toEqual([result.hash]);
      expect(refunds[0]!.meta!.delivered_amount).toBe(expected.toString());
      expect((await balance(client, back.wallet_address)) - destBefore).toBe(expected);
    });

    const audit = (await json(
      await fetch(`${server.base}/api/admin/audit`, { headers: owner }),
    )) as unknown as AuditPage;
    const rows = audit.entries.filter((e) => e.action === 'refund');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tx_hash: result.hash,
      target: `${issuer.wallet_address} (xrp)`,
      after: { value: result.amount, to: back.wallet_address, method: 'payment' },
    });
    expect((rows[0]!.before as { value: string }).value).toBe(shown[issuer.id]!.xrp);

    await rig.stop();
    const database = await rig.openDatabase();
    try {
      const signed = (await database.db.select().from(ledgerSubmissions)).filter(
        (r) => r.purpose === 'admin-refund',
      );
      // One signed transaction for the intent, ever.
      expect(signed.map((r) => [r.hash, r.status])).toEqual([[result.hash, 'success']]);
    } finally {
      await database.close();
    }
  }, 240_000);
});

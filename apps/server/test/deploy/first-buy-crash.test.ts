import type { JobStatusView, DeployResult } from '@ledgerpad/shared';
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { ledgerSubmissions } from '../../src/ledger/schema';
import {
  json,
  openUserSocket,
  signInOverHttp,
  uploadLogoOverHttp,
  useCrashRig,
} from '../helpers/child-server';

// kill -9 of the real server while the deploy's Batch (AMMCreate + the creator's first buy + its
// fee, docs/launch-protection.md) is recorded and sent but not yet validated, then a restart on the
// same data: the job completes, the hot wallet sent exactly one Batch, and the creator holds the
// tokens of exactly one first buy.

type Status = JobStatusView<DeployResult>;
const ended = (s: Status) => s.status === 'completed' || s.status === 'failed';
/** The Batch's step with its outer hash recorded: signed, recorded and sent, not yet final. */
const batchInFlight = (s: Status) =>
  s.steps.some((x) => x.name === 'create-amm' && x.status === 'running' && x.txHash !== null);

describe('first buy crash safety', () => {
  const rig = useCrashRig('first-buy-crash', {
    PLATFORM_BOOTSTRAP: 'on',
    JOB_LEASE_MS: '3000',
    LEDGER_CLOSE_INTERVAL_MS: '1000',
  });

  it('kill -9 with the Batch in flight: the job completes, one Batch, one buy', async () => {
    let server = await rig.start();
    const headers = await signInOverHttp(server.base, 'crashfirstbuy');
    const post = (url: string, body: object) =>
      fetch(`${server.base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    let socket = await openUserSocket(server, headers);
    const wallet = (await json(await post('/api/wallets', {}))) as { id: number; wallet_address: string };
    expect((await post(`/api/wallets/${wallet.id}/fund`, {})).status).toBe(200);

    const res = await post('/api/deploy-token', {
      name: 'Crash First Buy',
      ticker: 'CRFB',
      description: '',
      supply: '1000000',
      devAllocation: '0',
      liquidityAmount: '50',
      ammFee: '0.5',
      logoUrl: await uploadLogoOverHttp(server.base, headers),
      blackholeIssuer: true,
      requireAuth: false,
      liquidityPairType: 'XRP',
      walletId: wallet.id,
      burnLp: true,
      firstBuyXrp: '5',
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    const seen = (
      await socket.nextMatching(
        'jobUpdated',
        (d) => d.jobId === jobId && (ended(d as unknown as Status) || batchInFlight(d as unknown as Status)),
        120_000,
      )
    ).data as unknown as Status;
    expect(seen.status, 'the job finished before the kill').toBe('running');
    await rig.kill();
    socket.close();

    server = await rig.start();
    socket = await openUserSocket(server, headers);
    let final = (await json(
      await fetch(`${server.base}/api/job-status/${jobId}`, { headers }),
    )) as unknown as Status;
    if (!ended(final))
      final = (
        await socket.nextMatching(
          'jobUpdated',
          (d) => d.jobId === jobId && ended(d as unknown as Status),
          90_000,
        )
      ).data as unknown as Status;
    socket.close();
    if (final.status !== 'completed') {
      // The servers' own lines (both runs) say which transaction went out when.
      console.error(rig.output.join('').slice(-60_000));
      await rig.stop();
      const database = await rig.openDatabase();
      const rows = await database.db.select().from(ledgerSubmissions).orderBy(ledgerSubmissions.id);
      console.error(
        rows
          .map((x) =>
            [
              x.id,
              x.intentKey,
              x.account.slice(0, 5),
              x.sequence,
              x.lastLedgerSequence,
              x.hash.slice(0, 6),
              x.status,
              x.engineResult,
              x.result,
              x.submitCount,
              String(x.createdAt),
              String(x.updatedAt),
            ].join(' '),
          )
          .join('\n'),
      );
      await database.close();
    }
    expect(final.status, JSON.stringify(final)).toBe('completed');
    const r = final.result!;

    await rig.withLedger(async (client) => {
      const hotTxs = await client.request({
        command: 'account_tx',
        account: r.hot_wallet_address,
        limit: 50,
      });
      const hotSent = hotTxs.result.transactions
        .map((t) => (t as unknown as { tx_json: { Account: string; TransactionType: string } }).tx_json)
        .filter((t) => t.Account === r.hot_wallet_address)
        .map((t) => t.TransactionType)
        .sort();
      // Trust line, the one Batch with its three inner transactions, the LP burn's two.
      expect(hotSent).toEqual([
        'AMMCreate',
        'AccountSet',
        'Batch',
        'Payment',
        'Payment',
        'SetRegularKey',
        'TrustSet',
      ]);
      // One buy: 5 XRP into 50 XRP / 1,000,000 tokens at the auction slot's 0.05%.
      const a = new Decimal(5_000_000).mul(new Decimal(1).minus(new Decimal(50).div(100_000)));
      const out = new Decimal(1_000_000).mul(
        new Decimal(1).minus(new Decimal(50_000_000).div(new Decimal(50_000_000).plus(a))),
      );
      const lines = await client.request({
        command: 'account_lines',
        account: wallet.wallet_address,
        peer: r.issuer_address,
      });
      const held = new Decimal(lines.result.lines.find((l) => l.currency === r.currency)!.balance);
      expect(held.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed()).toBe(
        out.toSignificantDigits(15, Decimal.ROUND_DOWN).toFixed(),
      );
    });
    await rig.stop();
    const database = await rig.openDatabase();
    try {
      const rows = await database.db.select().from(ledgerSubmissions);
      const batch = rows.filter((x) => x.intentKey.startsWith(`deploy:${jobId}:create-amm`));
      // The outer and its three inner rows, each once, all successful.
      expect(batch.map((x) => [x.intentKey.slice(`deploy:${jobId}:`.length), x.status]).sort()).toEqual([
        ['create-amm', 'success'],
        ['create-amm:amm-create', 'success'],
        ['create-amm:first-buy', 'success'],
        ['create-amm:first-buy-fee', 'success'],
      ]);
    } finally {
      await database.close();
    }
  }, 300_000);
});

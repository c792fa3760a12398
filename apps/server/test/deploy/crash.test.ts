import type { JobStatusView, DeployResult } from '@ledgerpad/shared';
import { describe, expect, it } from 'vitest';
import { decode, LedgerEntry } from 'xrpl';
import { ledgerSubmissions } from '../../src/ledger/schema';
import {
  json,
  openUserSocket,
  signInOverHttp,
  uploadLogoOverHttp,
  useCrashRig,
} from '../helpers/child-server';
import type { TestSocket } from '../helpers/socket-client';

// kill -9 of the real server (embedded PGlite and ledger in one process) during a deploy, at four
// different points, then a restart on the same data: each job completes, every ledger step applied
// exactly once, and the paying wallet's XRP is exactly what the deploys cost. Every deploy locks its
// dev allocation on the ledger (issue 28) and burns its LP (issue 37): the flag, the escrows and the
// hot wallet's blackhole are crash-safe steps too.

const DROPS = 1_000_000n;
type Status = JobStatusView<DeployResult>;

/** When to pull the plug: the moment the job's steps look like this. */
const KILL_POINTS: Array<{ label: string; when: (s: Status) => boolean }> = [
  { label: 'staged wallets recorded, nothing funded', when: (s) => stepIs(s, 'create-wallets', 'done') },
  { label: 'issuing the supply', when: (s) => stepIs(s, 'issue-supply', 'running') },
  { label: 'pool created, fee, LP burn and blackhole pending', when: (s) => stepIs(s, 'create-amm', 'done') },
  { label: 'locking the dev allocation', when: (s) => stepIs(s, 'lock-dev-3', 'running') },
];
/** The default schedule (25% after 24 h, the rest over 6 months): 7 escrows, 1 AccountSet. */
const TRANCHES = 7;
/** 11 steps, the issuer's escrow flag, the escrows, the LP burn's regular key and master key. */
const LEDGER_STEPS = 11 + 1 + TRANCHES + 2;
const ACCOUNT_ONE = 'rrrrrrrrrrrrrrrrrrrrBZbvji';
const LSF_DISABLE_MASTER = LedgerEntry.AccountRootFlags.lsfDisableMaster;

const stepIs = (s: Status, name: string, status: string) =>
  s.steps.some((x) => x.name === name && x.status === status);
const ended = (s: Status) => s.status === 'completed' || s.status === 'failed';

describe('deploy crash safety', () => {
  const rig = useCrashRig('deploy-crash', {
    PLATFORM_BOOTSTRAP: 'on',
    // What a restart waits for before it takes the job up is the killed process's lease: 3 s here
    // (as in the two-instance test), not the default 15 s, four times over.
    JOB_LEASE_MS: '3000',
    // Each deploy waits on about a dozen closes; the kill points are taken from the job's own
    // updates on the socket (below), not from a race with the clock, so closes may come faster.
    LEDGER_CLOSE_INTERVAL_MS: '500',
  });

  it('kill -9 at four points of a deploy: each job completes after restart, each step once, every drop accounted for', async () => {
    let server = await rig.start();
    const headers = await signInOverHttp(server.base, 'crashdeploy');
    const post = (url: string, body: object) =>
      fetch(`${server.base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const status = async (jobId: string) =>
      (await json(await fetch(`${server.base}/api/job-status/${jobId}`, { headers }))) as unknown as Status;

    let socket: TestSocket = await openUserSocket(server, headers);

    const wallet = (await json(await post('/api/wallets', {}))) as { id: number; wallet_address: string };
    expect((await post(`/api/wallets/${wallet.id}/fund`, {})).status).toBe(200);
    const ledgerBalance = (account: string) =>
      rig.withLedger(async (c) => {
        const r = await c.request({ command: 'account_info', account, ledger_index: 'validated' });
        return BigInt(r.result.account_data.Balance);
      });
    const startBalance = await ledgerBalance(wallet.wallet_address);

    const jobIds: string[] = [];
    const results: DeployResult[] = [];
    // Where the time goes (printed at the end): to the kill point, the restart, the rest of the job.
    const phases: string[] = [];
    for (const [i, point] of KILL_POINTS.entries()) {
      const posted = Date.now();
      const res = await post('/api/deploy-token', {
        name: `Crash Token ${i}`,
        ticker: `CRSH${i}`,
        description: '',
        supply: '500000',
        devAllocation: '20',
        liquidityAmount: '50',
        ammFee: '0.3',
        logoUrl: await uploadLogoOverHttp(server.base, headers),
        blackholeIssuer: true,
        requireAuth: false,
        liquidityPairType: 'XRP',
        walletId: wallet.id,
        vesting: { enabled: true },
        burnLp: true,
      });
      expect(res.status, await res.clone().text()).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      jobIds.push(jobId);

      // Pull the plug the moment the job's update on the socket shows the kill point (the update
      // is sent when the job's row is written; spinning on GET /api/job-status instead took CPU from
      // the very server it waited for).
      const seen = (
        await socket.nextMatching(
          'jobUpdated',
          (d) => d.jobId === jobId && (ended(d as unknown as Status) || point.when(d as unknown as Status)),
          120_000,
        )
      ).data as unknown as Status;
      expect(seen.status, `${point.label}: the job finished before the kill`).toBe('running');
      await rig.kill();
      const killed = Date.now();
      socket.close();

      server = await rig.start();
      const restarted = Date.now();
      socket = await openUserSocket(server, headers);
      // Its end: already read once the socket listens, or the update that ends it.
      let final = await status(jobId);
      if (!ended(final))
        final = (
          await socket.nextMatching(
            'jobUpdated',
            (d) => d.jobId === jobId && ended(d as unknown as Status),
            90_000,
          )
        ).data as unknown as Status;
      expect(final.status, `${point.label}: ${JSON.stringify(final)}`).toBe('completed');
      expect(final.steps.every((s) => s.status === 'done')).toBe(true);
      phases.push(`${killed - posted}/${restarted - killed}/${Date.now() - restarted}`);
      results.push(final.result!);
    }

    // On the ledger: per deploy, exactly the issuer's own 6 transactions, one pool and 7 escrows.
    await rig.withLedger(async (client) => {
      for (const r of results) {
        const txs = await client.request({ command: 'account_tx', account: r.issuer_address, limit: 50 });
        const sent = txs.result.transactions.filter(
          (t) => (t as unknown as { tx_json: { Account: string } }).tx_json.Account === r.issuer_address,
        );
        // DefaultRipple, AllowTrustLineLocking, supply, dev allocation, regular key, disable master.
        expect(sent).toHaveLength(6);
        // The hot wallet: trust line, AMMCreate, then its own blackhole (the LP burn), once each.
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
        expect(hotSent).toEqual(['AMMCreate', 'AccountSet', 'SetRegularKey', 'TrustSet']);
        const hot = await client.request({ command: 'account_info', account: r.hot_wallet_address });
        const root = hot.result.account_data as { Flags: number; RegularKey?: string };
        expect(root.Flags & LSF_DISABLE_MASTER).toBe(LSF_DISABLE_MASTER);
        expect(root.RegularKey).toBe(ACCOUNT_ONE);
        // The dev's 20% (100,000) is all in escrows: out of the obligations, under `locked`.
        const lines = await client.request({ command: 'gateway_balances', account: r.issuer_address });
        expect(lines.result.obligations?.[r.currency]).toBe('400000');
        const locked = (lines.result as { locked?: Record<string, string> }).locked;
        expect(locked?.[r.currency]).toBe('100000');
        const escrows = await client.request({
          command: 'account_objects',
          account: wallet.wallet_address,
          type: 'escrow',
        });
        const mine = escrows.result.account_objects.filter(
          (o) => (o as unknown as { Amount: { issuer?: string } }).Amount.issuer === r.issuer_address,
        );
        // 25,000 at the cliff and 6 × 12,500: each tranche exactly once.
        expect(mine.map((o) => (o as unknown as { Amount: { value: string } }).Amount.value).sort()).toEqual([
          '12500',
          '12500',
          '12500',
          '12500',
          '12500',
          '12500',
          '25000',
        ]);
      }
    });
    const endBalance = await ledgerBalance(wallet.wallet_address);

    socket.close();
    process.stdout.write(
      `deploy crash test: ms to the kill point / restart / completion, per kill point: ${phases.join(', ')}\n`,
    );
    await rig.stop();
    const database = await rig.openDatabase();
    try {
      const rows = await database.db.select().from(ledgerSubmissions);
      let userFees = 0n;
      for (const jobId of jobIds) {
        const mine = rows.filter((r) => r.intentKey.startsWith(`deploy:${jobId}:`));
        // 21 ledger steps (no RequireAuth), each validated successfully exactly once.
        const ok = mine.filter((r) => r.status === 'success');
        expect(ok).toHaveLength(LEDGER_STEPS);
        expect(new Set(ok.map((r) => r.intentKey.replace(/:again-\d+$/, ''))).size).toBe(LEDGER_STEPS);
        // A step signed again only after its earlier attempt provably never applied (the kill took
        // the embedded ledger's open ledger with it, and a new account came to life a ledger later).
        for (const r of mine.filter((x) => x.status !== 'success'))
          expect(['tefPAST_SEQ', 'expired'], `${r.intentKey}: ${r.result}`).toContain(r.result);
        for (const r of ok)
          if (r.account === wallet.wallet_address) userFees += BigInt(decode(r.txBlob).Fee as string);
      }
      // Every drop: 4 × (issuer 1.1 + hot 2 + 50 liquidity + 15 service fee) + the wallet's own
      // fees (escrows lock an owner reserve each but spend none of it).
      const deploys = BigInt(KILL_POINTS.length);
      const perDeploy = 1_100_000n + 2n * DROPS + 50n * DROPS + 15n * DROPS;
      expect(startBalance - endBalance).toBe(deploys * perDeploy + userFees);
      // fund ×2, dev trust line, service fee and the 7 escrows, at 10 drops.
      expect(userFees).toBe(deploys * (4n + BigInt(TRANCHES)) * 10n);
    } finally {
      await database.close();
    }
  }, 300_000);
});

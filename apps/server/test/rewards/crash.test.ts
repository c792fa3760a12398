import { describe, expect, it } from 'vitest';
import { Client } from 'xrpl';
import type { JobStatusView, DeployResult, ReferralSummary } from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { referralClaims } from '../../src/modules/referrals/schema';
import { rewardClaims, rewardPayouts } from '../../src/modules/rewards/schema';
import {
  CHILD_ORIGIN,
  json,
  signInOverHttp,
  uploadLogoOverHttp,
  useCrashRig,
  type ChildServer,
} from '../helpers/child-server';
import { sleep, until } from '../helpers/wait';

// kill -9 of the real server (embedded PGlite and persistent ledger in one process, as `npm start`)
// in the middle of reward payouts, then a restart with nobody retrying: a creator's claim split
// among 5 recipients and a referrer's claim each complete once — every recipient paid exactly its
// share, to the drop, one payment each — never twice.

type AccountTx = {
  tx_json?: {
    TransactionType: string;
    Account: string;
    Destination?: string;
    DeliverMax?: string;
    Amount?: string;
  };
  meta?: { TransactionResult: string };
  hash?: string;
};

/** The crash rig's child process answers slowly on a loaded machine. */
const SLOW = { timeoutMs: 120_000, everyMs: 250 };

/** Drops as the API writes XRP amounts (6 decimals) and back. */
const xrp6 = (d: bigint) => `${d / 1_000_000n}.${(d % 1_000_000n).toString().padStart(6, '0')}`;
const drops = (v: string) => {
  const [w, f = ''] = v.split('.');
  return BigInt(w!) * 1_000_000n + BigInt((f + '000000').slice(0, 6));
};

/**
 * Opens an xrpl.js client on the server's ledger and resolves with the first proposed Payment to one
 * of `to` (the moment a payout is signed, recorded and sent — not yet validated).
 */
async function firstProposedPayment(server: ChildServer, to: string[]) {
  const client = new Client(server.ledgerUrl);
  await client.connect();
  await client.request({ command: 'subscribe', streams: ['transactions_proposed'] });
  const seen = new Promise<{ account: string; hash: string }>((resolve) => {
    client.on('transaction', (t) => {
      const tx =
        (t as unknown as { tx_json?: AccountTx['tx_json']; transaction?: AccountTx['tx_json'] }).tx_json ??
        (t as unknown as { transaction?: AccountTx['tx_json'] }).transaction;
      if (tx?.TransactionType === 'Payment' && tx.Destination && to.includes(tx.Destination))
        resolve({ account: tx.Account, hash: (t as unknown as { hash: string }).hash });
    });
  });
  return { seen, close: () => client.disconnect().catch(() => undefined) };
}

describe('reward payout crash safety', () => {
  const rig = useCrashRig('reward-crash', {
    PLATFORM_BOOTSTRAP: 'on',
    DEMO_SEED: 'off',
    // The payout jobs the killed process held are taken up once its lease runs out: 3 s, not 15.
    JOB_LEASE_MS: '3000',
  });

  it('kill -9 during a 5-way split payout and during a referral payout: each completes once after restart', async () => {
    let server = await rig.start();
    const as = (headers: Record<string, string>) => ({
      get: async (url: string) => json(await fetch(`${server.base}${url}`, { headers })),
      post: (url: string, body: object) =>
        fetch(`${server.base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) }),
    });
    const fundedWallet = async (who: ReturnType<typeof as>, times = 1) => {
      const w = (await json(await who.post('/api/wallets', {}))) as { id: number; wallet_address: string };
      for (let i = 0; i < times; i++)
        expect((await who.post(`/api/wallets/${w.id}/fund`, {})).status).toBe(200);
      return w;
    };

    // The referrer, and a trader who signs up through the referrer's link.
    const referrerHeaders = await signInOverHttp(server.base, 'crash_referrer');
    const { code } = (await as(referrerHeaders).get('/api/referrals/me')) as unknown as ReferralSummary;
    const signUp = await fetch(`${server.base}/api/auth/demo?ref=${code}`, {
      method: 'POST',
      headers: { origin: CHILD_ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'crash_referred' }),
    });
    expect(signUp.status).toBe(200);
    const traderCookie = signUp.headers
      .getSetCookie()
      .find((c) => c.startsWith('ledgerpad_session='))!
      .split(';')[0]!;
    const csrf = (
      (await json(await fetch(`${server.base}/api/csrf-token`, { headers: { cookie: traderCookie } }))) as {
        token: string;
      }
    ).token;
    const trader = as({
      cookie: traderCookie,
      'x-csrf-token': csrf,
      'content-type': 'application/json',
      origin: CHILD_ORIGIN,
    });

    // The creator deploys an XRP-paired token (100 XRP pool).
    const creatorHeaders = await signInOverHttp(server.base, 'crash_creator');
    const creator = as(creatorHeaders);
    const creatorWallet = await fundedWallet(creator);
    const deploy = await creator.post('/api/deploy-token', {
      name: 'Crash Split',
      ticker: 'CSPL',
      description: '',
      supply: '1000000',
      devAllocation: '0',
      liquidityAmount: '100',
      ammFee: '0.3',
      logoUrl: await uploadLogoOverHttp(server.base, creatorHeaders),
      blackholeIssuer: false,
      requireAuth: false,
      liquidityPairType: 'XRP',
      walletId: creatorWallet.id,
    });
    expect(deploy.status, await deploy.clone().text()).toBe(202);
    const { jobId } = (await deploy.json()) as { jobId: string };
    const token = await until(
      'the deploy',
      async () => {
        const s = (await creator.get(`/api/job-status/${jobId}`)) as unknown as JobStatusView<DeployResult>;
        if (s.status === 'failed') throw new Error(`deploy failed: ${JSON.stringify(s)}`);
        return s.status === 'completed' ? s.result! : undefined;
      },
      SLOW,
    );
    const me = (await creator.get('/api/user')) as unknown as { user: { id: number } };
    const mine = (await creator.get(`/api/dashboard/user-tokens/${me.user.id}`)) as unknown as {
      tokens: Array<{ id: number }>;
    };
    const tokenId = mine.tokens[0]!.id;

    // Three buys by the referred trader; each pays its 0.75% fee on the ledger.
    const traderWallet = await fundedWallet(trader);
    for (const amount of ['10', '7.5', '4.321']) {
      const r = await trader.post('/api/swap', {
        walletAddress: traderWallet.wallet_address,
        issuer: token.issuer_address,
        token: token.currency,
        amount,
        type: 'BUY',
        slippage: '5',
        baseAsset: 'XRP',
      });
      expect(r.status, await r.clone().text()).toBe(200);
    }
    // The fee payments on the ledger: the trader's Payments to the fee wallet (the trader's only
    // Payments to another account). From them, the creator's third and the referrer's 20%.
    const feePayments = await until(
      'three fee payments',
      () =>
        rig.withLedger(async (c) => {
          const r = await c.request({
            command: 'account_tx',
            account: traderWallet.wallet_address,
            limit: 100,
          });
          const fees = (r.result.transactions as unknown as AccountTx[]).filter(
            (t) =>
              t.tx_json?.TransactionType === 'Payment' &&
              t.tx_json.Account === traderWallet.wallet_address &&
              t.tx_json.Destination !== traderWallet.wallet_address &&
              t.meta?.TransactionResult === 'tesSUCCESS',
          );
          return fees.length === 3 ? fees : undefined;
        }),
      SLOW,
    );
    const feeWallet = feePayments[0]!.tx_json!.Destination!;
    const fees = feePayments.map((t) => BigInt((t.tx_json!.DeliverMax ?? t.tx_json!.Amount)!));
    const creatorShare = fees.reduce((s, f) => s + f / 3n, 0n);
    const referralShare = fees.reduce((s, f) => s + (f * 2000n) / 10_000n, 0n);
    // Both accrued (the fee jobs record the fee paid after the payment validates).
    await until(
      'the accruals',
      async () => {
        const summary = (await creator.get('/api/rewards/summary')) as unknown as Array<{
          total_reward: string;
        }>;
        const me = (await as(referrerHeaders).get('/api/referrals/me')) as unknown as ReferralSummary;
        const earned = me.balances.find((b) => b.currency === 'XRP')!.earned;
        return drops(summary[0]!.total_reward) === creatorShare && drops(earned) === referralShare
          ? true
          : undefined;
      },
      SLOW,
    );

    // The split: the creator's wallet and four other users' wallets, 30 / 25 / 20 / 15 / 10 %.
    const others = [];
    for (let i = 0; i < 4; i++) {
      const h = await signInOverHttp(server.base, `crash_recipient_${i}`);
      others.push((await fundedWallet(as(h))).wallet_address);
    }
    const recipients = [creatorWallet.wallet_address, ...others];
    const bps = [3000n, 2500n, 2000n, 1500n, 1000n];
    const saved = await creator.post(`/api/rewards/splits/${tokenId}`, {
      recipients: recipients.map((address, i) => ({ address, bps: Number(bps[i]) })),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    // Each recipient floor(total × bps / 10,000); the first also what the floors leave.
    const parts = bps.map((b) => (creatorShare * b) / 10_000n);
    parts[0]! += creatorShare - parts.reduce((a, b) => a + b, 0n);

    // The claim; kill -9 the moment its first payment is sent to the ledger, not yet validated.
    const watch = await firstProposedPayment(server, recipients);
    const claim = creator
      .post('/api/claim-rewards', { token: token.currency, issuer: token.issuer_address, percent: 100 })
      .then(
        (r) => r.status,
        () => 'dropped' as const,
      );
    const first = await Promise.race([watch.seen, sleep(60_000).then(() => undefined)]);
    await rig.kill();
    await watch.close();
    expect(first, 'a payout was sent before the kill').toBeDefined();
    expect(first!.account).toBe(feeWallet);
    expect(await claim).toBe('dropped');

    // Restart; nobody retries. The claim's job resumes and settles every payout.
    server = await rig.start();
    // Sessions live in the database: the same cookies work on the restarted server.
    const afterRestart = creator;
    const paid = await until(
      'the split payouts',
      async () => {
        const rows = (await afterRestart.get(
          `/api/rewards/payouts?token_id=${tokenId}`,
        )) as unknown as Array<{
          address: string;
          amount: string;
          status: string;
          hash: string;
        }>;
        return rows.length === 5 && rows.every((p) => p.status === 'paid') ? rows : undefined;
      },
      SLOW,
    );
    for (const [i, address] of recipients.entries())
      expect(paid.find((p) => p.address === address)?.amount, address).toBe(xrp6(parts[i]!));

    // The referrer's claim, killed the same way.
    const referrer = as(referrerHeaders);
    const referrerWallet = await fundedWallet(referrer);
    const watchReferral = await firstProposedPayment(server, [referrerWallet.wallet_address]);
    const referralClaim = referrer
      .post('/api/referrals/claim', { wallet: referrerWallet.wallet_address, currency: 'XRP' })
      .then(
        (r) => r.status,
        () => 'dropped' as const,
      );
    const sent = await Promise.race([watchReferral.seen, sleep(60_000).then(() => undefined)]);
    await rig.kill();
    await watchReferral.close();
    expect(sent, 'the referral payment was sent before the kill').toBeDefined();
    expect(await referralClaim).toBe('dropped');

    server = await rig.start();
    const referrerAgain = referrer;
    await until(
      'the referral payout',
      async () => {
        const rows = (await referrerAgain.get('/api/referrals/claims')) as unknown as Array<{
          status: string;
        }>;
        return rows.length === 1 && rows[0]!.status === 'paid' ? true : undefined;
      },
      SLOW,
    );

    // On the ledger, after a few more closes (a doubled payment would show by now): exactly one
    // payment from the fee wallet to each recipient, of exactly its share.
    await rig.withLedger(async (c) => {
      const start = (await c.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index;
      await until(
        '5 more ledgers',
        async () => {
          const now = (await c.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index;
          return now >= start + 5 ? true : undefined;
        },
        SLOW,
      );
      const r = await c.request({ command: 'account_tx', account: feeWallet, limit: 400 });
      const payments = (r.result.transactions as unknown as AccountTx[]).filter(
        (t) =>
          t.tx_json?.TransactionType === 'Payment' &&
          t.tx_json.Account === feeWallet &&
          t.meta?.TransactionResult === 'tesSUCCESS',
      );
      const to = (address: string) =>
        payments
          .filter((t) => t.tx_json!.Destination === address)
          .map((t) => BigInt((t.tx_json!.DeliverMax ?? t.tx_json!.Amount)!));
      for (const [i, address] of recipients.entries()) expect(to(address), address).toEqual([parts[i]]);
      expect(to(referrerWallet.wallet_address)).toEqual([referralShare]);
    });
    await rig.stop();

    const database = await rig.openDatabase();
    try {
      const [claimRow] = await database.db.select().from(rewardClaims);
      expect(claimRow).toMatchObject({ status: 'paid', amount: xrp6(creatorShare) });
      const payouts = await database.db.select().from(rewardPayouts);
      expect(payouts.map((p) => p.status)).toEqual(['paid', 'paid', 'paid', 'paid', 'paid']);
      const subs = await database.db.select().from(ledgerSubmissions);
      const mine = subs.filter((s) => /^(reward|referral)-claim:/.test(s.intentKey));
      const ok = mine.filter((s) => s.status === 'success');
      // Six payments in all, each intent validated once; anything else signed provably never applied.
      expect(ok).toHaveLength(6);
      expect(new Set(ok.map((s) => s.intentKey.replace(/#resign-\d+$/, ''))).size).toBe(6);
      for (const s of mine.filter((x) => x.status !== 'success'))
        expect(['tefPAST_SEQ', 'expired'], `${s.intentKey}: ${s.result}`).toContain(s.result);
      const [refClaim] = await database.db.select().from(referralClaims);
      expect(refClaim).toMatchObject({ status: 'paid', amount: xrp6(referralShare) });
      process.stdout.write(
        `reward crash test: split of ${xrp6(creatorShare)} XRP into ${parts.map(xrp6).join(' / ')} and a referral payout of ${xrp6(referralShare)} XRP, each paid once across two kill -9 (${mine.length - ok.length} transactions the kills took with the open ledger, signed again)\n`,
      );
    } finally {
      await database.close();
    }
  }, 600_000);
});

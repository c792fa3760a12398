import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import type { Client } from 'xrpl';
import { RLUSD_CURRENCY_HEX } from '@ledgerpad/shared';
import { airdropClaims, airdrops } from '../../src/modules/airdrops/schema';
import { json, signInOverHttp, useCrashRig } from '../helpers/child-server';

// kill -9 of the real server while an airdrop is being created, and again while claims are being
// paid, then restarts with nobody retrying: the allocation moves into the airdrop wallet exactly
// once, and every reserved claim is paid exactly once (or released), never twice.

type AccountTx = {
  tx_json?: { TransactionType: string; Account: string; Destination?: string };
  meta?: { TransactionResult: string; delivered_amount?: unknown };
  hash?: string;
};

async function history(client: Client, account: string): Promise<AccountTx[]> {
  const r = await client.request({ command: 'account_tx', account, limit: 400 });
  return r.result.transactions as unknown as AccountTx[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('airdrop crash safety', () => {
  const rig = useCrashRig('airdrop-crash', { PLATFORM_BOOTSTRAP: 'on', DEMO_SEED: 'off' });

  it('kill -9 during creation and during claims: tokens move once, each claim is paid at most once', async () => {
    let server = await rig.start();
    let rlusd: string | undefined;
    for (let i = 0; i < 100 && !rlusd; i++) {
      const r = await fetch(`${server.base}/api/config/rlusd`);
      if (r.ok) rlusd = (await json(r)).issuer as string | undefined;
      if (!rlusd) await sleep(200);
    }
    expect(rlusd).toBeTruthy();

    const person = async (name: string) => {
      const headers = await signInOverHttp(server.base, name);
      const wallet = await json(
        await fetch(`${server.base}/api/wallets`, { method: 'POST', headers, body: '{}' }),
      );
      const funded = await fetch(`${server.base}/api/wallets/${wallet.id}/fund`, {
        method: 'POST',
        headers,
        body: '{}',
      });
      expect(funded.status, await funded.text()).toBe(200);
      return { name, headers, id: Number(wallet.id), address: String(wallet.wallet_address) };
    };
    const creator = await person('crash_airdrop_creator');
    // The creator holds RLUSD (bought from the bootstrap's XRP/RLUSD pool once it exists).
    for (let i = 0; ; i++) {
      const r = await fetch(`${server.base}/api/swap`, {
        method: 'POST',
        headers: creator.headers,
        body: JSON.stringify({
          walletAddress: creator.address,
          issuer: rlusd,
          token: RLUSD_CURRENCY_HEX,
          amount: '5',
          type: 'BUY',
          slippage: '50',
          baseAsset: 'XRP',
        }),
      });
      if (r.ok) break;
      if (i > 150) throw new Error(`no RLUSD bought: ${await r.text()}`);
      await sleep(200);
    }
    const claimers = await Promise.all(Array.from({ length: 6 }, (_, i) => person(`crash_airdrop_${i}`)));

    // 1. Create, and kill -9 while the job is moving the tokens.
    const created = await fetch(`${server.base}/api/airdrops`, {
      method: 'POST',
      headers: creator.headers,
      body: JSON.stringify({
        sourceWalletId: creator.id,
        tokenCode: RLUSD_CURRENCY_HEX,
        issuerAddress: rlusd,
        projectName: 'Crash Drop',
        perUserType: 'fixed',
        totalTokenAmount: '1',
        fixedAmount: '0.1',
        deadline: new Date(Date.now() + 3600_000).toISOString(),
        trustlineMode: 'auto',
      }),
    });
    expect(created.status, await created.clone().text()).toBe(202);
    const { id: airdropId, jobId } = (await created.json()) as { id: number; jobId: string };
    await sleep(1_500);
    await rig.kill();

    server = await rig.start();
    for (let i = 0; ; i++) {
      const r = await json(
        await fetch(`${server.base}/api/job-status/${jobId}`, {
          headers: { cookie: creator.headers.cookie! },
        }),
      );
      if (r.status === 'completed') break;
      expect(r.status, JSON.stringify(r)).not.toBe('failed');
      if (i > 300) throw new Error('creation did not finish');
      await sleep(200);
    }

    // 2. Six claims at once; kill -9 while they are being paid.
    const claims = claimers.map((c) =>
      fetch(`${server.base}/api/airdrops/${airdropId}/claim`, {
        method: 'POST',
        headers: c.headers,
        body: JSON.stringify({ destinationWalletId: c.id }),
      }).then(
        (r) => r.status,
        () => 'dropped' as const,
      ),
    );
    await sleep(1_200);
    await rig.kill();
    await Promise.all(claims);

    server = await rig.start();
    const received = new Map<string, AccountTx[]>();
    let airdropWallet = '';
    let deposits: AccountTx[] = [];
    await rig.withLedger(async (client) => {
      // Until the restarted runner finished (or released) every claim: the killed instance's leases
      // (15 s) expire first. A claim shows as has_claimed while it is pending or paid.
      const paidTo = async (address: string) =>
        (await history(client, address)).filter(
          (t) =>
            t.tx_json?.TransactionType === 'Payment' &&
            t.tx_json.Destination === address &&
            t.tx_json.Account !== address &&
            t.meta?.TransactionResult === 'tesSUCCESS' &&
            typeof t.meta.delivered_amount === 'object',
        ).length;
      for (let i = 0; ; i++) {
        let open = 0;
        for (const c of claimers) {
          const list = (await json(
            await fetch(`${server.base}/api/airdrops`, { headers: { cookie: c.headers.cookie! } }),
          )) as unknown as Array<{ id: number; has_claimed: boolean }>;
          const claimed = list.find((a) => a.id === airdropId)?.has_claimed ?? false;
          if (claimed && (await paidTo(c.address)) === 0) open += 1;
        }
        if (open === 0) break;
        if (i > 120) throw new Error(`${open} claims still unpaid`);
        await sleep(500);
      }
      // Payments signed before the kill validate on their own; the restarted runner records them
      // once the dead instance's leases (15 s) expired. Then a few more closes: a doubled payment
      // would show up now.
      await sleep(20_000);
      const out = (await history(client, creator.address)).filter(
        (t) =>
          t.tx_json?.TransactionType === 'Payment' &&
          t.tx_json.Account === creator.address &&
          t.tx_json.Destination !== creator.address &&
          t.meta?.TransactionResult === 'tesSUCCESS' &&
          typeof t.meta.delivered_amount === 'object',
      );
      deposits = out;
      airdropWallet = out[0]?.tx_json?.Destination ?? '';
      for (const c of claimers) {
        received.set(
          c.address,
          (await history(client, c.address)).filter(
            (t) =>
              t.tx_json?.TransactionType === 'Payment' &&
              t.tx_json.Account === airdropWallet &&
              t.meta?.TransactionResult === 'tesSUCCESS',
          ),
        );
      }
    });
    await rig.stop();

    // The allocation moved once, exactly.
    expect(deposits).toHaveLength(1);
    expect((deposits[0]!.meta!.delivered_amount as { value: string }).value).toBe('1');

    const database = await rig.openDatabase();
    try {
      const [row] = await database.db.select().from(airdrops);
      expect(row!.airdropAddress).toBe(airdropWallet);
      const rows = await database.db.select().from(airdropClaims);
      const paid = rows.filter((r) => r.status === 'paid');
      expect(
        rows.every((r) => r.status === 'paid' || r.status === 'failed'),
        JSON.stringify(rows.map((r) => [r.id, r.status, r.hash, r.walletAddress])),
      ).toBe(true);
      for (const c of claimers) {
        const mine = paid.filter((r) => r.walletAddress === c.address);
        // One claim per user; a paid claim has exactly one payment on the ledger, of its amount.
        expect(mine.length).toBeLessThanOrEqual(1);
        expect(received.get(c.address)!).toHaveLength(mine.length);
        if (mine[0]) expect(new Decimal(mine[0].amount).eq('0.1')).toBe(true);
      }
      expect(row!.claimedCount).toBe(paid.length);
      expect(new Decimal(row!.remaining).eq(new Decimal(1).minus(new Decimal(0.1).mul(paid.length)))).toBe(
        true,
      );
      process.stdout.write(`airdrop crash test: ${paid.length}/6 claims paid once each after two kill -9\n`);
    } finally {
      await database.close();
    }
  }, 240_000);
});

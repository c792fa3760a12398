import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, type Client } from 'xrpl';
import type { ClaimAirdropResult, CreateAirdropResult, DeployResult } from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { resignedIntentKey } from '../../src/ledger/submission-service';
import { airdropClaims } from '../../src/modules/airdrops/schema';
import type { SignedIn } from '../helpers/test-app';
import { deployToken, fundedWallet } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// Outside transactions don't break the wallet, for the callers that sign for a user in the
// background too (issue 23): the airdrop payer signs the claimer's trust line with the claimer's
// own wallet, whose seed the user was shown. When a transaction signed with that seed elsewhere
// took the sequence between the claim's checks and the payer's signing (it sat in the open
// ledger), the trust line meets tefPAST_SEQ; the payer follows it with the submission service's
// `follow`, which signs it again under a derived intent key — the claim is paid, and no two
// transactions of one intent ever both apply.

let t: WalletTestApp;
let client: Client;
let creator: SignedIn;
let token: DeployResult;

const post = (url: string, who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });

beforeAll(async () => {
  // One ledger a second: the outside transaction sits in the open ledger while the claim runs.
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 1000 });
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  creator = await t.signIn('outside_creator');
  const creatorWallet = await fundedWallet(t, creator);
  token = await deployToken(t, creator, creatorWallet.id, { name: 'Outside Token', ticker: 'OUT' });
  // The creator holds tokens to give away: a buy from the pool.
  const swap = await post('/api/swap', creator, {
    walletAddress: creatorWallet.address,
    issuer: token.issuer_address,
    token: 'OUT',
    amount: '10',
    type: 'BUY',
    slippage: '1',
    baseAsset: 'XRP',
  });
  expect(swap.statusCode, swap.body).toBe(200);
  const res = await post('/api/airdrops', creator, {
    sourceWalletId: creatorWallet.id,
    tokenCode: 'OUT',
    issuerAddress: token.issuer_address,
    projectName: 'Outside',
    tagline: 'Free OUT',
    logoUrl: '',
    description: 'An airdrop',
    perUserType: 'fixed',
    totalTokenAmount: '300',
    fixedAmount: '100',
    deadline: new Date(Date.now() + 3600_000).toISOString(),
    website: '',
    twitter: '',
    trustlineMode: 'auto',
  });
  expect(res.statusCode, res.body).toBe(202);
  const created = res.json() as CreateAirdropResult;
  const job = await t.app.platform.jobs.waitFor(created.jobId, { timeoutMs: 60_000 });
  expect(job.status, job.error ?? '').toBe('completed');
  airdropId = created.id;
}, 180_000);
let airdropId: number;

afterAll(async () => {
  await t?.close();
});

const nextClose = () =>
  new Promise<void>((resolve) => {
    const on = () => {
      client.off('ledgerClosed', on);
      resolve();
    };
    client.on('ledgerClosed', on);
  });

describe('an outside transaction between the checks and the signing', () => {
  it('the payer signs the claimer’s trust line again after tefPAST_SEQ: the claim is paid, one trust line', async () => {
    const claimer = await t.signIn('outside_claimer');
    const created = (await post('/api/wallets', claimer, {})).json() as {
      id: number;
      wallet_address: string;
      wallet_seed: string;
    };
    const funded = await t.app.inject({
      method: 'POST',
      url: `/api/wallets/${created.id}/fund`,
      headers: claimer.headers,
    });
    expect(funded.statusCode, funded.body).toBe(200);
    const other = await fundedWallet(t, claimer, 1);
    // One transfer through the app: from now on the app knows the wallet's sequence itself.
    const transfer = await post('/api/wallets/transfer', claimer, {
      walletId: created.id,
      recipient: other.address,
      amount: '1',
    });
    expect(transfer.statusCode, transfer.body).toBe(200);

    await client.request({ command: 'subscribe', streams: ['ledger'] });
    const own = Wallet.fromSeed(created.wallet_seed);
    // Right after a close, so the claim runs inside one open ledger: the user's key signs an
    // AccountSet elsewhere, for the sequence the app will use next; it is in the open ledger only.
    await nextClose();
    const prepared = await client.autofill({ TransactionType: 'AccountSet', Account: own.classicAddress });
    const outside = await client.request({ command: 'submit', tx_blob: own.sign(prepared).tx_blob });
    expect(outside.result.engine_result).toBe('tesSUCCESS');

    const res = await post(`/api/airdrops/${airdropId}/claim`, claimer, { destinationWalletId: created.id });
    expect(res.statusCode, res.body).toBe(200);
    const paid = res.json() as ClaimAirdropResult;
    expect(paid.amount).toBe('100');

    // In our records: the trust line's first signing met the moved sequence and provably never
    // applied; its second signing (derived intent key) applied; one payment.
    const [claim] = await t.database.db
      .select()
      .from(airdropClaims)
      .where(eq(airdropClaims.walletId, created.id));
    const rows = await t.database.db
      .select()
      .from(ledgerSubmissions)
      .where(like(ledgerSubmissions.intentKey, `%claim-${claim!.id}%`));
    const byKey = Object.fromEntries(rows.map((r) => [r.intentKey, r.result]));
    const trustKey = Object.keys(byKey).find((k) => k.endsWith(':trust'))!;
    expect(byKey[trustKey]).toBe('tefPAST_SEQ');
    expect(byKey[resignedIntentKey(trustKey, 2)]).toBe('tesSUCCESS');
    expect(rows.filter((r) => r.result === 'tesSUCCESS')).toHaveLength(2); // trust line + payment

    // On the ledger: one trust line for OUT holding the 100 tokens, the outside AccountSet applied.
    const lines = await client.request({
      command: 'account_lines',
      account: created.wallet_address,
      peer: token.issuer_address,
      ledger_index: 'validated',
    });
    expect(lines.result.lines.map((l) => [l.currency, l.balance])).toEqual([['OUT', '100']]);
    const tx = await client.request({ command: 'tx', transaction: outside.result.tx_json.hash! });
    expect((tx.result.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');
  }, 120_000);
});

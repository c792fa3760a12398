import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import {
  type CreateAirdropResult,
  type DeployResult,
  type DevAllocationResult,
  type JobStatusView,
} from '@ledgerpad/shared';
import { airdrops as airdropsTable } from '../../src/modules/airdrops/schema';
import type { SignedIn } from '../helpers/test-app';
import { testLogo } from '../helpers/test-logo';
import { ammLaunchBody, type TradingWorld } from '../helpers/trading-world';
import type { WalletTestApp } from '../wallets/wallet-app';
import { intentOf, signIntent } from './helpers';
import { selfCustodyWorld, type SelfCustodyWorld } from './world';

// The same flows from an external wallet (a wallet app through xrpl-connect, here GemWallet): the
// server knows only its kind and app; it builds the same intents and checks the same blobs. The app
// itself is a real xrpl.js Wallet signing what the server prepared (the GemWallet protocol stand-in
// is the e2e test's, e2e/support/fake-gemwallet.ts). A deploy with a dev allocation (the issuer's
// Check, claimed by the wallet after the job), then an airdrop created from the claimed tokens.

let t: WalletTestApp;
let world: TradingWorld;
let call: SelfCustodyWorld['call'];
let stepsOf: SelfCustodyWorld['stepsOf'];
let dave: SignedIn;
const gem = Wallet.generate();
let gemId: number;

beforeAll(async () => {
  const w = await selfCustodyWorld();
  ({ t, world, call, stepsOf } = w);
  dave = await t.signIn('dave');
  gemId = await w.fundedSelfCustody(dave, gem, { kind: 'external', app: 'gemwallet' });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('an external wallet (GemWallet) on the new flows', () => {
  let token: DeployResult;

  it('deploys with a dev allocation (blackholed issuer) and claims it after the job', async () => {
    const body = {
      ...ammLaunchBody(gemId, { name: 'Gem Launch', ticker: 'GEMX' }, await testLogo(t.database.db)),
      devAllocation: '10',
      blackholeIssuer: true,
    };
    const funding = intentOf(
      await call(dave, 'POST', '/api/deploy-token', body, { 'idempotency-key': 'gem-deploy-1' }),
    );
    expect(funding.txs.map((x) => [x.TransactionType, x.Account])).toEqual([
      ['Payment', gem.classicAddress],
      ['Payment', gem.classicAddress],
    ]);
    const funded = await call(dave, 'POST', `/api/intents/${funding.id}/submit`, {
      blobs: signIntent(gem, funding),
    });
    expect(funded.statusCode, funded.body).toBe(200);
    const { jobId } = funded.json() as { jobId: string };
    const job = await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 90_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    token = (job as unknown as JobStatusView<DeployResult>).result!;
    // The issuer is blackholed; its Check of the allocation stays cashable by the wallet alone.
    const issuer = await t.connection.client.request({
      command: 'account_info',
      account: token.issuer_address,
      ledger_index: 'validated',
    });
    expect((issuer.result.account_flags as { disableMasterKey?: boolean }).disableMasterKey).toBe(true);
    expect(await world.tokens(gem.classicAddress, token)).toBe('0');

    // No vesting: the claim is the line and the CheckCash, nothing locked.
    const claim = intentOf(
      await call(
        dave,
        'POST',
        `/api/deploy-token/${jobId}/allocation`,
        {},
        { 'idempotency-key': 'gem-claim-1' },
      ),
    );
    expect(claim.txs.map((x) => x.TransactionType)).toEqual(['TrustSet', 'CheckCash']);
    const xrpBefore = await world.xrp(gem.classicAddress);
    const claimed = await call(dave, 'POST', `/api/intents/${claim.id}/submit`, {
      blobs: signIntent(gem, claim),
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json() as DevAllocationResult).toMatchObject({
      status: 'claimed',
      amount: '100000',
      locks: [],
    });
    // 10% of 1,000,000, in the wallet; two network fees paid (the line's reserve stays its own).
    const { baseFee } = t.app.platform.submissions!.reserves;
    expect(await world.tokens(gem.classicAddress, token)).toBe('100000');
    expect(await world.xrp(gem.classicAddress)).toBe(xrpBefore - 2n * baseFee);
    expect((await stepsOf(claim.id)).map((r) => r.signer)).toEqual(['wallet', 'wallet']);
  });

  it('creates an airdrop of those tokens: funding, fee and Check signed in the app; claims paid from it', async () => {
    const form = {
      sourceWalletId: gemId,
      tokenCode: token.currency,
      issuerAddress: token.issuer_address,
      projectName: 'Gem Drop',
      tagline: 'Free GEMX',
      logoUrl: '',
      description: 'An airdrop from a wallet app',
      perUserType: 'fixed',
      totalTokenAmount: '60',
      fixedAmount: '30',
      deadline: new Date(Date.now() + 3600_000).toISOString(),
      website: '',
      twitter: '',
      trustlineMode: 'auto',
    };
    const intent = intentOf(
      await call(dave, 'POST', '/api/airdrops', form, { 'idempotency-key': 'gem-drop-1' }),
    );
    expect(intent.txs.map((x) => x.TransactionType)).toEqual(['Payment', 'Payment', 'CheckCreate']);
    const airdropAddress = intent.txs[0]!.Destination as string;
    const ok = await call(dave, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(gem, intent),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const created = ok.json() as CreateAirdropResult;
    const job = await t.app.platform.jobs.waitFor(created.jobId, { timeoutMs: 60_000 });
    expect(job.status, job.error ?? '').toBe('completed');
    const [row] = await t.database.db.select().from(airdropsTable).where(eq(airdropsTable.id, created.id));
    expect(row).toMatchObject({ status: 'active', sourceAddress: gem.classicAddress, remaining: '60' });
    expect(await world.tokens(airdropAddress, token)).toBe('60');
    expect(await world.tokens(gem.classicAddress, token)).toBe('99940');

    // A custodial claimer gets its 30 from the airdrop wallet.
    const erin = await t.signIn('erin');
    const erinWallet = await world.wallet(erin, 1);
    const paid = await call(erin, 'POST', `/api/airdrops/${created.id}/claim`, {
      destinationWalletId: erinWallet.id,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ amount: '30' });
    expect(await world.tokens(erinWallet.address, token)).toBe('30');
    expect(await world.tokens(airdropAddress, token)).toBe('30');
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  rippleTime,
  type DeployResult,
  type JobStatusView,
  type TokenView,
  type VestingScheduleView,
} from '@ledgerpad/shared';
import { Wallet, xrpToDrops, type TransactionMetadata, OfferCreateFlags } from 'xrpl';
import { jobs } from '../../src/platform/jobs';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { submitAndWait } from '../helpers/submit-and-wait';
import type { DeployPayload } from '../../src/modules/deploy';
import type { SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { testLogo } from '../helpers/test-logo';

// Issue 28, the token list's lock mark: /api/tokens carries `ledger_lock` read from the issuer's
// escrow objects, refreshed when a validated ledger creates or finishes an escrow of the token.
// Figures: supply 1,000,000, dev 10% = 100,000, all of it in one cliff tranche after 0.01 h (36 s):
// 100,000 / 1,000,000 = 10% locked until the cliff. Then a wallet Ledgerpad does not know buys on the
// AMM and escrows 500 with xrpl.js: 100,500 = 10.05% in 2 escrows, the last unlock its FinishAfter.
// After both EscrowFinishes no escrow is left and the mark is gone.

let t: WalletTestApp;
let alice: SignedIn;
let result: DeployResult;
let payload: DeployPayload;
const outsider = Wallet.generate();
let outsiderEscrow: { sequence: number; finishAfter: number };

const call = (who: SignedIn, method: 'GET' | 'POST', url: string, body?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload: body });
const client = () => t.connection.client;

async function listed(): Promise<TokenView> {
  const list = (await t.app.inject({ url: '/api/tokens' })).json() as TokenView[];
  const token = list.find((x) => x.issuer_address === result.issuer_address);
  expect(token).toBeDefined();
  return token!;
}

/** Closes a ledger and waits until the indexer has committed it (the list body is rebuilt after). */
async function closeAndIndex(): Promise<void> {
  await client().request({ command: 'ledger_accept' } as never);
  const r = await client().request({ command: 'ledger', ledger_index: 'validated' });
  await t.app.platform.indexer!.caughtUp(r.result.ledger_index);
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 1000 });
  await t.app.platform.accounts.bootstrapped();
  alice = await t.signIn('alice_listmark');
  const w = (await call(alice, 'POST', '/api/wallets', {})).json() as { id: number; wallet_address: string };
  expect((await call(alice, 'POST', `/api/wallets/${w.id}/fund`)).statusCode).toBe(200);
  const res = await call(alice, 'POST', '/api/deploy-token', {
    name: 'Mark Token',
    ticker: 'MARK',
    description: '',
    supply: '1000000',
    devAllocation: '10',
    liquidityAmount: '100',
    ammFee: '0.5',
    logoUrl: await testLogo(t.database.db),
    blackholeIssuer: true,
    requireAuth: false,
    liquidityPairType: 'XRP',
    walletId: w.id,
    vesting: { enabled: true, cliffPercent: '100', cliffHours: '0.01', months: 1 },
  });
  expect(res.statusCode, res.body).toBe(202);
  const { jobId } = res.json() as { jobId: string };
  await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 60_000 });
  const status = (await call(alice, 'GET', `/api/job-status/${jobId}`)).json() as JobStatusView<DeployResult>;
  expect(status.status, JSON.stringify(status)).toBe('completed');
  result = status.result!;
  const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId));
  payload = row!.payload as DeployPayload;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the token list mark of a locked allocation', () => {
  it('shows 10% locked in one escrow until the cliff, from the ledger', async () => {
    expect(payload.vesting!.tranches).toEqual([
      { index: 1, amount: '100000', unlockAt: payload.vesting!.start + 36 },
    ]);
    await closeAndIndex();
    const cliff = rippleTime.toIso(payload.vesting!.start + 36);
    // The body is rebuilt right after the indexed ledger; a read during that build gets the last one.
    await vi.waitFor(
      async () =>
        expect((await listed()).ledger_lock).toEqual({
          percent: '10',
          amount: '100000',
          escrows: 1,
          firstUnlock: cliff,
          until: cliff,
        }),
      { timeout: 10_000, interval: 100 },
    );
    // Locked: no 'unlocked' mark beside it.
    expect((await listed()).dev_unlocked).toBeUndefined();
  });

  it('counts an escrow made outside Ledgerpad by any holder', async () => {
    const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
    const ok = (r: { meta?: unknown }) =>
      expect((r.meta as TransactionMetadata).TransactionResult).toBe('tesSUCCESS');
    ok(
      await submitAndWait(
        client(),
        {
          TransactionType: 'Payment',
          Account: genesis.address,
          Destination: outsider.address,
          Amount: xrpToDrops(1000),
        },
        genesis,
      ),
    );
    const token = { currency: result.currency, issuer: result.issuer_address };
    ok(
      await submitAndWait(
        client(),
        {
          TransactionType: 'TrustSet',
          Account: outsider.address,
          LimitAmount: { ...token, value: '1000000' },
        },
        outsider,
      ),
    );
    // Buys 1,000 tokens from the pool (100 XRP against 900,000: about 0.11 XRP), at most 1 XRP.
    ok(
      await submitAndWait(
        client(),
        {
          TransactionType: 'OfferCreate',
          Account: outsider.address,
          TakerPays: { ...token, value: '1000' },
          TakerGets: xrpToDrops(1),
          Flags: OfferCreateFlags.tfImmediateOrCancel,
        },
        outsider,
      ),
    );
    const close = (await client().request({ command: 'ledger', ledger_index: 'validated' })).result.ledger
      .close_time;
    const finishAfter = Math.max(close + 5, payload.vesting!.tranches[0]!.unlockAt + 1);
    const created = await submitAndWait(
      client(),
      {
        TransactionType: 'EscrowCreate',
        Account: outsider.address,
        Destination: outsider.address,
        Amount: { ...token, value: '500' },
        FinishAfter: finishAfter,
      } as never,
      outsider,
    );
    ok(created);
    outsiderEscrow = { sequence: (created.tx_json as { Sequence: number }).Sequence, finishAfter };
    await closeAndIndex();
    await vi.waitFor(
      async () =>
        expect((await listed()).ledger_lock).toEqual({
          percent: '10.05',
          amount: '100500',
          escrows: 2,
          firstUnlock: rippleTime.toIso(payload.vesting!.tranches[0]!.unlockAt),
          until: rippleTime.toIso(finishAfter),
        }),
      { timeout: 10_000, interval: 100 },
    );
  });

  it('is gone once the escrows are finished', async () => {
    const cliff = Math.max(payload.vesting!.tranches[0]!.unlockAt, outsiderEscrow.finishAfter);
    while (
      (await client().request({ command: 'ledger', ledger_index: 'validated' })).result.ledger.close_time <=
      cliff
    )
      await client().request({ command: 'ledger_accept' } as never);
    const view = (await call(alice, 'GET', '/api/dashboard/vesting')).json() as VestingScheduleView;
    const released = await call(alice, 'POST', '/api/dashboard/vesting/release', {
      tokenId: result.token_id,
      escrowSequence: view.tokens[0]!.tranches[0]!.escrowSequence,
    });
    expect(released.statusCode, released.body).toBe(200);
    const finished = await submitAndWait(
      client(),
      {
        TransactionType: 'EscrowFinish',
        Account: outsider.address,
        Owner: outsider.address,
        OfferSequence: outsiderEscrow.sequence,
      },
      outsider,
    );
    expect((finished.meta as TransactionMetadata).TransactionResult).toBe('tesSUCCESS');
    await closeAndIndex();
    await vi.waitFor(async () => expect((await listed()).ledger_lock).toBeUndefined(), {
      timeout: 10_000,
      interval: 100,
    });
    // The dev's whole 10% is back on the wallet's line: the list now marks it 'unlocked'.
    expect((await listed()).dev_unlocked).toEqual({ percent: '10', lockedPercent: '0' });
  });
});

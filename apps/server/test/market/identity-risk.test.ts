import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Wallet, type Client, type SubmittableTransaction } from 'xrpl';
import {
  ESCROW_STATE_TEXT,
  TOKEN_MESSAGES,
  rippleTime,
  tickerToCurrency,
  type ClaimChallengeView,
  type DeployResult,
  type HoldersRecord,
  type RiskReport,
  type TokenView,
} from '@ledgerpad/shared';
import { submitAndWait, submitNow, submitOk, waitValidated } from '../helpers/submit-and-wait';
import type { SignedIn } from '../helpers/test-app';
import { ammLaunchBody, runDeploy } from '../helpers/trading-world';
import { fundedAccount, issueToken } from '../listing/issuer-fixture';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// Issue 35 on the real ledger, through outside xrpl.js wallets and the app's own routes:
// - lock signals go green only when the ledger guarantees them: a conditional escrow (finished with
//   its fulfilment in the next ledger), a due tranche, a 1-token escrow for ten years;
// - one token per page: an issuer with SAFE (12 holders) and RUGG (one wallet ~99%) gets a risk
//   report, a holder count, a trade list, a history and a claim per currency;
// - holder clusters: 25 wallets funded by one account in a row, holding 90%, are one holder.
// Expected figures are worked out here from what the test issued.

let t: WalletTestApp;
let client: Client;
let dev: SignedIn;
let bob: SignedIn;

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  await t.app.platform.accounts.bootstrapped();
  client = t.connection.client;
  [dev, bob] = await Promise.all([t.signIn('dev_locks'), t.signIn('bob_lister')]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const post = (url: string, who: SignedIn, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });
const get = (url: string) => t.app.inject({ url });

async function ok(tx: SubmittableTransaction, wallet: Wallet) {
  const r = await submitAndWait(client, tx, wallet);
  const result = (r.meta as { TransactionResult: string }).TransactionResult;
  if (result !== 'tesSUCCESS') throw new Error(`${tx.TransactionType}: ${result}`);
  return r;
}

/** The validated ledger's close time (Ripple seconds). */
const ledgerTime = async () =>
  (await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger.close_time;

/** The risk report once `pass` holds (the report follows the indexed ledger; no fixed sleep). */
async function riskWhen(issuer: string, pass: (r: RiskReport) => boolean, query = ''): Promise<RiskReport> {
  let last: RiskReport | undefined;
  await vi.waitFor(
    async () => {
      const res = await get(`/api/tokens/${issuer}/risk${query}`);
      expect(res.statusCode, res.body).toBe(200);
      last = res.json() as RiskReport;
      expect(pass(last), JSON.stringify(last.signals.find((s) => s.id === 'dev-allocation'))).toBe(true);
    },
    { timeout: 20_000, interval: 200 },
  );
  return last!;
}

async function listed(issuer: string, pass: (t: TokenView) => boolean): Promise<TokenView> {
  let last: TokenView | undefined;
  await vi.waitFor(
    async () => {
      last = ((await get('/api/tokens')).json() as TokenView[]).find((x) => x.issuer_address === issuer);
      expect(last && pass(last), JSON.stringify(last)).toBe(true);
    },
    { timeout: 20_000, interval: 200 },
  );
  return last!;
}

// PREIMAGE-SHA-256 of 32 zero bytes (crypto-conditions): the condition and the fulfilment that opens it.
const CONDITION = 'A0258020' + '66687AADF862BD776C8FC18B8E9F8E20089714856EE233B3902A591D0D5F2925' + '810120';
const FULFILLMENT = 'A0228020' + '00'.repeat(32);
const YEAR = 365 * 24 * 3600;

describe('a lock is green only when the ledger guarantees it', () => {
  let token: DeployResult;
  let wallet: Wallet;
  // Supply 1,000,000, dev allocation 10%: 100,000 in the deployer's wallet, not locked at deploy.
  const amount = (value: string) => ({ currency: token.currency, issuer: token.issuer_address, value });

  beforeAll(async () => {
    const created = await post('/api/wallets', dev, {});
    const { id, wallet_seed } = created.json() as { id: number; wallet_seed: string };
    wallet = Wallet.fromSeed(wallet_seed);
    expect((await post(`/api/wallets/${id}/fund`, dev, {})).statusCode).toBe(200);
    token = await runDeploy(
      t,
      dev,
      {
        ...ammLaunchBody(id, { name: 'Lock Test', ticker: 'LOCK' }),
        devAllocation: '10',
        liquidityAmount: '10',
        blackholeIssuer: true,
      },
      90_000,
    );
  }, 120_000);

  it('a conditional escrow with a five-year CancelAfter and no FinishAfter is no lock: amber, and finished in the next ledger', async () => {
    const before = await riskWhen(token.issuer_address, (r) => r.devLock?.status === 'unlocked');
    expect(before.signals.find((s) => s.id === 'dev-allocation')).toMatchObject({ severity: 'warn' });

    const now = await ledgerTime();
    const created = await ok(
      {
        TransactionType: 'EscrowCreate',
        Account: wallet.address,
        Destination: wallet.address,
        Amount: amount('100000'),
        Condition: CONDITION,
        CancelAfter: now + 5 * YEAR,
      },
      wallet,
    );
    const sequence = (created.tx_json as { Sequence: number }).Sequence;
    // The escrow is on the ledger: the panel reads it, and does not call it a lock.
    const r = await riskWhen(token.issuer_address, (x) => x.devLock?.escrows.length === 1);
    expect(r.devLock).toMatchObject({ status: 'unlocked', lockedPercent: '0', lockedAmount: '0' });
    expect(r.devLock!.escrows[0]).toMatchObject({ state: 'conditional', amount: '100000' });
    expect(r.devLock!.text).toBe('Dev allocation 10% — unlocked');
    const signal = r.signals.find((s) => s.id === 'dev-allocation')!;
    expect(signal.severity).toBe('warn');
    expect(signal.sentence).toMatch(/crypto-condition/);
    expect(r.level).not.toBe('good');
    // The list: still the amber 'unlocked' mark, and no green 'locked' one.
    const row = await listed(token.issuer_address, (x) => x.dev_unlocked !== undefined);
    expect(row.dev_unlocked).toEqual({ percent: '10', lockedPercent: '0' });
    expect(row.ledger_lock).toBeUndefined();

    // And it was none: the fulfilment finishes it at once.
    await ok(
      {
        TransactionType: 'EscrowFinish',
        Account: wallet.address,
        Owner: wallet.address,
        OfferSequence: sequence,
        Condition: CONDITION,
        Fulfillment: FULFILLMENT,
      },
      wallet,
    );
    await riskWhen(token.issuer_address, (x) => x.devLock?.escrows.length === 0);
  });

  it('a due tranche reads “unlocked — can be released now”', async () => {
    // Each close moves the ledger's time on by at least a second (rippled's rule; here a close every
    // 200 ms): 60 s ahead lasts about 60 closes, so the first read sees it locked.
    const finishAfter = (await ledgerTime()) + 60;
    const created = await ok(
      {
        TransactionType: 'EscrowCreate',
        Account: wallet.address,
        Destination: wallet.address,
        Amount: amount('100000'),
        FinishAfter: finishAfter,
      },
      wallet,
    );
    // Locked until the ledger passes its FinishAfter: all of the allocation, green.
    const locked = await riskWhen(token.issuer_address, (x) => x.devLock?.escrows.length === 1);
    expect(locked.devLock).toMatchObject({ status: 'locked', lockedPercent: '100' });
    expect(locked.devLock!.escrows[0]!.state).toBe('locked');
    expect(locked.signals.find((s) => s.id === 'dev-allocation')!.severity).toBe('good');
    // Wait for a validated close past it (ledger closes, not a clock).
    await vi.waitFor(async () => expect(await ledgerTime()).toBeGreaterThan(finishAfter), {
      timeout: 60_000,
      interval: 250,
    });
    const due = await riskWhen(token.issuer_address, (x) => x.devLock?.escrows[0]?.state === 'due');
    expect(due.devLock).toMatchObject({ status: 'unlocked', dueAmount: '100000', lockedPercent: '0' });
    expect(due.devLock!.text).toBe('Dev allocation 10% — unlocked — can be released now');
    expect(ESCROW_STATE_TEXT.due).toBe('unlocked — can be released now');
    expect(due.signals.find((s) => s.id === 'dev-allocation')).toMatchObject({
      severity: 'warn',
      sentence: 'Its escrows have reached their unlock date: the deployer can release and sell it now.',
    });
    await ok(
      {
        TransactionType: 'EscrowFinish',
        Account: wallet.address,
        Owner: wallet.address,
        OfferSequence: (created.tx_json as { Sequence: number }).Sequence,
      },
      wallet,
    );
    await riskWhen(token.issuer_address, (x) => x.devLock?.escrows.length === 0);
  }, 90_000);

  it('1 token in escrow for ten years is a sliver of the allocation: amber, the list keeps its unlocked mark', async () => {
    const finishAfter = (await ledgerTime()) + 10 * YEAR;
    await ok(
      {
        TransactionType: 'EscrowCreate',
        Account: wallet.address,
        Destination: wallet.address,
        Amount: amount('1'),
        FinishAfter: finishAfter,
      },
      wallet,
    );
    // 1 of 100,000 = 0.001% of the allocation: 'partial', rounded down to '0', shown as '<0.01'.
    const r = await riskWhen(token.issuer_address, (x) => x.devLock?.status === 'partial');
    const until = rippleTime.toIso(finishAfter).slice(0, 10);
    expect(r.devLock).toMatchObject({ lockedPercent: '0', lockedAmount: '1' });
    expect(r.devLock!.text).toBe(
      `Dev allocation 10% — <0.01% of it locked on the ledger until ${until}; the rest can be sold`,
    );
    expect(r.signals.find((s) => s.id === 'dev-allocation')!.severity).toBe('warn');
    const row = await listed(token.issuer_address, (x) => x.dev_unlocked !== undefined);
    expect(row.dev_unlocked).toEqual({ percent: '10', lockedPercent: '0' });
    expect(row.ledger_lock).toBeUndefined();
  });
});

describe('one page per token: an issuer with two currencies', () => {
  it('answers risk, holders, trades, history and claims per currency', async () => {
    // SAFE: 12 holders of 100. RUGG: 990 in one wallet and 10 in another.
    const safe = await issueToken(client, {
      ticker: 'SAFE',
      amounts: Array.from({ length: 12 }, () => '100'),
    });
    const rugg = await issueToken(client, { ticker: 'RUGG', amounts: ['990', '10'], issuer: safe.issuer });
    const issuer = safe.issuer.address;
    for (const currency of [safe.currency, rugg.currency]) {
      const r = await post('/api/admin/tokens/add', bob, {
        issuer_address: issuer,
        currency,
        name: 'Two Of One',
        description: '',
      });
      expect(r.statusCode, r.body).toBe(200);
    }

    const several = await get(`/api/tokens/${issuer}/risk`);
    expect([several.statusCode, several.json().message]).toEqual([400, TOKEN_MESSAGES.severalTokens]);
    const safeRisk = (await get(`/api/tokens/${issuer}/risk?currency=SAFE`)).json() as RiskReport;
    const ruggRisk = (await get(`/api/tokens/${issuer}/risk?currency=RUGG`)).json() as RiskReport;
    // SAFE: 12 holders; the top 10 hold 1,000 of 1,200 = 83.33%. RUGG: 2 holders, 100%.
    expect([safeRisk.holders, safeRisk.top10SharePercent]).toEqual([12, '83.33']);
    expect([ruggRisk.holders, ruggRisk.top10SharePercent]).toEqual([2, '100']);
    // The ledger code works as the currency too.
    expect(
      ((await get(`/api/tokens/${issuer}/risk?currency=${rugg.currency}`)).json() as RiskReport).holders,
    ).toBe(2);

    const tokens = (await get(`/api/tokens/issuer/${issuer}/tokens`)).json() as TokenView[];
    expect(tokens.map((x) => x.ticker).sort()).toEqual(['RUGG', 'SAFE']);
    expect(((await get(`/api/tokens/issuer/${issuer}?currency=RUGG`)).json() as TokenView).currency).toBe(
      rugg.currency,
    );
    expect((await get(`/api/tokens/${issuer}/trades?currency=RUGG`)).statusCode).toBe(200);

    // The list's holder column: a row per currency.
    await vi.waitFor(
      async () => {
        const rows = ((await get('/api/holders')).json() as HoldersRecord[]).filter(
          (h) => h.issuer_address === issuer,
        );
        expect(rows.map((h) => [h.currency, h.holders_count]).sort()).toEqual(
          [
            [rugg.currency, 2],
            [safe.currency, 12],
          ].sort(),
        );
      },
      { timeout: 20_000, interval: 200 },
    );

    // Claims are per listing, so per currency: RUGG's claim text names RUGG.
    const ruggToken = tokens.find((x) => x.ticker === 'RUGG')!;
    const code = (
      await post('/api/listing/claims', bob, { token_id: ruggToken.id })
    ).json() as ClaimChallengeView;
    expect(code).toMatchObject({ ticker: 'RUGG', currency: rugg.currency });
    expect(code.claim_text).toContain(`controller of RUGG listing #${ruggToken.id}`);
    const history = await get(`/api/tokens/${issuer}/identity-history?currency=RUGG`);
    expect(history.statusCode).toBe(200);
    expect((history.json() as unknown[]).length).toBe(1);
  });
});

describe('holder clusters', () => {
  it('groups 25 wallets funded by one account in a row, holding 90%, with their combined share', async () => {
    const currency = tickerToCurrency('CLU');
    // Ten independent holders of 10 each (funded by the ledger's genesis, a platform account).
    const { issuer } = await issueToken(client, {
      ticker: 'CLU',
      amounts: Array.from({ length: 10 }, () => '10'),
    });
    // One account funds 25 wallets in a row; each takes 36 CLU: 900 of the 1,000 issued.
    const funder = await fundedAccount(client, 800);
    const sybils = Array.from({ length: 25 }, () => Wallet.generate());
    // Each account's transactions in one run (consecutive sequences, submitted without waiting for
    // a close in between; a few closes for all), then each one awaited: tesSUCCESS.
    const inOneRun = async (from: Wallet, txs: SubmittableTransaction[]) => {
      const info = await client.request({
        command: 'account_info',
        account: from.address,
        ledger_index: 'current',
      });
      const first = info.result.account_data.Sequence;
      const hashes: string[] = [];
      for (const [i, tx] of txs.entries())
        hashes.push(await submitNow(client, from, { ...tx, Sequence: first + i }));
      for (const hash of hashes) expect((await waitValidated(client, hash)).result, hash).toBe('tesSUCCESS');
    };
    await inOneRun(
      funder,
      sybils.map((w) => ({
        TransactionType: 'Payment',
        Account: funder.address,
        Destination: w.address,
        Amount: String(25 * 1_000_000),
      })),
    );
    // The trust lines: 25 accounts, one transaction each, at once.
    await Promise.all(
      sybils.map((w) =>
        submitOk(client, w, {
          TransactionType: 'TrustSet',
          Account: w.address,
          LimitAmount: { currency, issuer: issuer.address, value: '1000000' },
        }),
      ),
    );
    await inOneRun(
      issuer,
      sybils.map((w) => ({
        TransactionType: 'Payment',
        Account: issuer.address,
        Destination: w.address,
        Amount: { currency, issuer: issuer.address, value: '36' },
      })),
    );
    const res = await post('/api/admin/tokens/add', bob, {
      issuer_address: issuer.address,
      name: 'Cluster Coin',
      description: '',
    });
    expect(res.statusCode, res.body).toBe(200);

    const r = (await get(`/api/tokens/${issuer.address}/risk`)).json() as RiskReport;
    expect(r.holders).toBe(35);
    expect(r.clusters).toHaveLength(1);
    expect(r.clusters![0]).toMatchObject({ funder: funder.address, balance: '900', sharePercent: '90' });
    expect(r.clusters![0]!.accounts.sort()).toEqual(sybils.map((w) => w.address).sort());
    // The top 10 counts the cluster as one holder: 900 + nine holders of 10 = 990 of 1,000 = 99%
    // (counted one by one, the ten largest were ten of the sybils: 360, '36%').
    expect(r.top10SharePercent).toBe('99');
    expect(r.signals.find((s) => s.id === 'holder-clusters')).toMatchObject({
      severity: 'danger',
      value: '25 wallets in 1 group: 90%',
    });
    expect(r.signals.find((s) => s.id === 'holder-clusters')!.sentence).toContain(
      `25 of the largest holders were funded by the same account (${funder.address})`,
    );
    expect(r.level).toBe('danger');
  }, 120_000);
});

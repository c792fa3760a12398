import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  addUtcMonths,
  rippleTime,
  VESTING_RELEASE_MESSAGES,
  type DeployResult,
  type JobStatusView,
  type RiskReport,
  type VestingScheduleView,
} from '@ledgerpad/shared';
import { jobs } from '../../src/platform/jobs';
import type { DeployPayload } from '../../src/modules/deploy';
import type { SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { testLogo } from '../helpers/test-logo';
import { LedgerEntry } from 'xrpl';

// Issue 28: a deploy that locks the dev allocation on the ledger, read back from the ledger's own
// objects, and a due tranche released from the dashboard. Figures: supply 1,000,000, dev 10% =
// 100,000; 25% cliff after 0.01 h (36 s) = 25,000; the rest, 75,000, over 2 months = 37,500 each,
// unlocking one and two calendar months after the cliff.

const LSF_ALLOW_TRUSTLINE_LOCKING = LedgerEntry.AccountRootFlags.lsfAllowTrustLineLocking;
const LSF_DISABLE_MASTER = LedgerEntry.AccountRootFlags.lsfDisableMaster;
const BLACKHOLE = 'rrrrrrrrrrrrrrrrrrrrBZbvji';

let t: WalletTestApp;
let alice: SignedIn;
let bob: SignedIn;
let wallet: { id: number; address: string };
let result: DeployResult;
let payload: DeployPayload;
let firstLedger: number;

const call = (who: SignedIn, method: 'GET' | 'POST', url: string, body?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload: body });
const client = () => t.connection.client;

async function validated(): Promise<{ index: number; closeTime: number }> {
  const r = await client().request({ command: 'ledger', ledger_index: 'validated' });
  return { index: r.result.ledger_index, closeTime: r.result.ledger.close_time };
}

async function devLine(): Promise<string | undefined> {
  const r = await client().request({
    command: 'account_lines',
    account: wallet.address,
    peer: result.issuer_address,
    ledger_index: 'validated',
  });
  return r.result.lines.find((l) => l.currency === result.currency)?.balance;
}

async function escrows() {
  const r = await client().request({
    command: 'account_objects',
    account: wallet.address,
    type: 'escrow',
    ledger_index: 'validated',
  });
  return r.result.account_objects as unknown as Array<{
    Account: string;
    Destination: string;
    Amount: { currency: string; issuer: string; value: string };
    FinishAfter?: number;
    CancelAfter?: number;
  }>;
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 1000 });
  await t.app.platform.accounts.bootstrapped();
  alice = await t.signIn('alice_vesting');
  bob = await t.signIn('bob_vesting');
  const w = (await call(alice, 'POST', '/api/wallets', {})).json() as { id: number; wallet_address: string };
  wallet = { id: w.id, address: w.wallet_address };
  expect((await call(alice, 'POST', `/api/wallets/${w.id}/fund`)).statusCode).toBe(200);
  // The deploy's cost in closes is measured with 3 s closes (1 s again afterwards): the figure is
  // about the pipeline, not about whether a loaded CI machine reacts within one second (the bench
  // measures the 1 s figure). With 1 s closes a loaded run spread the deploy over 3-6 ledgers.
  t.ledger.setCloseInterval(3000);
  firstLedger = (await validated()).index;
  const res = await call(alice, 'POST', '/api/deploy-token', {
    name: 'Vest Token',
    ticker: 'VEST',
    description: '',
    supply: '1000000',
    devAllocation: '10',
    liquidityAmount: '100',
    ammFee: '0.5',
    logoUrl: await testLogo(t.database.db),
    blackholeIssuer: true,
    requireAuth: false,
    liquidityPairType: 'XRP',
    walletId: wallet.id,
    vesting: { enabled: true, cliffPercent: '25', cliffHours: '0.01', months: 2 },
  });
  expect(res.statusCode, res.body).toBe(202);
  const { jobId } = res.json() as { jobId: string };
  await t.app.platform.jobs.waitFor(jobId, { timeoutMs: 60_000 });
  t.ledger.setCloseInterval(1000);
  const status = (await call(alice, 'GET', `/api/job-status/${jobId}`)).json() as JobStatusView<DeployResult>;
  expect(status.status, JSON.stringify(status)).toBe('completed');
  result = status.result!;
  const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId));
  payload = row!.payload as DeployPayload;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('deploy with a locked dev allocation', () => {
  it('planned exactly the tranches: 25,000 after 36 s, 37,500 one and two months after the cliff', () => {
    const start = payload.vesting!.start;
    const cliff = start + 36;
    const month = (k: number) => rippleTime.fromUnixMs(addUtcMonths(rippleTime.toUnixMs(cliff), k));
    expect(payload.vesting!.tranches).toEqual([
      { index: 1, amount: '25000', unlockAt: cliff },
      { index: 2, amount: '37500', unlockAt: month(1) },
      { index: 3, amount: '37500', unlockAt: month(2) },
    ]);
    // A calendar month after the cliff is 28 to 31 days.
    expect([28, 29, 30, 31].map((d) => cliff + d * 86_400)).toContain(month(1));
  });

  it('created exactly those escrows, from the wallet to itself, with no CancelAfter', async () => {
    const objs = await escrows();
    expect(
      objs
        .map((o) => [o.Amount.value, o.FinishAfter, o.Destination, o.CancelAfter])
        .sort((a, b) => (a[1] as number) - (b[1] as number)),
    ).toEqual(payload.vesting!.tranches.map((x) => [x.amount, x.unlockAt, wallet.address, undefined]));
    for (const o of objs) {
      expect(o.Account).toBe(wallet.address);
      expect(o.Amount).toMatchObject({ currency: result.currency, issuer: result.issuer_address });
    }
    // All of the 100,000 is in escrows: nothing left on the line to spend.
    expect(await devLine()).toBe('0');
    const gw = await client().request({
      command: 'gateway_balances',
      account: result.issuer_address,
      ledger_index: 'validated',
    });
    expect((gw.result as { locked?: Record<string, string> }).locked?.[result.currency]).toBe('100000');
    expect(gw.result.obligations?.[result.currency]).toBe('900000');
  });

  it('set AllowTrustLineLocking on the issuer before blackholing it', async () => {
    const info = await client().request({
      command: 'account_info',
      account: result.issuer_address,
      ledger_index: 'validated',
    });
    const root = info.result.account_data as typeof info.result.account_data & { RegularKey?: string };
    expect(root.Flags & LSF_ALLOW_TRUSTLINE_LOCKING).toBeTruthy();
    expect(root.Flags & LSF_DISABLE_MASTER).toBeTruthy();
    expect(root.RegularKey).toBe(BLACKHOLE);
    const txs = await client().request({
      command: 'account_tx',
      account: result.issuer_address,
      forward: true,
    });
    const sent = txs.result.transactions
      .map(
        (x) =>
          (
            x as unknown as {
              tx_json: { Account: string; TransactionType: string; SetFlag?: number; Sequence: number };
            }
          ).tx_json,
      )
      .filter((x) => x.Account === result.issuer_address);
    const seqOf = (pred: (x: (typeof sent)[number]) => boolean) => sent.find(pred)!.Sequence;
    const flag = seqOf((x) => x.TransactionType === 'AccountSet' && x.SetFlag === 17);
    const regularKey = seqOf((x) => x.TransactionType === 'SetRegularKey');
    expect(flag).toBeLessThan(regularKey);
  });

  it('still lands within two ledger closes', () => {
    const indexes = Object.values(result.ledgers ?? {}).filter((v): v is number => typeof v === 'number');
    // 11 steps of a plain deploy + the flag + 3 escrows.
    expect(indexes).toHaveLength(15);
    // The escrows are off the deploy's critical path (the pool and the blackhole): they never land
    // after the last of the plain deploy's transactions, whatever the machine's load.
    const entries = Object.entries(result.ledgers ?? {}).filter(
      (e): e is [string, number] => typeof e[1] === 'number',
    );
    const locks = entries.filter(([k]) => k.startsWith('lock-dev-')).map(([, v]) => v);
    const rest = entries.filter(([k]) => !k.startsWith('lock-dev-')).map(([, v]) => v);
    expect(Math.max(...locks)).toBeLessThanOrEqual(Math.max(...rest));
    // Every transaction in two consecutive ledgers: the deploy's cost in ledger closes.
    expect(new Set(indexes).size, JSON.stringify(result.ledgers)).toBeLessThanOrEqual(2);
    expect(Math.max(...indexes) - Math.min(...indexes)).toBeLessThanOrEqual(1);
    expect(Math.min(...indexes)).toBeGreaterThan(firstLedger);
  });

  it('the dev cannot sell the locked part: the money check refuses, and the ledger would too', async () => {
    const res = await call(alice, 'POST', '/api/swap', {
      walletAddress: wallet.address,
      issuer: result.issuer_address,
      token: 'VEST',
      amount: '1000',
      type: 'SELL',
      slippage: '5',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(
      /^Insufficient balance: you have 0 VEST available, this needs 1,?000 VEST\.$/,
    );
    // Past the money check, straight to the ledger: the locked tokens are not on the line to pay.
    const out = await t.app.platform.submissions!.submit({
      intentKey: 'test:vesting:spend-locked',
      account: wallet.address,
      tx: {
        TransactionType: 'Payment',
        Destination: result.hot_wallet_address,
        Amount: { currency: result.currency, issuer: result.issuer_address, value: '1000' },
      },
      purpose: 'test',
      userId: alice.user.id,
      walletId: wallet.id,
    });
    // rippled: no path at all when nothing is on the line (tecPATH_DRY), too little for it otherwise.
    expect(out.result).toBe('tecPATH_DRY');
  });

  it('wallets and positions show the locked tokens as locked, none of them spendable', async () => {
    const w = (await call(alice, 'POST', '/api/wallets/balances', { wallets: [wallet.id] })).json() as Array<{
      tokens: Array<{ issuer: string; value: string; locked?: string }>;
    }>;
    const tok = w[0]!.tokens.find((x) => x.issuer === result.issuer_address);
    expect(tok).toMatchObject({ value: '0', locked: '100000' });
    const p = (await call(alice, 'GET', `/api/positions/${alice.user.id}`)).json() as {
      positions: Array<{
        wallet: string;
        tokens: Array<{ issuer: string; balance: string; locked?: string }>;
      }>;
    };
    const pos = p.positions
      .find((x) => x.wallet === wallet.address)!
      .tokens.find((x) => x.issuer === result.issuer_address);
    expect(pos).toMatchObject({ balance: '0', locked: '100000' });
  });

  it('the risk panel reads the lock from the ledger', async () => {
    const res = await t.app.inject({ url: `/api/tokens/${result.issuer_address}/risk` });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as RiskReport;
    const last = payload.vesting!.tranches[2]!.unlockAt;
    const until = rippleTime.toIso(last).slice(0, 10);
    expect(report.devLock!.escrows).toHaveLength(3);
    // The cliff tranche (25,000) falls due 36 s after the deploy: a run slower than that reads it as
    // due (issue 35: due is no lock), judged at the report's own ledger time; either way exactly.
    const cliffDue = report.devLock!.escrows.some((e) => e.state === 'due');
    expect(report.devLock).toMatchObject(
      cliffDue
        ? {
            status: 'partial',
            devSharePercent: '10',
            lockedPercent: '75',
            lockedAmount: '75000',
            dueAmount: '25000',
            until: rippleTime.toIso(last),
            text: `Dev allocation 10% — 75% of it locked on the ledger until ${until}; the rest unlocked — can be released now`,
          }
        : {
            status: 'locked',
            devSharePercent: '10',
            lockedPercent: '100',
            lockedAmount: '100000',
            dueAmount: '0',
            until: rippleTime.toIso(last),
            text: `Dev allocation 10% — locked on the ledger until ${until}`,
          },
    );
    const signal = report.signals.find((s) => s.id === 'dev-allocation')!;
    expect(signal.value).toBe(report.devLock!.text.replace('Dev allocation ', ''));
    expect(signal.severity).toBe(cliffDue ? 'warn' : 'good');
  });
});

describe('releasing a due tranche from the dashboard', () => {
  it('shows the schedule with each status from the ledger; refuses early and foreign releases', async () => {
    const view = (await call(alice, 'GET', '/api/dashboard/vesting')).json() as VestingScheduleView;
    expect(view.tokens).toHaveLength(1);
    const tr = view.tokens[0]!.tranches;
    expect(tr.map((x) => [x.index, x.amount])).toEqual([
      [1, '25000'],
      [2, '37500'],
      [3, '37500'],
    ]);
    expect(tr.every((x) => typeof x.escrowSequence === 'number')).toBe(true);
    // Tranche 2 unlocks in a month: refused with its date.
    const early = await call(alice, 'POST', '/api/dashboard/vesting/release', {
      tokenId: result.token_id,
      escrowSequence: tr[1]!.escrowSequence,
    });
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(
      VESTING_RELEASE_MESSAGES.notDue(rippleTime.toIso(payload.vesting!.tranches[1]!.unlockAt)),
    );
    // Someone else: as if there were no such tranche.
    const foreign = await call(bob, 'POST', '/api/dashboard/vesting/release', {
      tokenId: result.token_id,
      escrowSequence: tr[0]!.escrowSequence,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(VESTING_RELEASE_MESSAGES.notFound);
    expect(((await call(bob, 'GET', '/api/dashboard/vesting')).json() as VestingScheduleView).tokens).toEqual(
      [],
    );
  });

  it('releases the cliff tranche once the ledger time passes it, once', async () => {
    const cliff = payload.vesting!.tranches[0]!.unlockAt;
    // Each close is at least a second after its parent: closing fast moves ledger time past the cliff.
    while ((await validated()).closeTime <= cliff)
      await client().request({ command: 'ledger_accept' } as never);
    let view = (await call(alice, 'GET', '/api/dashboard/vesting')).json() as VestingScheduleView;
    expect(view.tokens[0]!.tranches.map((x) => x.status)).toEqual(['due', 'locked', 'locked']);
    const seq = view.tokens[0]!.tranches[0]!.escrowSequence;
    const first = await call(alice, 'POST', '/api/dashboard/vesting/release', {
      tokenId: result.token_id,
      escrowSequence: seq,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'released', amount: '25000' });
    expect(await devLine()).toBe('25000');
    // A second click: the same transaction, nothing signed again.
    const again = await call(alice, 'POST', '/api/dashboard/vesting/release', {
      tokenId: result.token_id,
      escrowSequence: seq,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().hash).toBe(first.json().hash);
    expect(await devLine()).toBe('25000');
    view = (await call(alice, 'GET', '/api/dashboard/vesting')).json() as VestingScheduleView;
    expect(view.tokens[0]!.tranches.map((x) => x.status)).toEqual(['released', 'locked', 'locked']);
    // The risk panel: 75,000 of 1,000,000 = 7.5% still locked.
    const report = (
      await t.app.inject({ url: `/api/tokens/${result.issuer_address}/risk` })
    ).json() as RiskReport;
    // 75,000 of the 100,000 allocation still locked: 75% of it, amber (issue 35: a share of the allocation).
    expect(report.devLock).toMatchObject({ status: 'partial', lockedPercent: '75', lockedAmount: '75000' });
    expect(report.devLock!.text).toMatch(
      /^Dev allocation 10% — 75% of it locked on the ledger until \d{4}-\d{2}-\d{2}; the rest can be sold$/,
    );
  });
});

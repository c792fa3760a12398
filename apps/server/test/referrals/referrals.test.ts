import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalanceChanges, type Client, type TransactionMetadata } from 'xrpl';
import {
  Decimal,
  REFERRAL_MESSAGES,
  type DeployResult,
  type ReferralClaimResult,
  type ReferralClaimView,
  type ReferralEarningView,
  type ReferralsOverview,
  type ReferralSummary,
  type User,
} from '@ledgerpad/shared';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { referralAccruals, referrals } from '../../src/modules/referrals/schema';
import { tradingTrades } from '../../src/modules/trading/schema';
import { deviceCookie, sessionCookie, TEST_ORIGIN, type SignedIn } from '../helpers/test-app';
import { seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// Referrals on the embedded ledger: a user who signs up through a referral link is bound to the
// referrer at that first sign-in only (never to themselves, never changed later), pays exactly the
// fee everybody pays, and the referrer earns the referral share of each of that user's paid fees —
// exact to the drop, worked out here from the fee rule — claimed on the ledger once, with history.

let t: WalletTestApp;
let w: TradingWorld;
let client: Client;
let creator: SignedIn;
let token: DeployResult;
let carol: Browser;
let carolWallet: { id: number; address: string };
let code: string;
let alice: Browser;
let aliceWallet: { id: number; address: string };
let feeWallet: string;
/** Carol's share of Alice's fees so far, in drops (worked out from the ledger and the fee rule). */
let earnedDrops = 0n;

/** One browser: its demo device cookie and its session. */
interface Browser extends SignedIn {
  device: string;
}

/** Demo sign-in as a browser does it, with the page's `?ref=` passed on, and that browser's cookies. */
async function signUp(username: string, opts: { ref?: string; from?: Browser } = {}): Promise<Browser> {
  const cookies = [opts.from?.device, opts.from?.cookie].filter(Boolean).join('; ');
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/auth/demo${opts.ref ? `?ref=${opts.ref}` : ''}`,
    headers: { origin: TEST_ORIGIN, ...(cookies ? { cookie: cookies } : {}) },
    payload: { username },
  });
  expect(res.statusCode, res.body).toBe(200);
  const device = deviceCookie(res.headers['set-cookie']) ?? opts.from!.device;
  const cookie = sessionCookie(res.headers['set-cookie']);
  const csrf = await t.app.inject({ method: 'GET', url: '/api/csrf-token', headers: { cookie } });
  const csrfToken = (csrf.json() as { token: string }).token;
  return {
    cookie,
    csrfToken,
    device,
    user: (res.json() as { user: User }).user,
    headers: { cookie, 'x-csrf-token': csrfToken, origin: TEST_ORIGIN },
  };
}

const get = (url: string, who: SignedIn) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
const post = (url: string, who: SignedIn, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload });

async function referrerOf(userId: number): Promise<number | undefined> {
  const [row] = await t.database.db.select().from(referrals).where(eq(referrals.referredUserId, userId));
  return row?.referrerUserId;
}

/** The XRP a transaction moved out of `account`, network fee excluded, in drops. */
async function xrpSpent(hash: string, account: string): Promise<bigint> {
  const r = (await client.request({ command: 'tx', transaction: hash })).result as unknown as {
    meta: TransactionMetadata;
    tx_json?: { Fee?: string };
  };
  const change = getBalanceChanges(r.meta)
    .find((c) => c.account === account)!
    .balances.find((b) => b.currency === 'XRP')!;
  return -BigInt(new Decimal(change.value).mul(1e6).toFixed(0)) - BigInt(r.tx_json?.Fee ?? '0');
}

/** A buy by `who`; returns the fee the ledger charged and checks it against the fee rule. */
async function buy(
  who: SignedIn,
  wallet: { address: string },
  xrp: string,
): Promise<{ feeDrops: bigint; hash: string }> {
  const s = await w.swap(who, {
    walletAddress: wallet.address,
    issuer: token.issuer_address,
    token: token.currency,
    amount: xrp,
    type: 'BUY',
    slippage: '5',
  });
  // The platform fee: 0.75% of the XRP spent, rounded down to the drop — the same for a referred
  // user as for anyone (a referral costs the trader nothing).
  const feeDrops = ((await xrpSpent(s.hash, wallet.address)) * 75n) / 10_000n;
  const [trade] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, s.hash));
  expect(trade!.feeStatus).toBe('paid');
  expect(await xrpSpent(trade!.feeHash!, wallet.address)).toBe(feeDrops);
  return { feeDrops, hash: s.hash };
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  w = seed(t);
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
  creator = await t.signIn('ref_creator');
  const creatorWallet = await w.wallet(creator);
  token = await w.deploy(creator, creatorWallet.id, { name: 'Referral Token', ticker: 'REF' });
  carol = await signUp('ref_carol');
  carolWallet = await w.wallet(carol);
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('referrals', () => {
  it('gives every user a code and a link', async () => {
    const res = await get('/api/referrals/me', carol);
    expect(res.statusCode, res.body).toBe(200);
    const me = res.json() as ReferralSummary;
    expect(me.code).toMatch(/^[a-km-np-z2-9]{8}$/);
    expect(me).toMatchObject({
      link_path: `/?ref=${me.code}`,
      referred: 0,
      active: 0,
      share_percent: '20',
      months: 12,
    });
    // The same code every time.
    expect(((await get('/api/referrals/me', carol)).json() as ReferralSummary).code).toBe(me.code);
    code = me.code;
  });

  it('binds a new user at their first sign-in, and never again', async () => {
    alice = await signUp('ref_alice', { ref: code.toUpperCase() });
    expect(await referrerOf(alice.user.id)).toBe(carol.user.id);
    aliceWallet = await w.wallet(alice, 3);

    // A returning user's link changes nothing (here: somebody else's code).
    const dave = await signUp('ref_dave');
    const daveCode = ((await get('/api/referrals/me', dave)).json() as ReferralSummary).code;
    // (Signing in again replaces the browser's session: keep the new one.)
    alice = await signUp('ref_alice', { ref: daveCode, from: alice });
    expect(await referrerOf(alice.user.id)).toBe(carol.user.id);
    // A user who signed up without a link is not bound later through one.
    await signUp('ref_dave', { ref: code, from: dave });
    expect(aliceWallet.address).toBeTruthy();
    expect(await referrerOf(dave.user.id)).toBeUndefined();
    // The row can't be rewritten at all: the database refuses.
    await expect(
      t.database.db
        .update(referrals)
        .set({ referrerUserId: dave.user.id })
        .where(eq(referrals.referredUserId, alice.user.id)),
    ).rejects.toThrow();

    // An unknown code: the sign-in works, nothing is bound.
    const erin = await signUp('ref_erin', { ref: 'zzzzzzzz' });
    expect(await referrerOf(erin.user.id)).toBeUndefined();
    const junk = await signUp('ref_junk', { ref: "x'; drop table users;--" });
    expect(await referrerOf(junk.user.id)).toBeUndefined();
  });

  it('never binds a referrer to themselves: not from their own browser, not from their session', async () => {
    // Carol opens her own link in her own browser and signs up a second account.
    const sameDevice = await signUp('ref_carol_two', { ref: code, from: { ...carol, cookie: '' } });
    expect(await referrerOf(sameDevice.user.id)).toBeUndefined();
    // Signed in as Carol, another browser signs up a new account through Carol's link.
    const fresh = await signUp('ref_fresh');
    const withSession = await signUp('ref_carol_three', {
      ref: code,
      from: { ...fresh, cookie: carol.cookie },
    });
    expect(await referrerOf(withSession.user.id)).toBeUndefined();
    // That sign-in replaced Carol's session in that browser: she signs in again.
    carol = await signUp('ref_carol', { from: { ...carol, cookie: '' } });
    const me = (await get('/api/referrals/me', carol)).json() as ReferralSummary;
    expect(me).toMatchObject({ referred: 1, active: 1 });
  });

  it('earns the referrer 20% of every fee the referred user pays, to the drop', async () => {
    for (const xrp of ['10', '7.777777', '3']) {
      const { feeDrops } = await buy(alice, aliceWallet, xrp);
      // The referrer's share: floor(fee × 2,000 / 10,000) drops (referral_share_percent 20).
      earnedDrops += (feeDrops * 2000n) / 10_000n;
    }
    const rows = (await get('/api/referrals/earnings', carol)).json() as ReferralEarningView[];
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.share_bps === 2000 && r.currency === 'XRP')).toBe(true);
    const sum = rows.reduce((s, r) => s + BigInt(new Decimal(r.amount).mul(1e6).toFixed(0)), 0n);
    expect(sum).toBe(earnedDrops);
    const me = (await get('/api/referrals/me', carol)).json() as ReferralSummary;
    const xrp = me.balances.find((b) => b.currency === 'XRP')!;
    expect(new Decimal(xrp.earned).mul(1e6).toFixed(0)).toBe(earnedDrops.toString());
    expect(new Decimal(xrp.claimable).mul(1e6).toFixed(0)).toBe(earnedDrops.toString());

    // A user nobody referred earns nobody anything.
    const bob = await signUp('ref_bob');
    const bobWallet = await w.wallet(bob, 2);
    const before = await t.database.db.select().from(referralAccruals);
    await buy(bob, bobWallet, '5');
    expect(await t.database.db.select().from(referralAccruals)).toHaveLength(before.length);
    // Four swaps, each awaiting its fee's payment on the ledger: room for a loaded machine.
  }, 120_000);

  it('stops earning when the window ends, and applies a new share to later trades', async () => {
    // A referral whose window is over (bound 13 months ago, for 12).
    const late = await signUp('ref_late');
    await t.database.db.insert(referrals).values({
      referredUserId: late.user.id,
      referrerUserId: carol.user.id,
      code,
      createdAt: new Date(Date.now() - 400 * 86_400_000),
      expiresAt: new Date(Date.now() - 35 * 86_400_000),
    });
    const lateWallet = await w.wallet(late, 2);
    const { hash } = await buy(late, lateWallet, '4');
    const [trade] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.hash, hash));
    expect(
      await t.database.db.select().from(referralAccruals).where(eq(referralAccruals.tradeId, trade!.id)),
    ).toEqual([]);

    const owner = await t.signInOwner();
    const set = (key: string, value: string) =>
      post('/api/admin/platform-config/update', owner, { key, value });
    // Bounds: 0–50%, 2 decimals; 1–60 months; and never more than the fee with the creator's share.
    for (const bad of ['50.01', '-1', '20.001', 'x'])
      expect((await set('referral_share_percent', bad)).statusCode).toBe(400);
    for (const bad of ['0', '61', '1.5']) expect((await set('referral_months', bad)).statusCode).toBe(400);
    expect((await set('creator_reward_share', '0.9')).statusCode).toBe(400); // 90% + 20% > 100%
    expect((await set('referral_share_percent', '12.5')).statusCode).toBe(200);
    const { feeDrops } = await buy(alice, aliceWallet, '2');
    const share = (feeDrops * 1250n) / 10_000n;
    earnedDrops += share;
    const [latest] = (await get('/api/referrals/earnings', carol)).json() as ReferralEarningView[];
    expect(latest).toMatchObject({ share_bps: 1250 });
    expect(new Decimal(latest!.amount).mul(1e6).toFixed(0)).toBe(share.toString());
    expect((await set('referral_share_percent', '20')).statusCode).toBe(200);
  });

  it('pays the earnings to one of the referrer’s wallets on the ledger, once', async () => {
    const toAlice = await post('/api/referrals/claim', carol, {
      wallet: aliceWallet.address,
      currency: 'XRP',
    });
    expect(toAlice.statusCode).toBe(404);
    expect(toAlice.json()).toMatchObject({ message: REFERRAL_MESSAGES.walletNotFound });
    const noRlusd = await post('/api/referrals/claim', carol, {
      wallet: carolWallet.address,
      currency: 'RLUSD',
    });
    expect(noRlusd.json()).toMatchObject({ message: REFERRAL_MESSAGES.nothingToClaim });

    const before = await w.xrp(carolWallet.address);
    const feeBefore = await w.xrp(feeWallet);
    const [a, b] = await Promise.all([
      post('/api/referrals/claim', carol, { wallet: carolWallet.address, currency: 'XRP' }),
      post('/api/referrals/claim', carol, { wallet: carolWallet.address, currency: 'XRP' }),
    ]);
    const answers = [a, b].map((r) => ({ status: r.statusCode, body: r.json() as Record<string, string> }));
    const paid = answers.filter((x) => x.status === 200);
    expect(paid, JSON.stringify(answers)).toHaveLength(1);
    expect(answers.find((x) => x.status !== 200)).toMatchObject({
      status: 400,
      body: { message: REFERRAL_MESSAGES.nothingToClaim },
    });
    const r = paid[0]!.body as unknown as ReferralClaimResult;
    expect(r).toMatchObject({ to: carolWallet.address, currency: 'XRP' });
    expect(new Decimal(r.claimed).mul(1e6).toFixed(0)).toBe(earnedDrops.toString());
    expect((await w.xrp(carolWallet.address)) - before).toBe(earnedDrops);
    const tx = (await client.request({ command: 'tx', transaction: r.hash })).result as unknown as {
      tx_json: { Account: string; Fee: string };
    };
    expect(tx.tx_json.Account).toBe(feeWallet);
    expect(feeBefore - (await w.xrp(feeWallet))).toBe(earnedDrops + BigInt(tx.tx_json.Fee));

    const claims = (await get('/api/referrals/claims', carol)).json() as ReferralClaimView[];
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({
      address: carolWallet.address,
      status: 'paid',
      hash: r.hash,
      currency: 'XRP',
    });
    const me = (await get('/api/referrals/me', carol)).json() as ReferralSummary;
    expect(me.balances.find((x) => x.currency === 'XRP')).toMatchObject({ claimable: '0.000000' });
  });

  it('shows the admin the programme’s totals', async () => {
    const owner = await t.signInOwner();
    const res = await get('/api/admin/referrals', owner);
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json() as ReferralsOverview;
    // Alice and the expired one.
    expect(o.referred_users).toBe(2);
    const xrp = o.totals.find((x) => x.currency === 'XRP')!;
    expect(new Decimal(xrp.earned).mul(1e6).toFixed(0)).toBe(earnedDrops.toString());
    expect(new Decimal(xrp.claimed).mul(1e6).toFixed(0)).toBe(earnedDrops.toString());
    expect(o.referrers).toEqual([
      expect.objectContaining({ user_id: carol.user.id, code, referred: 2, earned_rlusd: '0' }),
    ]);
    // Not for anyone else.
    expect((await get('/api/admin/referrals', carol)).statusCode).toBe(403);
  });
});

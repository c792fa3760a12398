import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalanceChanges, Wallet, type Client, type TransactionMetadata, AccountSetAsfFlags } from 'xrpl';
import {
  Decimal,
  REWARD_MESSAGES,
  REWARD_SPLIT_MESSAGES,
  type ClaimRewardsResult,
  type DeployResult,
  type RewardPayoutView,
  type RewardSplitView,
} from '@ledgerpad/shared';
import { eq } from 'drizzle-orm';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { rewardPayouts, rewardSplitEvents } from '../../src/modules/rewards/schema';
import type { SignedIn } from '../helpers/test-app';
import { seed, type TradingWorld } from '../helpers/trading-world';
import { submitOk } from '../helpers/submit-and-wait';
import { fundedAccount } from '../listing/issuer-fixture';
import { addSelfCustody } from '../self-custody/helpers';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';

// Creator reward splits on the embedded ledger: the creator alone sets up to 5 recipients (basis
// points adding up to 10,000, every address able to receive), each change is in the token's public
// history, and a claim pays every recipient its share from the fee wallet — exact to the drop, the
// remainder to the first recipient — with its payout history.

let t: WalletTestApp;
let w: TradingWorld;
let client: Client;
let creator: SignedIn;
let creatorWallet: { id: number; address: string };
let trader: SignedIn;
let traderWallet: { id: number; address: string };
let other: SignedIn;
let otherWallet: { id: number; address: string };
let outside: Wallet;
let token: DeployResult;
let tokenId: number;
let feeWallet: string;
/** The creator's share of the fees of the trades so far, in drops (worked out from the ledger). */
let creatorShareDrops = 0n;

const post = (url: string, who: SignedIn, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: who.headers, payload: payload as Record<string, unknown> });
const get = (url: string, who?: SignedIn) =>
  t.app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} });
const setSplit = (who: SignedIn, recipients: Array<{ address: string; bps: number }>) =>
  post(`/api/rewards/splits/${tokenId}`, who, { recipients });

async function txOf(hash: string) {
  const r = await client.request({ command: 'tx', transaction: hash });
  return r.result as unknown as { meta: TransactionMetadata; tx_json?: { Fee?: string }; Fee?: string };
}

/** The XRP an account's transaction moved out of it, network fee excluded, in drops. */
async function xrpSpent(hash: string, account: string): Promise<bigint> {
  const tx = await txOf(hash);
  const change = getBalanceChanges(tx.meta)
    .find((c) => c.account === account)!
    .balances.find((b) => b.currency === 'XRP')!;
  const fee = BigInt(tx.tx_json?.Fee ?? tx.Fee ?? '0');
  return -BigInt(new Decimal(change.value).mul(1e6).toFixed(0)) - fee;
}

/**
 * A buy of `xrp` XRP of the token by the trader, its platform fee paid; the creator's share of that
 * fee added to `creatorShareDrops` from the fee rule: fee = floor(spent × 0.75%) in drops, the
 * creator's share floor(fee / 3) (creator_reward_share 1/3).
 */
async function buy(xrp: string): Promise<void> {
  const s = await w.swap(trader, {
    walletAddress: traderWallet.address,
    issuer: token.issuer_address,
    token: token.currency,
    amount: xrp,
    type: 'BUY',
    slippage: '5',
  });
  const spent = await xrpSpent(s.hash, traderWallet.address);
  const fee = (spent * 75n) / 10_000n;
  creatorShareDrops += fee / 3n;
}

/** Drops as the API writes XRP amounts: 6 decimals. */
const xrp6 = (d: bigint) => `${d / 1_000_000n}.${(d % 1_000_000n).toString().padStart(6, '0')}`;

async function xrpOf(address: string): Promise<bigint> {
  return w.xrp(address);
}

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on' }, { closeIntervalMs: 200 });
  w = seed(t);
  client = t.connection.client;
  await t.app.platform.accounts.bootstrapped();
  feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
  creator = await t.signIn('split_creator');
  creatorWallet = await w.wallet(creator);
  token = await w.deploy(creator, creatorWallet.id, { name: 'Split Token', ticker: 'SPL' });
  tokenId = (await get('/api/dashboard/user-tokens/' + creator.user.id, creator)).json().tokens[0].id;
  trader = await t.signIn('split_trader');
  traderWallet = await w.wallet(trader, 3);
  other = await t.signIn('split_other');
  otherWallet = await w.wallet(other);
  outside = await fundedAccount(client, 50);
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('creator reward splits', () => {
  it('lets only the creator set a split, and checks every rule of it', async () => {
    const ok = [
      { address: creatorWallet.address, bps: 5000 },
      { address: outside.classicAddress, bps: 5000 },
    ];
    const byOther = await setSplit(other, ok);
    expect(byOther.statusCode, byOther.body).toBe(403);
    expect(byOther.json()).toMatchObject({ message: REWARD_SPLIT_MESSAGES.notCreator });

    const six = Array.from({ length: 6 }, () => Wallet.generate().classicAddress).map((address) => ({
      address,
      bps: 1000,
    }));
    six[5]!.bps = 5000;
    const tooMany = await setSplit(creator, six);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain(REWARD_SPLIT_MESSAGES.tooMany);

    const short = await setSplit(creator, [{ address: creatorWallet.address, bps: 9999 }]);
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain(REWARD_SPLIT_MESSAGES.sum);

    const twice = await setSplit(creator, [
      { address: creatorWallet.address, bps: 5000 },
      { address: creatorWallet.address, bps: 5000 },
    ]);
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain(REWARD_SPLIT_MESSAGES.duplicate);

    // An address that is no account on the ledger and none of the creator's wallets.
    const nobody = Wallet.generate().classicAddress;
    const unknown = await setSplit(creator, [{ address: nobody, bps: 10_000 }]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: REWARD_SPLIT_MESSAGES.unknownAccount(nobody) });

    // An account that demands a destination tag: a reward payment to it would fail.
    const tagged = await fundedAccount(client, 20);
    await submitOk(client, tagged, {
      TransactionType: 'AccountSet',
      Account: tagged.classicAddress,
      SetFlag: AccountSetAsfFlags.asfRequireDest,
    });
    const needsTag = await setSplit(creator, [{ address: tagged.classicAddress, bps: 10_000 }]);
    expect(needsTag.statusCode).toBe(400);
    expect(needsTag.json().message).toBe(
      REWARD_SPLIT_MESSAGES.cannotReceive(
        tagged.classicAddress,
        'it requires a destination tag, which a reward payment does not carry.',
      ),
    );
    for (const lost of [feeWallet, 'rrrrrrrrrrrrrrrrrrrrBZbvji']) {
      const res = await setSplit(creator, [{ address: lost, bps: 10_000 }]);
      expect(res.statusCode, lost).toBe(400);
    }
    // Nothing of the refused attempts is in the split or its history.
    const view = (await get(`/api/rewards/splits/${tokenId}`)).json() as RewardSplitView;
    expect(view).toEqual({ token_id: tokenId, recipients: [], history: [] });
  });

  it('records every change in the token’s public history, and none for a save that changes nothing', async () => {
    const first = [
      { address: creatorWallet.address, bps: 6000 },
      { address: outside.classicAddress, bps: 4000 },
    ];
    expect((await setSplit(creator, first)).statusCode).toBe(200);
    expect((await setSplit(creator, first)).statusCode).toBe(200);
    // The final split: the creator's wallet, an outside account and another user's wallet (an
    // account on the ledger), 50% / 33.33% / 16.67%.
    const final = [
      { address: creatorWallet.address, bps: 5000 },
      { address: outside.classicAddress, bps: 3333 },
      { address: otherWallet.address, bps: 1667 },
    ];
    const saved = await setSplit(creator, final);
    expect(saved.statusCode, saved.body).toBe(200);
    // Public: no session needed.
    const view = (await get(`/api/rewards/splits/${tokenId}`)).json() as RewardSplitView;
    expect(view.recipients).toEqual(final);
    expect(view.history.map((h) => ({ before: h.before, after: h.after }))).toEqual([
      { before: first, after: final },
      { before: [], after: first },
    ]);
    // The history is append-only: the database itself refuses to rewrite it.
    await expect(
      t.database.db
        .update(rewardSplitEvents)
        .set({ after: [] })
        .where(eq(rewardSplitEvents.tokenId, tokenId)),
    ).rejects.toThrow();
  });

  it('pays every recipient its share of a claim, exact to the drop, the remainder to the first', async () => {
    await buy('10');
    await buy('7');
    await buy('3.333333');
    const before = await Promise.all([
      xrpOf(creatorWallet.address),
      xrpOf(outside.classicAddress),
      xrpOf(otherWallet.address),
      xrpOf(feeWallet),
    ]);
    const withWallet = await post('/api/claim-rewards', creator, {
      wallet: creatorWallet.address,
      token: token.currency,
      issuer: token.issuer_address,
      percent: 100,
    });
    expect(withWallet.statusCode).toBe(400);
    expect(withWallet.json()).toMatchObject({ message: REWARD_MESSAGES.splitClaimNoWallet });

    const res = await post('/api/claim-rewards', creator, {
      token: token.currency,
      issuer: token.issuer_address,
      percent: 100,
    });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as ClaimRewardsResult;
    // The claim: all of the creator's share (whole drops already, so 6 decimals lose nothing).
    const total = creatorShareDrops;
    // Each recipient floor(total × bps / 10,000); what the floors leave goes to the first.
    const parts = [5000n, 3333n, 1667n].map((bps) => (total * bps) / 10_000n);
    const remainder = total - parts.reduce((a, b) => a + b, 0n);
    // The amounts bought leave a remainder (50,833 drops: floors 25,416 + 16,942 + 8,473 = 50,831).
    expect(remainder).toBeGreaterThan(0n);
    parts[0]! += remainder;
    expect(r.claimed).toBe(xrp6(total));
    expect(r.payouts?.map((p) => [p.address, p.amount, p.status])).toEqual([
      [creatorWallet.address, xrp6(parts[0]!), 'paid'],
      [outside.classicAddress, xrp6(parts[1]!), 'paid'],
      [otherWallet.address, xrp6(parts[2]!), 'paid'],
    ]);
    const after = await Promise.all([
      xrpOf(creatorWallet.address),
      xrpOf(outside.classicAddress),
      xrpOf(otherWallet.address),
      xrpOf(feeWallet),
    ]);
    expect(after[0]! - before[0]!).toBe(parts[0]);
    expect(after[1]! - before[1]!).toBe(parts[1]);
    expect(after[2]! - before[2]!).toBe(parts[2]);
    // The fee wallet paid the three parts and the network fee of each payment, nothing more.
    let fees = 0n;
    for (const p of r.payouts!) fees += BigInt((await txOf(p.hash!)).tx_json?.Fee ?? '0');
    expect(before[3]! - after[3]!).toBe(total + fees);
    // Each payment is on the ledger once, from the fee wallet, to its recipient.
    for (const p of r.payouts!) {
      const tx = (await client.request({ command: 'tx', transaction: p.hash! })).result as unknown as {
        tx_json: { Account: string; Destination: string; DeliverMax?: string; Amount?: string };
      };
      expect(tx.tx_json.Account).toBe(feeWallet);
      expect(tx.tx_json.Destination).toBe(p.address);
    }

    // The payout history: each payment with its recipient, amount, hash and time, newest first.
    const history = await get(`/api/rewards/payouts?token_id=${tokenId}`, creator);
    expect(history.statusCode, history.body).toBe(200);
    const rows = history.json() as RewardPayoutView[];
    expect(rows.map((p) => [p.address, p.amount, p.status, p.hash]).reverse()).toEqual(
      r.payouts!.map((p) => [p.address, p.amount, 'paid', p.hash]),
    );
    expect(rows.every((p) => !Number.isNaN(Date.parse(p.created_at)))).toBe(true);
    // Only the creator reads it.
    expect((await get(`/api/rewards/payouts?token_id=${tokenId}`, other)).statusCode).toBe(404);
    const nothing = await post('/api/claim-rewards', creator, {
      token: token.currency,
      issuer: token.issuer_address,
      percent: 100,
    });
    expect(nothing.json()).toMatchObject({ message: REWARD_MESSAGES.nothingToClaim });
  });

  it('gives back only the share of a recipient whose payment fails, and pays the rest', async () => {
    await buy('5');
    const claimable = creatorShareDrops - (await claimedDrops());
    // The outside recipient turns on RequireDest after the split was saved: its payment fails on
    // the ledger (tecDST_TAG_NEEDED); the other two are paid.
    await submitOk(client, outside, {
      TransactionType: 'AccountSet',
      Account: outside.classicAddress,
      SetFlag: AccountSetAsfFlags.asfRequireDest,
    });
    const res = await post('/api/claim-rewards', creator, {
      token: token.currency,
      issuer: token.issuer_address,
      percent: 100,
    });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { message: string; result: string; payouts: RewardPayoutView[] };
    expect(body).toMatchObject({ message: REWARD_MESSAGES.claimFailed, result: 'tecDST_TAG_NEEDED' });
    const parts = [5000n, 3333n, 1667n].map((bps) => (claimable * bps) / 10_000n);
    parts[0]! += claimable - parts.reduce((a, b) => a + b, 0n);
    expect(body.payouts.map((p) => p.status)).toEqual(['paid', 'failed', 'paid']);
    // What went back: exactly the failed share, claimable again.
    expect((await claimedDrops()) - (creatorShareDrops - claimable)).toBe(parts[0]! + parts[2]!);
    const rows = await t.database.db.select().from(rewardPayouts).where(eq(rewardPayouts.tokenId, tokenId));
    expect(rows.filter((p) => p.status === 'failed')).toHaveLength(1);
  });

  it("counts the creator's self-custody wallet as their own: accepted before it is on the ledger, paid its share", async () => {
    // A browser wallet of the creator (the server holds no key for it, but can pay to it), not yet
    // an account on the ledger: accepted as one of the creator's wallets, not as an unknown account.
    const browser = Wallet.generate();
    const added = await addSelfCustody(t.app, creator, browser);
    expect(added.kind).toBe('browser');
    const split = [
      { address: browser.classicAddress, bps: 5000 },
      { address: creatorWallet.address, bps: 5000 },
    ];
    const saved = await setSplit(creator, split);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((saved.json() as RewardSplitView).recipients).toEqual(split);

    // Once activated (20 XRP from an outside account), a claim pays it its half.
    await submitOk(client, outside, {
      TransactionType: 'Payment',
      Account: outside.classicAddress,
      Destination: browser.classicAddress,
      Amount: '20000000',
    });
    await buy('4');
    const claimable = creatorShareDrops - (await claimedDrops());
    const before = await Promise.all([xrpOf(browser.classicAddress), xrpOf(creatorWallet.address)]);
    const res = await post('/api/claim-rewards', creator, {
      token: token.currency,
      issuer: token.issuer_address,
      percent: 100,
    });
    expect(res.statusCode, res.body).toBe(200);
    // floor(claimable × 5,000 / 10,000) each; the odd drop, if any, to the first (the browser wallet).
    const half = (claimable * 5000n) / 10_000n;
    const parts = [claimable - half, half];
    expect((res.json() as ClaimRewardsResult).payouts?.map((p) => [p.address, p.amount, p.status])).toEqual([
      [browser.classicAddress, xrp6(parts[0]!), 'paid'],
      [creatorWallet.address, xrp6(parts[1]!), 'paid'],
    ]);
    const after = await Promise.all([xrpOf(browser.classicAddress), xrpOf(creatorWallet.address)]);
    expect(after[0]! - before[0]!).toBe(parts[0]);
    expect(after[1]! - before[1]!).toBe(parts[1]);
  });
});

async function claimedDrops(): Promise<bigint> {
  const totals = (await get('/api/rewards/claim-totals', creator)).json() as Array<{
    token_id: number;
    total_claimed: string;
  }>;
  const v = totals.find((x) => x.token_id === tokenId)!.total_claimed;
  const [whole, frac = ''] = v.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt((frac + '000000').slice(0, 6));
}

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfferCreateFlags, Wallet } from 'xrpl';
import {
  DELEGATION_MESSAGES,
  Decimal,
  ledgerResultMessage,
  type DeployResult,
  type LimitOrderResult,
  type OrderView,
  type SwapBatchResult,
  type WalletDelegation,
  type WalletSummary,
} from '@ledgerpad/shared';
import { wallets } from '../../src/platform/custody-schema';
import { openWallet, platformWallet } from '../../src/platform/custody';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { tradingTrades } from '../../src/modules/trading/schema';
import { DELEGATE_ROLE } from '../../src/modules/wallets/delegation';
import type { SignedIn } from '../helpers/test-app';
import { until } from '../helpers/wait';
import { seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { addSelfCustody, call as callApp, intentOf, signIntent } from './helpers';

// Delegated trading of a browser wallet on the embedded ledger (docs/self-custody.md "Delegated
// trading"): a real xrpl.js Wallet signs the DelegateSet the server prepared; the ledger's Delegate
// entry then lets the user's Ledgerpad delegate account send OfferCreate, OfferCancel and TrustSet
// for it — and nothing else.

let t: WalletTestApp;
let world: TradingWorld;
let owner: SignedIn;
let alice: SignedIn;
const browser = Wallet.generate();
let walletId: number;
let token: DeployResult;
let feeWallet: string;

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on', FAUCET_XRP: '1000' });
  await t.app.platform.accounts.bootstrapped();
  world = seed(t);
  owner = await t.signIn('creator');
  alice = await t.signIn('alice');
  const ownerWallet = await world.wallet(owner, 1);
  token = await world.deploy(owner, ownerWallet.id, { name: 'Delegate Coin', ticker: 'DLG' });
  walletId = (await addSelfCustody(t.app, alice, browser)).id;
  expect((await callApp(t.app, alice, 'POST', `/api/wallets/${walletId}/fund`)).statusCode).toBe(200);
  feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const call = (...args: Parameters<typeof callApp> extends [unknown, ...infer R] ? R : never) =>
  callApp(t.app, ...args);

/** The wallet's Delegate entries, straight from the ledger. */
async function delegateEntries(address: string) {
  const res = await world.client.request({
    command: 'account_objects',
    account: address,
    type: 'delegate',
    ledger_index: 'validated',
  } as never);
  return (res as { result: { account_objects: Array<Record<string, unknown>> } }).result.account_objects;
}

async function delegateAddress(): Promise<string> {
  const [row] = await t.database.db
    .select()
    .from(wallets)
    .where(and(eq(wallets.userId, alice.user.id), eq(wallets.role, DELEGATE_ROLE)));
  return row!.address;
}

describe('delegation of a browser wallet', () => {
  it('grants the delegate exactly OfferCreate, OfferCancel and TrustSet, read back from the ledger', async () => {
    const intent = intentOf(await call(alice, 'POST', `/api/wallets/${walletId}/delegation`));
    expect(intent.txs).toHaveLength(1);
    const delegate = await delegateAddress();
    expect(intent.txs[0]).toMatchObject({
      TransactionType: 'DelegateSet',
      Account: browser.classicAddress,
      Authorize: delegate,
      Permissions: [
        { Permission: { PermissionValue: 'OfferCreate' } },
        { Permission: { PermissionValue: 'OfferCancel' } },
        { Permission: { PermissionValue: 'TrustSet' } },
      ],
    });
    // The delegate account exists, hidden from the wallet list, funded by the platform.
    const list = (await call(alice, 'GET', '/api/wallets')).json() as { wallets: WalletSummary[] };
    expect(list.wallets.map((w) => w.wallet_address)).toEqual([browser.classicAddress]);
    expect(await world.xrp(delegate)).toBeGreaterThan(0n);

    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      delegate,
      enabled: true,
      permissions: ['OfferCreate', 'OfferCancel', 'TrustSet'],
      fees_owed: { xrp: '0', rlusd: '0' },
    });
    const entries = await delegateEntries(browser.classicAddress);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      LedgerEntryType: 'Delegate',
      Account: browser.classicAddress,
      Authorize: delegate,
      Permissions: [
        { Permission: { PermissionValue: 'OfferCreate' } },
        { Permission: { PermissionValue: 'OfferCancel' } },
        { Permission: { PermissionValue: 'TrustSet' } },
      ],
    });
    // The wallet answer carries it.
    const after = (await call(alice, 'GET', '/api/wallets')).json() as { wallets: WalletSummary[] };
    expect(after.wallets[0]!.delegation).toMatchObject({ delegate, enabled: true });
    // Asked again: already on.
    const again = await call(alice, 'POST', `/api/wallets/${walletId}/delegation`);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(DELEGATION_MESSAGES.alreadyEnabled);
  });

  it('refuses delegation for a custodial wallet and for someone else’s wallet', async () => {
    const custodial = await world.wallet(alice, 0);
    const res = await call(alice, 'POST', `/api/wallets/${custodial.id}/delegation`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(DELEGATION_MESSAGES.custodial);
    const other = await call(owner, 'POST', `/api/wallets/${walletId}/delegation`);
    expect(other.statusCode).toBe(404);
  });
});

/** The delegate account's key, as the server holds it (sealed; opened here to play an attacker). */
async function delegateKey(): Promise<Wallet> {
  const [row] = await t.database.db
    .select()
    .from(wallets)
    .where(and(eq(wallets.userId, alice.user.id), eq(wallets.role, DELEGATE_ROLE)));
  return openWallet(t.app.platform.keyring, row!);
}

/** A transaction of the browser wallet signed by its delegate, sent straight to the ledger. */
async function sendAsDelegate(
  tx: Record<string, unknown>,
): Promise<{ engine: string; hash: string; lastLedger: number }> {
  const delegate = await delegateKey();
  const info = await world.client.request({
    command: 'account_info',
    account: browser.classicAddress,
    ledger_index: 'current',
  });
  const validated = await world.client.getLedgerIndex();
  const signed = delegate.sign({
    ...tx,
    Account: browser.classicAddress,
    Delegate: delegate.classicAddress,
    Sequence: info.result.account_data.Sequence,
    Fee: '10',
    LastLedgerSequence: validated + 3,
  } as never);
  const res = await world.client.request({ command: 'submit', tx_blob: signed.tx_blob });
  return { engine: res.result.engine_result, hash: signed.hash, lastLedger: validated + 3 };
}

const limit = (payload: Record<string, unknown>) =>
  call(alice, 'POST', '/api/limit-order', {
    walletAddress: browser.classicAddress,
    issuer: token.issuer_address,
    token: token.currency,
    ...payload,
  });

/** The validated transaction `hash` as the ledger holds it. */
async function txOf(hash: string) {
  const res = await world.client.request({ command: 'tx', transaction: hash });
  return res.result as unknown as { tx_json?: Record<string, unknown>; meta: unknown } & Record<
    string,
    unknown
  >;
}

describe('limit orders of a browser wallet through its delegate', () => {
  it('places a resting buy (its trust line by a delegated TrustSet) and cancels it: the delegate signs and pays every fee', async () => {
    const delegate = await delegateAddress();
    const walletBefore = await world.xrp(browser.classicAddress);
    const delegateBefore = await world.xrp(delegate);
    // 5 XRP at a price far below the pool's: it rests on the book.
    const res = await limit({ type: 'BUY', amount: '5', price: '0.000001' });
    expect(res.statusCode, res.body).toBe(200);
    const placed = res.json() as LimitOrderResult;
    expect(placed.order).toMatchObject({ status: 'open', order_type: 'BUY', amount: '5' });
    const offer = await txOf(placed.order.hash!);
    const json = (offer.tx_json ?? offer) as Record<string, unknown>;
    expect(json).toMatchObject({
      TransactionType: 'OfferCreate',
      Account: browser.classicAddress,
      Delegate: delegate,
      SigningPubKey: (await delegateKey()).publicKey,
    });
    // The wallet's trust line, opened by its delegate.
    const lines = await world.client.request({
      command: 'account_lines',
      account: browser.classicAddress,
      peer: token.issuer_address,
      ledger_index: 'validated',
    });
    expect(lines.result.lines.map((l) => l.currency)).toEqual([token.currency]);
    // Not a drop of the wallet's XRP moved (the offer and the line only lock reserves); the
    // delegate paid the two network fees of 10 drops.
    expect(await world.xrp(browser.classicAddress)).toBe(walletBefore);
    expect(await world.xrp(delegate)).toBe(delegateBefore - 20n);

    const cancel = await call(alice, 'DELETE', `/api/cancel-order/${placed.order.id}`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((cancel.json() as OrderView).status).toBe('canceled');
    const offers = await world.client.request({
      command: 'account_offers',
      account: browser.classicAddress,
      ledger_index: 'validated',
    });
    expect(offers.result.offers ?? []).toEqual([]);
    expect(await world.xrp(browser.classicAddress)).toBe(walletBefore);
    expect(await world.xrp(delegate)).toBe(delegateBefore - 30n);
  });

  it('a buy that fills at once owes its fee: shown, blocking further delegated orders until the wallet pays it', async () => {
    const before = await world.xrp(browser.classicAddress);
    // 2,000 tokens for up to 2 XRP (0.001 XRP a token): about ten times the pool's price, so it
    // fills against the pool at once, spending what the pool asks.
    const res = await limit({ type: 'BUY', amount: '2', price: '0.001' });
    expect(res.statusCode, res.body).toBe(200);
    const placed = res.json() as LimitOrderResult;
    expect(placed.order.status).toBe('filled');
    const [trade] = await t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, placed.order.hash!));
    // The fee is 0.75% of the XRP the fill spent, rounded down to the drop; owed, no job made.
    const spentDrops = before - (await world.xrp(browser.classicAddress));
    expect(new Decimal(trade!.spent).mul(1e6).toFixed(0)).toBe(spentDrops.toString());
    const feeDrops = (spentDrops * 75n) / 10_000n;
    expect(trade!.feeStatus).toBe('owed');
    expect(new Decimal(trade!.fee).mul(1e6).toFixed(0)).toBe(feeDrops.toString());
    expect(await world.feeJob(placed.order.hash!)).toBeUndefined();
    const state = (await call(alice, 'GET', `/api/wallets/${walletId}/delegation`)).json() as {
      delegation: WalletDelegation;
    };
    expect(state.delegation.fees_owed).toEqual({ xrp: trade!.fee, rlusd: '0' });

    // Another delegated order waits for the fee.
    const refused = await limit({ type: 'BUY', amount: '1', price: '0.000001' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(DELEGATION_MESSAGES.feesOwed(`${trade!.fee} XRP`));

    // The wallet signs the fee's payment to the fee wallet; the trade's fee turns paid.
    const feeBefore = await world.xrp(feeWallet);
    const intent = intentOf(await call(alice, 'POST', `/api/wallets/${walletId}/owed-fees`));
    expect(intent.txs).toHaveLength(1);
    expect(intent.txs[0]).toMatchObject({
      TransactionType: 'Payment',
      Destination: feeWallet,
      Amount: feeDrops.toString(),
    });
    const paid = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'success', owed: { xrp: '0', rlusd: '0' } });
    expect(await world.xrp(feeWallet)).toBe(feeBefore + feeDrops);
    const [after] = await t.database.db.select().from(tradingTrades).where(eq(tradingTrades.id, trade!.id));
    expect(after!.feeStatus).toBe('paid');
    const none = await call(alice, 'POST', `/api/wallets/${walletId}/owed-fees`);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(DELEGATION_MESSAGES.noFeesOwed);
  });

  it('the delegate cannot move the wallet’s funds: a delegated Payment is refused by the ledger', async () => {
    const delegate = await delegateAddress();
    const walletBefore = await world.xrp(browser.classicAddress);
    const delegateBefore = await world.xrp(delegate);
    const sent = await sendAsDelegate({
      TransactionType: 'Payment',
      Destination: delegate,
      Amount: '1000000',
    });
    expect(sent.engine).toBe('terNO_DELEGATE_PERMISSION');
    // Held until its LastLedgerSequence passes, then gone: in no ledger, nothing moved, no fee.
    await until(
      'its LastLedgerSequence passed',
      async () => (await world.client.getLedgerIndex()) > sent.lastLedger,
    );
    const lookup = await world.client
      .request({ command: 'tx', transaction: sent.hash })
      .catch((e: unknown) => e);
    expect(lookup).toBeInstanceOf(Error);
    expect(await world.xrp(browser.classicAddress)).toBe(walletBefore);
    expect(await world.xrp(delegate)).toBe(delegateBefore);
  });

  it('a resting delegated sell crossed later by someone else’s buy: the order indexer records the fill, its fee owed', async () => {
    // The pool's price now, in XRP per token; the sell rests at half again above it.
    const amm = await world.client.request({
      command: 'amm_info',
      asset: { currency: 'XRP' },
      asset2: { currency: token.currency, issuer: token.issuer_address },
      ledger_index: 'validated',
    });
    const pool = amm.result.amm;
    const spot = new Decimal(String(pool.amount)).div(1e6).div((pool.amount2 as { value: string }).value);
    const price = spot.mul(1.5).toSignificantDigits(6).toFixed();
    const res = await limit({ type: 'SELL', amount: '100', price });
    expect(res.statusCode, res.body).toBe(200);
    const placed = res.json() as LimitOrderResult;
    expect(placed.order.status).toBe('open');
    // A custodial buyer of 40 XRP moves the pool's price past it (×1.96): the payment takes the offer.
    const buyer = await world.wallet(owner, 1);
    await world.swap(owner, {
      walletAddress: buyer.address,
      issuer: token.issuer_address,
      token: token.currency,
      amount: '40',
      type: 'BUY',
      slippage: '50',
    });
    await t.settle({ timeoutMs: 30_000 });
    const fill = await until('the fill recorded', async () => {
      const rows = await t.database.db
        .select()
        .from(tradingTrades)
        .where(eq(tradingTrades.walletAddress, browser.classicAddress));
      return rows.find((r) => r.hash.startsWith('fill:') && r.side === 'SELL');
    });
    // 0.75% of the XRP the 100 tokens brought, owed (no job: nothing can sign it but the wallet).
    const expected = new Decimal(fill.received).mul('0.0075').toDecimalPlaces(6, Decimal.ROUND_DOWN);
    expect(fill.feeStatus).toBe('owed');
    expect(new Decimal(fill.fee).toFixed()).toBe(expected.toFixed());
    const state = (await call(alice, 'GET', `/api/wallets/${walletId}/delegation`)).json() as {
      delegation: WalletDelegation;
    };
    expect(state.delegation.fees_owed.xrp).toBe(fill.fee);
    // Paid for what follows.
    const intent = intentOf(await call(alice, 'POST', `/api/wallets/${walletId}/owed-fees`));
    const paid = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(paid.statusCode, paid.body).toBe(200);
  });
});

describe('a multi-wallet buy mixing kinds (POST /api/swap/batch)', () => {
  it('custodial signs on the server, the delegated browser wallet through its delegate, the other answers its intent', async () => {
    const custodial = await world.wallet(alice, 1);
    const other = Wallet.generate();
    const otherId = (await addSelfCustody(t.app, alice, other, { name: 'No delegation' })).id;
    expect((await call(alice, 'POST', `/api/wallets/${otherId}/fund`)).statusCode).toBe(200);
    const delegate = await delegateAddress();
    const before = await world.xrp(browser.classicAddress);
    const delegateBefore = await world.xrp(delegate);
    const res = await call(alice, 'POST', '/api/swap/batch', {
      issuer: token.issuer_address,
      token: token.currency,
      type: 'BUY',
      slippage: '5',
      orders: [
        { walletAddress: custodial.address, amount: '1' },
        { walletAddress: browser.classicAddress, amount: '1' },
        { walletAddress: other.classicAddress, amount: '1' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json() as SwapBatchResult;
    expect(batch.results.map((r) => r.status)).toEqual(['success', 'success', 'sign']);
    expect(batch).toMatchObject({ status: 'success', succeeded: 2, failed: 0, toSign: 1 });

    // The delegated one: an immediate-or-cancel OfferCreate of the wallet, signed by its delegate,
    // spending exactly 1 XRP of the wallet (the delegate paid the 10-drop network fee), its
    // 0.75% fee (7,500 drops) owed.
    const delegated = batch.results[1]!.swap!;
    const json = ((await txOf(delegated.hash)).tx_json ?? (await txOf(delegated.hash))) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({
      TransactionType: 'OfferCreate',
      Account: browser.classicAddress,
      Delegate: delegate,
      TakerGets: '1000000',
      Flags: OfferCreateFlags.tfImmediateOrCancel | OfferCreateFlags.tfSell,
    });
    expect(delegated).toMatchObject({ status: 'success', spent: '1', fee: '0.0075' });
    expect(await world.xrp(browser.classicAddress)).toBe(before - 1_000_000n);
    expect(await world.xrp(delegate)).toBe(delegateBefore - 10n);
    const [trade] = await t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, delegated.hash));
    expect(trade).toMatchObject({ feeStatus: 'owed', fee: '0.0075' });
    expect(batch.results[0]!.swap).toMatchObject({ status: 'success', spent: '1' });

    // The wallet without delegation signs its swap (trust line, trade, fee) as POST /api/swap's.
    const intent = batch.results[2]!.intent!;
    expect(intent.txs.map((tx) => tx.TransactionType)).toEqual(['TrustSet', 'Payment', 'Payment']);
    const signed = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(other, intent),
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ status: 'success', spent: '1', fee: '0.0075' });
  });
});

describe('revoking', () => {
  it('revokes in one click: an empty DelegateSet deletes the ledger entry', async () => {
    const intent = intentOf(await call(alice, 'DELETE', `/api/wallets/${walletId}/delegation`));
    expect(intent.txs[0]).toMatchObject({ TransactionType: 'DelegateSet', Permissions: [] });
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ enabled: false, permissions: [] });
    expect(await delegateEntries(browser.classicAddress)).toEqual([]);
    const again = await call(alice, 'DELETE', `/api/wallets/${walletId}/delegation`);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(DELEGATION_MESSAGES.notEnabled);
    // The delegate's OfferCreate is refused by the ledger now, with its sentence.
    const sent = await sendAsDelegate({
      TransactionType: 'OfferCreate',
      TakerGets: '1000000',
      TakerPays: { currency: token.currency, issuer: token.issuer_address, value: '1' },
    });
    expect(sent.engine).toBe('terNO_DELEGATE_PERMISSION');
    expect(ledgerResultMessage(sent.engine)).toBe(
      'This wallet has not granted Ledgerpad this permission (or revoked it): nothing was sent.',
    );
    // And a limit order is an intent the wallet signs again.
    const order = intentOf(await limit({ type: 'BUY', amount: '1', price: '0.000001' }));
    expect(order.txs.map((tx) => tx.TransactionType)).toEqual(['OfferCreate']);
    expect(order.txs[0]!.Delegate).toBeUndefined();
    const signed = await call(alice, 'POST', `/api/intents/${order.id}/submit`, {
      blobs: signIntent(browser, order),
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const placed = signed.json() as LimitOrderResult;
    expect(placed.order).toMatchObject({ status: 'open', order_type: 'BUY' });
    // Its cancel too.
    const cancel = intentOf(await call(alice, 'DELETE', `/api/cancel-order/${placed.order.id}`));
    expect(cancel.txs[0]).toMatchObject({
      TransactionType: 'OfferCancel',
      OfferSequence: Number(order.txs[0]!.Sequence),
    });
    const done = await call(alice, 'POST', `/api/intents/${cancel.id}/submit`, {
      blobs: signIntent(browser, cancel),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((done.json() as OrderView).status).toBe('canceled');
  });
});

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { DELEGATION_MESSAGES, type WalletDelegation, type WalletSummary } from '@ledgerpad/shared';
import { wallets } from '../../src/platform/custody-schema';
import { DELEGATE_ROLE } from '../../src/modules/wallets/delegation';
import type { SignedIn } from '../helpers/test-app';
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

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on', FAUCET_XRP: '1000' });
  await t.app.platform.accounts.bootstrapped();
  world = seed(t);
  owner = await t.signIn('creator');
  alice = await t.signIn('alice');
  walletId = (await addSelfCustody(t.app, alice, browser)).id;
  expect((await callApp(t.app, alice, 'POST', `/api/wallets/${walletId}/fund`)).statusCode).toBe(200);
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

/** Turns delegation on: the DelegateSet prepared, signed by the browser wallet, submitted. */
async function enable(): Promise<WalletDelegation> {
  const intent = intentOf(await call(alice, 'POST', `/api/wallets/${walletId}/delegation`));
  const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
    blobs: signIntent(browser, intent),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as WalletDelegation;
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
    // On again for what follows, with the same delegate account.
    expect(await enable()).toMatchObject({ enabled: true, delegate: await delegateAddress() });
  });
});

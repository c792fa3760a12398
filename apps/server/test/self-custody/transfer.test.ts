import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertStringToHex, Wallet, AccountSetAsfFlags, PaymentFlags } from 'xrpl';
import {
  INTENT_LEDGER_WINDOW,
  SELF_CUSTODY_MESSAGES,
  WALLET_MESSAGES,
  type SigningIntent,
  type TransferResponse,
  type WalletBalance,
  type WalletSummary,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { wallets } from '../../src/platform/custody-schema';
import { signingIntents } from '../../src/platform/intents/schema';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { tokenBalance, xrpBalance } from '../helpers/ledger-reads';
import { submitOk } from '../helpers/submit-and-wait';
import type { SignedIn } from '../helpers/test-app';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { addSelfCustody, call as callApp, fieldsOf, intentOf, signIntent } from './helpers';

// Self-custody wallets end to end on the real ledger: ownership proofs, and transfers prepared as
// intents, signed by a real xrpl.js Wallet in the test (the "browser"), checked field by field,
// submitted through the one submission service and reconciled like a custodial transfer.

let t: WalletTestApp;
let alice: SignedIn;
let mallory: SignedIn;
const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);

beforeAll(async () => {
  t = await createWalletTestApp({ FAUCET_XRP: '1000' });
  alice = await t.signIn('alice');
  mallory = await t.signIn('mallory');
});
afterAll(async () => {
  await t?.close();
});

const call = (...args: Parameters<typeof callApp> extends [unknown, ...infer R] ? R : never) =>
  callApp(t.app, ...args);
const client = () => t.connection.client;

async function fund(address: string, xrp: number): Promise<void> {
  await submitOk(client(), genesis, {
    TransactionType: 'Payment',
    Account: genesis.classicAddress,
    Destination: address,
    Amount: String(xrp * 1_000_000),
  });
}

async function challenge(who: SignedIn, address: string, kind = 'browser', app?: string) {
  const res = await call(who, 'POST', '/api/wallets/challenge', { address, kind, ...(app ? { app } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { challengeId: string; tx: Record<string, unknown>; message: string };
}

const submissionsOf = (intent: SigningIntent) =>
  t.database.db
    .select()
    .from(ledgerSubmissions)
    .where(like(ledgerSubmissions.intentKey, `${intentKeyOf(intent)}%`));

const keys = new Map<string, string>();
const intentKeyOf = (intent: SigningIntent) => keys.get(intent.id)!;
async function remember(intent: SigningIntent): Promise<SigningIntent> {
  const [row] = await t.database.db.select().from(signingIntents).where(eq(signingIntents.id, intent.id));
  keys.set(intent.id, row!.intentKey);
  return intent;
}

describe('adding a self-custody wallet: proof of ownership', () => {
  it('adds a browser wallet that is not on the ledger yet (its master key signs), with no secret stored', async () => {
    const browser = Wallet.generate();
    const added = await addSelfCustody(t.app, alice, browser, { name: 'Browser one' });
    expect(added).toMatchObject({
      wallet_address: browser.classicAddress,
      wallet_name: 'Browser one',
      kind: 'browser',
      wallet_app: null,
    });
    const [row] = await t.database.db.select().from(wallets).where(eq(wallets.id, added.id));
    expect(row).toMatchObject({
      kind: 'browser',
      publicKey: browser.publicKey,
      secretCiphertext: null,
      dataKeyWrapped: null,
      keyId: null,
    });
    const list = (await call(alice, 'GET', '/api/wallets')).json().wallets as WalletSummary[];
    expect(list.find((w) => w.id === added.id)).toMatchObject({ kind: 'browser', wallet_app: null });
  });

  it('records the wallet app of an external wallet and labels every answer with it', async () => {
    const app = Wallet.generate();
    const added = await addSelfCustody(t.app, alice, app, { kind: 'external', app: 'gemwallet' });
    expect(added).toMatchObject({ kind: 'external', wallet_app: 'gemwallet' });
    const balances = (
      await call(alice, 'POST', '/api/wallets/balances', { wallets: [added.id] })
    ).json() as WalletBalance[];
    expect(balances[0]).toMatchObject({ kind: 'external', wallet_app: 'gemwallet', status: 'Not Activated' });
  });

  it('hands out a challenge the ledger can never apply, naming the address', async () => {
    const w = Wallet.generate();
    const ch = await challenge(alice, w.classicAddress);
    expect(ch.tx).toMatchObject({
      TransactionType: 'AccountSet',
      Account: w.classicAddress,
      Sequence: 0,
      Fee: '0',
    });
    expect(ch.message).toContain(w.classicAddress);
    // Fund the account, then submit the signed proof to the ledger ourselves: it is refused.
    await fund(w.classicAddress, 20);
    const blob = w.sign(ch.tx as never).tx_blob;
    const r = await client().request({ command: 'submit', tx_blob: blob });
    expect(r.result.engine_result).not.toMatch(/^tes/);
  });

  it('uses a challenge once, for its own user only, and refuses a changed or foreign-key proof', async () => {
    const w = Wallet.generate();
    // Another user cannot answer alice's challenge.
    const a = await challenge(alice, w.classicAddress);
    const stolen = await call(mallory, 'POST', '/api/wallets/self-custody', {
      challengeId: a.challengeId,
      signedTx: w.sign(a.tx as never).tx_blob,
    });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().message).toBe(SELF_CUSTODY_MESSAGES.challengeExpired);

    // A proof signed by another key is refused (and the challenge is spent by the try).
    const b = await challenge(alice, w.classicAddress);
    const other = Wallet.generate();
    const foreign = await call(alice, 'POST', '/api/wallets/self-custody', {
      challengeId: b.challengeId,
      signedTx: other.sign({ ...b.tx, SigningPubKey: undefined } as never).tx_blob,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(SELF_CUSTODY_MESSAGES.notOwner);
    const again = await call(alice, 'POST', '/api/wallets/self-custody', {
      challengeId: b.challengeId,
      signedTx: w.sign(b.tx as never).tx_blob,
    });
    expect(again.json().message).toBe(SELF_CUSTODY_MESSAGES.challengeExpired);

    // A proof of another memo (an old challenge's text) is not this challenge.
    const c = await challenge(alice, w.classicAddress);
    const memo = { Memo: { MemoData: convertStringToHex('something else') } };
    const changed = await call(alice, 'POST', '/api/wallets/self-custody', {
      challengeId: c.challengeId,
      signedTx: w.sign({ ...c.tx, Memos: [memo] } as never).tx_blob,
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().message).toBe(
      'The signed transaction does not match what was prepared: Memos differs.',
    );

    // An unsigned copy proves nothing.
    const d = await challenge(alice, w.classicAddress);
    const unsigned = await call(alice, 'POST', '/api/wallets/self-custody', {
      challengeId: d.challengeId,
      signedTx: (await import('xrpl')).encode({ ...d.tx, SigningPubKey: w.publicKey } as never),
    });
    expect(unsigned.json().message).toBe(SELF_CUSTODY_MESSAGES.unsigned);
  });

  it('accepts the current regular key of a funded account, and refuses a disabled master key', async () => {
    const account = Wallet.generate();
    const regular = Wallet.generate();
    await fund(account.classicAddress, 50);
    await submitOk(client(), account, {
      TransactionType: 'SetRegularKey',
      Account: account.classicAddress,
      RegularKey: regular.classicAddress,
    });
    await submitOk(client(), account, {
      TransactionType: 'AccountSet',
      Account: account.classicAddress,
      SetFlag: AccountSetAsfFlags.asfDisableMaster,
    });
    // The master key is disabled now: its proof is refused with the reason.
    const ch = await challenge(alice, account.classicAddress);
    const master = await call(alice, 'POST', '/api/wallets/self-custody', {
      challengeId: ch.challengeId,
      signedTx: account.sign(ch.tx as never).tx_blob,
    });
    expect(master.json().message).toBe(SELF_CUSTODY_MESSAGES.masterDisabled);
    // The regular key signs for it (xrpl.js: a wallet for the account with the regular key's keys).
    const viaRegular = new Wallet(regular.publicKey, regular.privateKey, {
      masterAddress: account.classicAddress,
    });
    const added = await addSelfCustody(t.app, alice, account, { signer: viaRegular });
    expect(added.kind).toBe('browser');
  });

  it('refuses an address the user already holds (custodial or not)', async () => {
    const created = (await call(alice, 'POST', '/api/wallets', {})).json() as {
      wallet_address: string;
      wallet_seed: string;
    };
    const w = Wallet.fromSeed(created.wallet_seed);
    const ch = await challenge(alice, w.classicAddress);
    const res = await call(alice, 'POST', '/api/wallets/self-custody', {
      challengeId: ch.challengeId,
      signedTx: w.sign(ch.tx as never).tx_blob,
    });
    expect(res.json().message).toBe(SELF_CUSTODY_MESSAGES.custodialExists);
  });
});

describe('transfers from a browser wallet: the server prepares, the browser signs, the server checks', () => {
  const browser = Wallet.generate();
  const recipient = Wallet.generate();
  let wallet: WalletSummary;

  beforeAll(async () => {
    wallet = await addSelfCustody(t.app, alice, browser);
    // The faucet pays a self-custody wallet like any other: only its address is needed.
    const funded = await call(alice, 'POST', `/api/wallets/${wallet.id}/fund`);
    expect(funded.statusCode, funded.body).toBe(200);
    await fund(recipient.classicAddress, 20);
  });

  const prepare = async (amount: string, key?: string) =>
    remember(
      intentOf(
        await call(
          alice,
          'POST',
          '/api/wallets/transfer',
          { walletId: wallet.id, recipient: recipient.classicAddress, amount, memo: 'hi' },
          key ? { 'idempotency-key': key } : {},
        ),
      ),
    );

  it('prepares the exact payment (ledger sequence, base fee, LastLedgerSequence) and records it first', async () => {
    const info = await client().request({
      command: 'account_info',
      account: browser.classicAddress,
      ledger_index: 'current',
    });
    const intent = await prepare('12.5');
    expect(intent).toMatchObject({
      purpose: 'transfer',
      walletId: wallet.id,
      account: browser.classicAddress,
      mode: 'single',
    });
    const [tx] = intent.txs;
    expect(tx).toMatchObject({
      TransactionType: 'Payment',
      Account: browser.classicAddress,
      Destination: recipient.classicAddress,
      Amount: '12500000',
      Sequence: info.result.account_data.Sequence,
      Fee: '10',
    });
    const validated = (await client().request({ command: 'ledger', ledger_index: 'validated' })).result
      .ledger_index;
    // LastLedgerSequence: the validated ledger when it was prepared + the window (a ledger may have closed since).
    expect(Number(tx!.LastLedgerSequence)).toBeGreaterThan(Number(validated) + INTENT_LEDGER_WINDOW - 5);
    expect(Number(tx!.LastLedgerSequence)).toBeLessThanOrEqual(Number(validated) + INTENT_LEDGER_WINDOW);
    // Recorded before it was returned, exactly as returned; nothing submitted yet.
    const [row] = await t.database.db.select().from(signingIntents).where(eq(signingIntents.id, intent.id));
    expect(row!.txs).toEqual(intent.txs);
    expect(row!.status).toBe('prepared');
    expect(await submissionsOf(intent)).toHaveLength(0);
  });

  it('submits the blob signed in the browser and answers as the custodial route does', async () => {
    const before = await xrpBalance(client(), recipient.classicAddress);
    const senderBefore = await xrpBalance(client(), browser.classicAddress);
    const intent = await prepare('7');
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as TransferResponse;
    expect(body).toMatchObject({ success: true, delivered_amount: '7' });
    // Reconciled like any other: final in a validated ledger, recorded by hash with its result.
    const [sub] = await submissionsOf(intent);
    expect(sub).toMatchObject({
      status: 'success',
      result: 'tesSUCCESS',
      signer: 'wallet',
      hash: body.hash,
      purpose: 'transfer',
    });
    expect(await xrpBalance(client(), recipient.classicAddress)).toBe(before + 7_000_000n);
    // 7 XRP and the 10-drop fee the intent named.
    expect(await xrpBalance(client(), browser.classicAddress)).toBe(senderBefore - 7_000_010n);
    const status = (await call(alice, 'GET', `/api/intents/${intent.id}`)).json();
    expect(status).toMatchObject({ status: 'done', hashes: [body.hash] });
  });

  const tampered: Array<[string, (tx: Record<string, unknown>) => Record<string, unknown>]> = [
    ['Amount', (tx) => ({ ...tx, Amount: '9000000' })],
    ['Destination', (tx) => ({ ...tx, Destination: genesis.classicAddress })],
    ['Fee', (tx) => ({ ...tx, Fee: '12' })],
    ['Flags', (tx) => ({ ...tx, Flags: PaymentFlags.tfPartialPayment })],
    ['Sequence', (tx) => ({ ...tx, Sequence: Number(tx.Sequence) + 1 })],
    ['LastLedgerSequence', (tx) => ({ ...tx, LastLedgerSequence: Number(tx.LastLedgerSequence) + 100 })],
  ];
  it.each(tampered)(
    'refuses a blob whose %s was changed (re-signed with the right key) and submits nothing',
    async (field, change) => {
      const before = await xrpBalance(client(), browser.classicAddress, 'current');
      const intent = await prepare('1');
      const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
        blobs: signIntent(browser, intent, (tx) => change(tx)),
      });
      expect(res.statusCode).toBe(400);
      const message = res.json().message as string;
      // Flags absent from the prepared payment: the signed one added it.
      expect(message).toBe(
        field === 'Flags'
          ? 'The signed transaction does not match what was prepared: Flags was added.'
          : `The signed transaction does not match what was prepared: ${field} differs.`,
      );
      expect(await submissionsOf(intent)).toHaveLength(0);
      expect(await xrpBalance(client(), browser.classicAddress, 'current')).toBe(before);
      // The intent is still open: the blob exactly as prepared is accepted afterwards.
      const ok = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
        blobs: signIntent(browser, intent),
      });
      expect(ok.statusCode, ok.body).toBe(200);
    },
  );

  it('refuses a blob signed by a key that does not control the wallet, and foreign or malformed posts', async () => {
    const intent = await prepare('1');
    const thief = Wallet.generate();
    const forged = thief.sign({ ...intent.txs[0] } as never).tx_blob;
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs: [forged] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SELF_CUSTODY_MESSAGES.notOwner);
    // A signature over other bytes: the blob's signature does not verify.
    const good = fieldsOf(signIntent(browser, intent)[0]!);
    const sig = good.TxnSignature as string;
    const broken = (await import('xrpl')).encode({
      ...good,
      TxnSignature: `${sig.slice(0, -2)}${sig.endsWith('00') ? '01' : '00'}`,
    } as never);
    const bad = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs: [broken] });
    expect(bad.json().message).toBe(SELF_CUSTODY_MESSAGES.badSignature);
    // Another user's intent reads as missing; garbage is a 400.
    const foreign = await call(mallory, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(foreign.statusCode).toBe(404);
    const garbage = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs: ['zz'] });
    expect(garbage.statusCode).toBe(400);
    expect(await submissionsOf(intent)).toHaveLength(0);
    // Another user cannot prepare a transfer from alice's wallet either.
    const steal = await call(mallory, 'POST', '/api/wallets/transfer', {
      walletId: wallet.id,
      recipient: recipient.classicAddress,
      amount: '1',
    });
    expect(steal.statusCode).toBe(404);
    expect(steal.json().message).toBe(WALLET_MESSAGES.notFound);
  });

  it('submits a blob posted twice (one after the other, and at once) only once', async () => {
    const before = await xrpBalance(client(), recipient.classicAddress);
    const intent = await prepare('2');
    const blobs = signIntent(browser, intent);
    const [a, b] = await Promise.all([
      call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs }),
      call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs }),
    ]);
    const c = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs });
    for (const r of [a, b, c]) expect(r.statusCode, r.body).toBe(200);
    expect(new Set([a, b, c].map((r) => r.json().hash)).size).toBe(1);
    expect(await submissionsOf(intent)).toHaveLength(1);
    expect(await xrpBalance(client(), recipient.classicAddress)).toBe(before + 2_000_000n);
    // A different signed copy after the first is refused (here: another valid signature of other bytes).
    const other = signIntent(browser, intent, (tx) => ({ ...tx, Memos: undefined }));
    const d = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs: other });
    expect(d.json().message).toBe(SELF_CUSTODY_MESSAGES.alreadySigned);
  });

  it('answers a retried prepare (same Idempotency-Key) with the same intent', async () => {
    const first = await prepare('3', 'retry-key-0001');
    const again = await prepare('3', 'retry-key-0001');
    expect(again.id).toBe(first.id);
  });

  it('refuses a blob that arrives after the intent expired, and sends nothing', async () => {
    const intent = await prepare('4');
    const blobs = signIntent(browser, intent);
    // Close ledgers until the validated ledger reaches the intent's LastLedgerSequence.
    for (;;) {
      const v = (await client().request({ command: 'ledger', ledger_index: 'validated' })).result
        .ledger_index;
      if (Number(v) >= intent.lastLedgerSequence) break;
      await client().request({ command: 'ledger_accept' } as never);
    }
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SELF_CUSTODY_MESSAGES.expired);
    expect(await submissionsOf(intent)).toHaveLength(0);
    expect((await call(alice, 'GET', `/api/intents/${intent.id}`)).json().status).toBe('expired');
  });

  it('refuses a blob whose sequence the wallet used elsewhere since', async () => {
    const intent = await prepare('1');
    // The user spends the sequence in another app before signing ours.
    await submitOk(client(), browser, {
      TransactionType: 'AccountSet',
      Account: browser.classicAddress,
    });
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.json().message).toBe(SELF_CUSTODY_MESSAGES.sequenceMoved);
    expect(await submissionsOf(intent)).toHaveLength(0);
  });

  it('transfers a token the same way', async () => {
    const issuer = Wallet.generate();
    await fund(issuer.classicAddress, 50);
    // DefaultRipple, as Ledgerpad's issuers: holder-to-holder payments ripple through the issuer.
    await submitOk(client(), issuer, {
      TransactionType: 'AccountSet',
      Account: issuer.classicAddress,
      SetFlag: AccountSetAsfFlags.asfDefaultRipple,
    });
    await submitOk(client(), browser, {
      TransactionType: 'TrustSet',
      Account: browser.classicAddress,
      LimitAmount: { currency: 'TST', issuer: issuer.classicAddress, value: '1000000' },
    });
    await submitOk(client(), recipient, {
      TransactionType: 'TrustSet',
      Account: recipient.classicAddress,
      LimitAmount: { currency: 'TST', issuer: issuer.classicAddress, value: '1000000' },
    });
    await submitOk(client(), issuer, {
      TransactionType: 'Payment',
      Account: issuer.classicAddress,
      Destination: browser.classicAddress,
      Amount: { currency: 'TST', issuer: issuer.classicAddress, value: '100' },
    });
    const intent = intentOf(
      await call(alice, 'POST', '/api/wallets/transfer', {
        walletId: wallet.id,
        recipient: recipient.classicAddress,
        amount: '40.5',
        token: { currency: 'TST', issuer: issuer.classicAddress },
      }),
    );
    expect(intent.txs[0]!.Amount).toEqual({ currency: 'TST', issuer: issuer.classicAddress, value: '40.5' });
    // More tokens than held: refused before anything is prepared.
    const tooMuch = await call(alice, 'POST', '/api/wallets/transfer', {
      walletId: wallet.id,
      recipient: recipient.classicAddress,
      amount: '1000',
      token: { currency: 'TST', issuer: issuer.classicAddress },
    });
    expect(tooMuch.statusCode).toBe(400);
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: signIntent(browser, intent),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, delivered_amount: '40.5' });
    expect(await tokenBalance(client(), recipient.classicAddress, issuer.classicAddress, 'TST')).toBe('40.5');
    expect(await tokenBalance(client(), browser.classicAddress, issuer.classicAddress, 'TST')).toBe('59.5');
    // A line still holding tokens cannot be removed: refused with the balance, nothing prepared.
    const removal = await call(alice, 'POST', '/api/wallets/remove-trustline', {
      walletId: wallet.id,
      issuer: issuer.classicAddress,
      currency: 'TST',
    });
    expect(removal.statusCode).toBe(400);
    expect(removal.json().message).toContain('This trust line still holds 59.5 TST.');
  });

  it('answers an add-trustline for a token that is not listed with a sentence, not a 500', async () => {
    const limit = await call(alice, 'POST', '/api/add-trustline', {
      wallet: browser.classicAddress,
      issuer: genesis.classicAddress,
      token: 'ABC',
    });
    expect(limit.statusCode).toBeLessThan(500);
  });
});

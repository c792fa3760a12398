import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchFlags, decode, encode, GlobalFlags, Wallet, type TransactionMetadata } from 'xrpl';
import {
  Decimal,
  SELF_CUSTODY_MESSAGES,
  xrpToDrops,
  type DeployResult,
  type SigningIntent,
  type SwapResult,
} from '@ledgerpad/shared';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { tradingTrades } from '../../src/modules/trading/schema';
import { PLATFORM_ROLES } from '../../src/platform/accounts';
import { platformWallet } from '../../src/platform/custody';
import { signingIntents } from '../../src/platform/intents/schema';
import type { SignedIn } from '../helpers/test-app';
import { seed, type TradingWorld } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { addSelfCustody, call as callApp, intentOf, signIntent } from './helpers';

// A self-custody market swap where the ledger has Batch (issue 38): the server prepares ONE
// all-or-nothing Batch of the browser wallet — [the trust line a BUY needs], the trade and the
// platform fee as inner transactions (tfInnerBatchTxn, Fee 0, unsigned) — the wallet signs the
// outer only, the server checks it field by field (checkSignedBatch), records the outer and its
// inner transactions before it submits, and records the trade with its fee paid by its own Batch.

let t: WalletTestApp;
let world: TradingWorld;
let owner: SignedIn;
let alice: SignedIn;
let token: DeployResult;
const browser = Wallet.generate();
let feeWallet: string;
/** The stand-alone ledger's base fee, in drops. */
let base: bigint;

beforeAll(async () => {
  t = await createWalletTestApp({ PLATFORM_BOOTSTRAP: 'on', FAUCET_XRP: '1000', TRADE_FEE_BATCH: 'on' });
  await t.app.platform.accounts.bootstrapped();
  world = seed(t);
  owner = await t.signIn('creator');
  alice = await t.signIn('alice');
  const ownerWallet = await world.wallet(owner, 1);
  token = await world.deploy(owner, ownerWallet.id, { name: 'Batch Coin', ticker: 'BATCH' });
  const walletId = (await addSelfCustody(t.app, alice, browser)).id;
  expect((await callApp(t.app, alice, 'POST', `/api/wallets/${walletId}/fund`)).statusCode).toBe(200);
  feeWallet = (await platformWallet(t.database.db, PLATFORM_ROLES.fee))!.address;
  base = t.app.platform.submissions!.reserves.baseFee;
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const call = (...args: Parameters<typeof callApp> extends [unknown, ...infer R] ? R : never) =>
  callApp(t.app, ...args);

const swapBody = (type: 'BUY' | 'SELL', amount: string, extra: Record<string, unknown> = {}) => ({
  walletAddress: browser.classicAddress,
  issuer: token.issuer_address,
  token: token.currency,
  amount,
  type,
  slippage: '1',
  ...extra,
});

/** The wallet signs a Batch intent as the web signer does: the outer Batch only. */
const signOuter = (intent: SigningIntent, tx: Record<string, unknown> = intent.txs[0]!) =>
  browser.sign(tx as never).tx_blob;

const submit = (intent: SigningIntent, blob: string) =>
  call(alice, 'POST', `/api/intents/${intent.id}/submit`, { blobs: [blob] });

async function recordsOf(intentId: string) {
  const [row] = await t.database.db.select().from(signingIntents).where(eq(signingIntents.id, intentId));
  return t.database.db
    .select()
    .from(ledgerSubmissions)
    .where(like(ledgerSubmissions.intentKey, `${row!.intentKey}:step-%`))
    .orderBy(ledgerSubmissions.sequence);
}

async function ledgerTx(hash: string) {
  return (await world.client.request({ command: 'tx', transaction: hash })).result as unknown as {
    meta: TransactionMetadata & { ParentBatchID?: string };
  };
}

const INNER = GlobalFlags.tfInnerBatchTxn;

describe('a self-custody swap as one all-or-nothing Batch', () => {
  it('buys: trust line, trade and fee as inner transactions of one signed Batch', async () => {
    const quote = (
      await call(alice, 'POST', '/api/amm-info', {
        issuer: token.issuer_address,
        token: token.currency,
        amountXrp: '10',
        tradeType: 'BUY',
        wallet: browser.classicAddress,
      })
    ).json() as { fee: string; receive: string; opensTrustLine: boolean; networkFee: string };
    expect(quote.opensTrustLine).toBe(true);
    const intent = intentOf(
      await call(alice, 'POST', '/api/swap', swapBody('BUY', '10', { expected: quote.receive })),
    );
    expect(intent.mode).toBe('batch');
    const [outer, line, trade, fee] = intent.txs;
    const seq = Number(outer!.Sequence);
    // Batch fee rule: twice the base fee plus each inner one's own (three inner: 5 base fees).
    expect(outer).toMatchObject({
      TransactionType: 'Batch',
      Account: browser.classicAddress,
      Flags: BatchFlags.tfAllOrNothing,
      Fee: (5n * base).toString(),
    });
    expect((outer!.RawTransactions as unknown[]).length).toBe(3);
    // The box disclosed exactly that network fee before the click.
    expect(xrpToDrops(quote.networkFee)).toBe(5n * base);
    for (const [i, inner] of [line, trade, fee].entries()) {
      expect(inner).toMatchObject({
        Account: browser.classicAddress,
        Fee: '0',
        SigningPubKey: '',
        Sequence: seq + 1 + i,
      });
      expect((Number(inner!.Flags) & INNER) >>> 0).toBe(INNER);
      expect(inner).not.toHaveProperty('TxnSignature');
    }
    expect(line).toMatchObject({ TransactionType: 'TrustSet' });
    expect(trade).toMatchObject({
      TransactionType: 'Payment',
      Destination: browser.classicAddress,
      SendMax: '10000000',
    });
    // 0.75% of the 10 XRP spent, to the fee wallet: the quote's disclosed fee.
    expect(quote.fee).toBe('0.075');
    expect(fee).toMatchObject({ TransactionType: 'Payment', Destination: feeWallet, Amount: '75000' });

    const blob = signOuter(intent);
    // The inner trade alone (tfInnerBatchTxn outside a Batch, unsigned) is refused by the ledger.
    const innerTrade = (decode(blob) as { RawTransactions: Array<{ RawTransaction: object }> })
      .RawTransactions[1]!.RawTransaction;
    const alone = await world.client
      .request({ command: 'submit', tx_blob: encode(innerTrade as never) })
      .then((r) => ({ error: r.result.engine_result as string, why: '' }))
      .catch((err: unknown) => {
        const data = (err as { data?: { error?: string; error_exception?: string } }).data;
        return { error: data?.error ?? String(err), why: data?.error_exception ?? '' };
      });
    // rippled's local check: "Batch inner transactions are never considered validly signed."
    expect(alone).toEqual({
      error: 'invalidTransaction',
      why: 'fails local checks: Batch inner transactions are never considered validly signed.',
    });

    const before = await world.xrp(browser.classicAddress);
    const feeBefore = await world.xrp(feeWallet);
    const res = await submit(intent, blob);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as SwapResult;
    expect(result).toMatchObject({ status: 'success', fee: '0.075', spent: '10' });
    // What left the wallet: 10 XRP, the 75,000-drop fee and the Batch's network fee (5 base fees).
    expect(await world.xrp(browser.classicAddress)).toBe(before - 10_000_000n - 75_000n - 5n * base);
    expect(await world.xrp(feeWallet)).toBe(feeBefore + 75_000n);
    expect(await world.tokens(browser.classicAddress, token)).toBe(result.received);

    const rows = await recordsOf(intent.id);
    const batchRow = rows[0]!;
    expect(rows.map((r) => [r.purpose, r.status, r.signer, r.parentHash])).toEqual([
      ['swap-batch', 'success', 'wallet', null],
      ['swap-trustline', 'success', 'wallet', batchRow.hash],
      ['swap', 'success', 'wallet', batchRow.hash],
      ['trading-fee', 'success', 'wallet', batchRow.hash],
    ]);
    expect(result.hash).toBe(rows[2]!.hash);
    // On the ledger: the trade and the fee applied inside that Batch.
    expect((await ledgerTx(rows[2]!.hash)).meta.ParentBatchID).toBe(batchRow.hash);
    expect((await ledgerTx(rows[3]!.hash)).meta.ParentBatchID).toBe(batchRow.hash);
    const [record] = await t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, result.hash));
    expect(record).toMatchObject({ side: 'BUY', fee: '0.075', feeStatus: 'paid', feeHash: rows[3]!.hash });
  });

  it('refuses a Batch signed with its fee changed or removed, and sends nothing', async () => {
    const intent = intentOf(await call(alice, 'POST', '/api/swap', swapBody('BUY', '5')));
    expect(intent.mode).toBe('batch');
    expect(intent.txs).toHaveLength(3); // the line exists now: outer, trade, fee
    expect(intent.txs[0]!.Fee).toBe((4n * base).toString());
    const outer = intent.txs[0]!;
    const raw = outer.RawTransactions as Array<{ RawTransaction: Record<string, unknown> }>;
    const cheaper = signOuter(intent, {
      ...outer,
      RawTransactions: [raw[0], { RawTransaction: { ...raw[1]!.RawTransaction, Amount: '1' } }],
    });
    expect((await submit(intent, cheaper)).json().message).toBe(
      SELF_CUSTODY_MESSAGES.mismatch('RawTransactions[1].Amount'),
    );
    const elsewhere = signOuter(intent, {
      ...outer,
      RawTransactions: [
        raw[0],
        { RawTransaction: { ...raw[1]!.RawTransaction, Destination: Wallet.generate().classicAddress } },
      ],
    });
    expect((await submit(intent, elsewhere)).json().message).toBe(
      SELF_CUSTODY_MESSAGES.mismatch('RawTransactions[1].Destination'),
    );
    // Without its fee: the trade alone in the Batch.
    const noFee = signOuter(intent, {
      ...outer,
      RawTransactions: [raw[0]],
    });
    expect((await submit(intent, noFee)).json().message).toBe(
      SELF_CUSTODY_MESSAGES.mismatch('RawTransactions'),
    );
    // Two blobs (the sequence way) for a Batch intent: refused.
    const two = await call(alice, 'POST', `/api/intents/${intent.id}/submit`, {
      blobs: [signOuter(intent), signOuter(intent)],
    });
    expect(two.json().message).toBe(SELF_CUSTODY_MESSAGES.count(1));
    expect(await recordsOf(intent.id)).toHaveLength(0);

    // The same Batch posted twice at once: one Batch recorded and sent, one answer.
    const blob = signOuter(intent);
    const before = await world.xrp(browser.classicAddress);
    const [a, b] = await Promise.all([submit(intent, blob), submit(intent, blob)]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.json()).toEqual(a.json());
    const rows = await recordsOf(intent.id);
    expect(rows.map((r) => r.purpose)).toEqual(['swap-batch', 'swap', 'trading-fee']);
    expect(await world.xrp(browser.classicAddress)).toBe(before - 5_000_000n - 37_500n - 4n * base);
  });

  it('sells the whole balance as one Batch: the fee out of what it receives, as disclosed', async () => {
    const held = await world.tokens(browser.classicAddress, token);
    const [whole, frac = ''] = held.split('.');
    const amount = frac ? `${whole}.${frac.slice(0, 6)}` : whole!;
    const quote = (
      await call(alice, 'POST', '/api/amm-info', {
        issuer: token.issuer_address,
        token: token.currency,
        amountToken: amount,
        tradeType: 'SELL',
        wallet: browser.classicAddress,
      })
    ).json() as { fee: string; receive: string };
    const intent = intentOf(
      await call(alice, 'POST', '/api/swap', swapBody('SELL', amount, { expected: quote.receive })),
    );
    expect(intent.mode).toBe('batch');
    const [outer, trade, fee] = intent.txs;
    expect(outer!.Fee).toBe((4n * base).toString());
    expect(trade).toMatchObject({ SendMax: { value: held } });
    const expectedFee = BigInt(new Decimal(quote.receive).mul(1_000_000).mul('0.0075').floor().toFixed());
    expect(fee).toMatchObject({ Destination: feeWallet, Amount: expectedFee.toString() });
    const before = await world.xrp(browser.classicAddress);
    const res = await submit(intent, signOuter(intent));
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as SwapResult;
    expect(result.status).toBe('success');
    expect(await world.tokens(browser.classicAddress, token)).toBe('0');
    expect(await world.xrp(browser.classicAddress)).toBe(
      before + xrpToDrops(result.received) - expectedFee - 4n * base,
    );
    const rows = await recordsOf(intent.id);
    const [record] = await t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, result.hash));
    expect(record).toMatchObject({ side: 'SELL', feeStatus: 'paid', feeHash: rows[2]!.hash });
    expect((await ledgerTx(rows[1]!.hash)).meta.ParentBatchID).toBe(rows[0]!.hash);
  });
  it('a crash after the Batch was claimed, before it was recorded: the start sweep sends it once', async () => {
    const intent = intentOf(await call(alice, 'POST', '/api/swap', swapBody('BUY', '2')));
    expect(intent.mode).toBe('batch');
    const fee = intent.txs[2]!;
    // 0.75% of 2 XRP: 15,000 drops.
    expect(fee).toMatchObject({ Destination: feeWallet, Amount: '15000' });
    const blob = signOuter(intent);
    const before = await world.xrp(browser.classicAddress);
    // The state a kill -9 leaves between claiming the blob and recording it: 'submitted', no record.
    await t.database.db
      .update(signingIntents)
      .set({ status: 'submitted', signed: [blob] })
      .where(eq(signingIntents.id, intent.id));
    expect(await recordsOf(intent.id)).toHaveLength(0);
    expect(await t.app.platform.intents!.resume()).toBe(1);
    const rows = await recordsOf(intent.id);
    expect(rows.map((r) => [r.purpose, r.status])).toEqual([
      ['swap-batch', 'success'],
      ['swap', 'success'],
      ['trading-fee', 'success'],
    ]);
    expect(await world.xrp(browser.classicAddress)).toBe(before - 2_000_000n - 15_000n - 4n * base);
    // The blob posted after the restart answers the sweep's outcome; nothing is sent again.
    const res = await submit(intent, blob);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as SwapResult).hash).toBe(rows[1]!.hash);
    expect(await recordsOf(intent.id)).toHaveLength(3);
    const [record] = await t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, rows[1]!.hash));
    expect(record).toMatchObject({ feeStatus: 'paid', fee: '0.015', feeHash: rows[2]!.hash });
  });
});

describe("a wallet app's swap where the ledger has Batch", () => {
  // The wallet app (GemWallet here) is a real xrpl.js Wallet in the test, as the web's wallet app
  // would sign; which blob comes back, or none, is what each case decides.
  let bob: SignedIn;
  const app = Wallet.generate();
  const appBody = (type: 'BUY' | 'SELL', amount: string) => ({
    ...swapBody(type, amount),
    walletAddress: app.classicAddress,
  });
  const swapAs = (amount: string, key: string) =>
    callApp(t.app, bob, 'POST', '/api/swap', appBody('BUY', amount), { 'idempotency-key': key });
  const fallback = (intent: SigningIntent, reason = 'app-cannot-sign-batch') =>
    callApp(t.app, bob, 'POST', `/api/intents/${intent.id}/sequence`, { reason });
  const submitAs = (intent: SigningIntent, blobs: string[]) =>
    callApp(t.app, bob, 'POST', `/api/intents/${intent.id}/submit`, { blobs });

  beforeAll(async () => {
    bob = await t.signIn('bob_app');
    const id = (await addSelfCustody(t.app, bob, app, { kind: 'external', app: 'gemwallet' })).id;
    expect((await callApp(t.app, bob, 'POST', `/api/wallets/${id}/fund`)).statusCode).toBe(200);
  }, 60_000);

  it('is one Batch too: the app signs the outer, the fee inside it, exact to the drop', async () => {
    const quote = (
      await callApp(t.app, bob, 'POST', '/api/amm-info', {
        issuer: token.issuer_address,
        token: token.currency,
        amountXrp: '2',
        tradeType: 'BUY',
        wallet: app.classicAddress,
      })
    ).json() as { fee: string; networkFee: string };
    // The box discloses the Batch's network fee (trust line, trade, fee: 5 base fees) and the fee.
    expect(xrpToDrops(quote.networkFee)).toBe(5n * base);
    expect(quote.fee).toBe('0.015');
    const intent = intentOf(await swapAs('2', 'app-batch-1'));
    expect(intent.mode).toBe('batch');
    const [outer, line, trade, fee] = intent.txs;
    expect(outer).toMatchObject({
      TransactionType: 'Batch',
      Flags: BatchFlags.tfAllOrNothing,
      Fee: (5n * base).toString(),
    });
    expect(line).toMatchObject({ TransactionType: 'TrustSet' });
    expect(trade).toMatchObject({
      TransactionType: 'Payment',
      Destination: app.classicAddress,
      SendMax: '2000000',
    });
    // 0.75% of 2 XRP: 15,000 drops.
    expect(fee).toMatchObject({ Destination: feeWallet, Amount: '15000' });
    const before = await world.xrp(app.classicAddress);
    const feeBefore = await world.xrp(feeWallet);
    const res = await submitAs(intent, [app.sign(outer as never).tx_blob]);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as SwapResult;
    expect(result).toMatchObject({ status: 'success', fee: '0.015', spent: '2' });
    expect(await world.xrp(app.classicAddress)).toBe(before - 2_000_000n - 15_000n - 5n * base);
    expect(await world.xrp(feeWallet)).toBe(feeBefore + 15_000n);
    const rows = await recordsOf(intent.id);
    expect(rows.map((r) => [r.purpose, r.status])).toEqual([
      ['swap-batch', 'success'],
      ['swap-trustline', 'success'],
      ['swap', 'success'],
      ['trading-fee', 'success'],
    ]);
    // A Batch signed and sent cannot be replaced any more.
    expect((await fallback(intent)).json().message).toBe(SELF_CUSTODY_MESSAGES.batchAlreadySigned);
  });

  it('an app that cannot sign it: the same transactions one by one, the Batch voided first, only one executes', async () => {
    const batchIntent = intentOf(await swapAs('3', 'app-batch-2'));
    expect(batchIntent.mode).toBe('batch');
    const [outer, trade, fee] = batchIntent.txs;
    const seq = Number(outer!.Sequence);
    // 0.75% of 3 XRP: 22,500 drops.
    expect(fee).toMatchObject({ Destination: feeWallet, Amount: '22500' });
    // Say the app did sign the Batch but the web could not use its answer: the user holds a valid
    // signed Batch while the server hands out its sequence version.
    const batchBlob = app.sign(outer as never).tx_blob;

    // Only the explicit request flag is taken.
    expect((await fallback(batchIntent, 'because')).statusCode).toBe(400);
    const res = await fallback(batchIntent);
    const intent = intentOf(res);
    expect(intent.mode).toBe('sequence');
    expect(intent.id).not.toBe(batchIntent.id);
    // The same transactions, not inner ones any more, at the Batch's own sequence: the ledger can
    // take only one of the two.
    expect(intent.txs).toHaveLength(2);
    const strip = (tx: Record<string, unknown>) => {
      const { Sequence: _s, Fee: _f, SigningPubKey: _k, Flags, LastLedgerSequence: _l, ...rest } = tx;
      const flags = (Number(Flags ?? 0) & ~INNER) >>> 0;
      return { ...rest, ...(flags ? { Flags: flags } : {}) };
    };
    expect(intent.txs.map(strip)).toEqual([strip(trade!), strip(fee!)]);
    expect(intent.txs.map((x) => [x.Sequence, x.Fee])).toEqual([
      [seq, base.toString()],
      [seq + 1, base.toString()],
    ]);
    expect(intent.txs.every((x) => (Number(x.Flags ?? 0) & INNER) >>> 0 === 0)).toBe(true);

    // The swap retried with its Idempotency-Key replays its first answer (the Batch intent), whose
    // replacement, asked again, is the same sequence intent: one swap, never a second one.
    const retried = await swapAs('3', 'app-batch-2');
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(intentOf(retried).id).toBe(batchIntent.id);
    expect(intentOf(await fallback(batchIntent)).id).toBe(intent.id);
    // Recorded: the Batch voided, naming its replacement and why; the replacement names both.
    const [voided] = await t.database.db
      .select()
      .from(signingIntents)
      .where(eq(signingIntents.id, batchIntent.id));
    expect(voided).toMatchObject({
      status: 'voided',
      signed: null,
      error: { code: 'INTENT_REPLACED', details: { by: intent.id, reason: 'app-cannot-sign-batch' } },
    });
    const [replacement] = await t.database.db
      .select()
      .from(signingIntents)
      .where(eq(signingIntents.id, intent.id));
    expect(replacement!.context).toMatchObject({
      fallbackOf: { intent: batchIntent.id, reason: 'app-cannot-sign-batch' },
      stepPurposes: ['swap', 'trading-fee'],
    });
    expect((await callApp(t.app, bob, 'GET', `/api/intents/${batchIntent.id}`)).json()).toMatchObject({
      status: 'voided',
      hashes: [],
    });

    // The voided Batch's blob is refused, nothing sent.
    const refused = await submitAs(batchIntent, [batchBlob]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(SELF_CUSTODY_MESSAGES.replaced);
    expect(await recordsOf(batchIntent.id)).toHaveLength(0);

    const before = await world.xrp(app.classicAddress);
    const feeBefore = await world.xrp(feeWallet);
    const done = await submitAs(intent, signIntent(app, intent));
    expect(done.statusCode, done.body).toBe(200);
    const result = done.json() as SwapResult;
    expect(result).toMatchObject({ status: 'success', fee: '0.0225', spent: '3' });
    // Two transactions at the base fee each, the trade's 3 XRP and the fee of 22,500 drops.
    expect(await world.xrp(app.classicAddress)).toBe(before - 3_000_000n - 22_500n - 2n * base);
    expect(await world.xrp(feeWallet)).toBe(feeBefore + 22_500n);
    const rows = await recordsOf(intent.id);
    expect(rows.map((r) => [r.purpose, r.status, r.sequence])).toEqual([
      ['swap', 'success', seq],
      ['trading-fee', 'success', seq + 1],
    ]);
    const [record] = await t.database.db
      .select()
      .from(tradingTrades)
      .where(eq(tradingTrades.hash, result.hash));
    expect(record).toMatchObject({ fee: '0.0225', feeStatus: 'paid', feeHash: rows[1]!.hash });

    // The signed Batch sent to the ledger elsewhere afterwards: its sequence is spent.
    const afterSwap = await world.xrp(app.classicAddress);
    const feeAfter = await world.xrp(feeWallet);
    const elsewhere = await world.client.request({ command: 'submit', tx_blob: batchBlob });
    expect(elsewhere.result.engine_result).toBe('tefPAST_SEQ');
    await world.client.request({ command: 'ledger_accept' } as never);
    expect(await world.xrp(app.classicAddress)).toBe(afterSwap);
    expect(await world.xrp(feeWallet)).toBe(feeAfter);
    // Nothing can be replaced twice, nor a sequence intent replaced at all.
    expect((await fallback(intent)).json().message).toBe(SELF_CUSTODY_MESSAGES.notBatch);
  });

  it("a browser wallet's Batch cannot be replaced: our own xrpl.js signs it", async () => {
    const intent = intentOf(await call(alice, 'POST', '/api/swap', swapBody('BUY', '1')));
    expect(intent.mode).toBe('batch');
    const res = await call(alice, 'POST', `/api/intents/${intent.id}/sequence`, {
      reason: 'app-cannot-sign-batch',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SELF_CUSTODY_MESSAGES.batchOnly);
    // Someone else's intent reads as missing.
    const other = await callApp(t.app, bob, 'POST', `/api/intents/${intent.id}/sequence`, {
      reason: 'app-cannot-sign-batch',
    });
    expect(other.statusCode).toBe(404);
  });

  it('a Batch and its replacement asked at once: exactly one of them is ever signed and sent', async () => {
    const batchIntent = intentOf(await swapAs('1', 'app-batch-3'));
    const blob = app.sign(batchIntent.txs[0] as never).tx_blob;
    const before = await world.xrp(app.classicAddress);
    const [sent, replaced] = await Promise.all([submitAs(batchIntent, [blob]), fallback(batchIntent)]);
    const [row] = await t.database.db
      .select()
      .from(signingIntents)
      .where(eq(signingIntents.id, batchIntent.id));
    if (sent.statusCode === 200) {
      // The Batch won: it was not voided, no sequence version exists.
      expect(replaced.json().message).toBe(SELF_CUSTODY_MESSAGES.batchAlreadySigned);
      expect(row!.status).toBe('done');
      expect(await world.xrp(app.classicAddress)).toBe(before - 1_000_000n - 7_500n - 4n * base);
    } else {
      // The replacement won: the Batch blob was refused, nothing sent.
      expect(sent.json().message).toBe(SELF_CUSTODY_MESSAGES.replaced);
      expect(intentOf(replaced).mode).toBe('sequence');
      expect(row!.status).toBe('voided');
      expect(await recordsOf(batchIntent.id)).toHaveLength(0);
      expect(await world.xrp(app.classicAddress)).toBe(before);
    }
  });
});

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
import { addSelfCustody, call as callApp, intentOf } from './helpers';

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
  it('stays the sequence intent (a wallet app may not sign a Batch): trade and fee, each signed', async () => {
    const bob = await t.signIn('bob_app');
    const app = Wallet.generate();
    const id = (await addSelfCustody(t.app, bob, app, { kind: 'external', app: 'gemwallet' })).id;
    expect((await callApp(t.app, bob, 'POST', `/api/wallets/${id}/fund`)).statusCode).toBe(200);
    const intent = intentOf(
      await callApp(t.app, bob, 'POST', '/api/swap', {
        ...swapBody('BUY', '2'),
        walletAddress: app.classicAddress,
      }),
    );
    expect(intent.mode).toBe('sequence');
    // [the trust line], the trade, the fee: no Batch among them, none an inner transaction.
    expect(intent.txs.map((x) => x.TransactionType)).toEqual(['TrustSet', 'Payment', 'Payment']);
    expect(intent.txs.every((x) => (Number(x.Flags ?? 0) & INNER) >>> 0 === 0)).toBe(true);
  });
});

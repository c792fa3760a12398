import Decimal from 'decimal.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, type Payment } from 'xrpl';
import { ledgerSubmissions } from '../../src/ledger/schema';
import { tradingTrades } from '../../src/modules/trading/schema';
import { fundedWallet } from '../helpers/trading-world';
import { createWalletTestApp, type WalletTestApp } from '../wallets/wallet-app';
import { launchCurve, outsideWallets, send, tokenBalance, waitValidated } from './bonding-world';

// Issue 40, the hot launch's refused curve buys: the keeper re-splits the ladder only after a close,
// so inside one ledger a burst of buys walks past the fine steps into the ladder's blocks, each asked
// at its whole average. A new holder's buy (one all-or-nothing Batch: its trust line and the trade
// with DeliverMin) simulated just before those buys applied then met a block priced more than twice
// its simulation and was rolled back — while the curve's own price was still inside its floor. Here
// the burst is one outside buy of exactly 64 steps that the ledger applies right before the buyer's
// Batch (the ledger's submit is observed, not replaced), the default curve (x0 = 1,000 XRP, 200
// steps, 6 fine steps): the next offer is then the block [64, 128), asked at ~2.5× the price the
// buyer simulated, while the curve at step 64 is ~1.7× it. The buy must execute once, within its
// first floor, after its first Batch was validated as rolled back.

const S = 3_965_500n;

let t: WalletTestApp;
let base: string;

beforeAll(async () => {
  t = await createWalletTestApp(
    { PLATFORM_BOOTSTRAP: 'on', TRADE_FEE_BATCH: 'on' },
    { closeIntervalMs: 200 },
  );
  await t.app.platform.accounts.bootstrapped();
  await t.app.platform.settings.set('bonding_snipe_ledgers', '0');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a new holder’s curve buy that meets a ladder block mid-ledger', () => {
  it('is executed once, at its first floor, after its first Batch rolled back', async () => {
    const client = t.connection.client;
    const owner = await t.signInOwner();
    const creator = await fundedWallet(t, owner, 4);
    const curve = await launchCurve(t, owner, creator.id, { name: 'Mid Ledger', ticker: 'MIDL' });
    const { currency, issuer_address: issuer } = curve;
    await t.app.bonding.keeper!.idle();

    // The burst's other buyer: an outside wallet taking steps 0–63 in one Payment.
    const [outsider] = await outsideWallets(client, 1, 1000);
    await send(client, outsider!, {
      TransactionType: 'TrustSet',
      Account: outsider!.classicAddress,
      LimitAmount: { currency, issuer, value: '1000000000' },
    });
    const burst = outsider!.sign(
      await client.autofill<Payment>({
        TransactionType: 'Payment',
        Account: outsider!.classicAddress,
        Destination: outsider!.classicAddress,
        Amount: { currency, issuer, value: (64n * S).toString() },
        SendMax: '400000000',
      }),
    );

    const buyer = await t.signIn('mid_ledger_buyer');
    const wallet = await fundedWallet(t, buyer, 1);
    // The ledger applies the outside buy right before the buyer's first Batch, in the same ledger.
    const node = t.ledger.node;
    const submit = node.submit.bind(node);
    let burstIn = false;
    node.submit = (blob) => {
      const hex = typeof blob === 'string' ? blob : blob.blob;
      const tx = decode(hex) as { TransactionType?: string; Account?: string };
      if (!burstIn && tx.TransactionType === 'Batch' && tx.Account === wallet.address) {
        burstIn = true;
        expect(submit(burst.tx_blob).engine_result).toBe('tesSUCCESS');
      }
      return submit(blob);
    };
    try {
      const res = await fetch(`${base}/api/swap`, {
        method: 'POST',
        headers: { ...(buyer.headers as Record<string, string>), 'content-type': 'application/json' },
        body: JSON.stringify({
          walletAddress: wallet.address,
          issuer,
          token: 'MIDL',
          amount: '0.5',
          type: 'BUY',
          slippage: '50',
        }),
      });
      const body = (await res.json()) as { hash?: string; message?: string };
      expect(burstIn).toBe(true);
      expect(res.status, body.message).toBe(200);

      // The first Batch applied in the burst's ledger and rolled its line and trade back; the second
      // one executed: one trade, one line, the tokens on the validated ledger equal to the record.
      expect((await waitValidated(client, burst.hash)).result).toBe('tesSUCCESS');
      const trades = await t.database.db
        .select()
        .from(ledgerSubmissions)
        .where(and(eq(ledgerSubmissions.account, wallet.address), eq(ledgerSubmissions.txType, 'Payment')))
        .orderBy(ledgerSubmissions.id);
      expect(trades.map((r) => r.result)).toEqual(['rolled-back', 'tesSUCCESS']);
      expect(trades[1]!.hash).toBe(body.hash);
      const floors = trades.map(
        (r) => (decode(r.txBlob) as { DeliverMin: { value: string } }).DeliverMin.value,
      );
      expect(floors[1]).toBe(floors[0]);
      // The second attempt was signed on the sequences the first left unused: no gap to fill.
      const fills = await t.database.db
        .select()
        .from(ledgerSubmissions)
        .where(
          and(
            eq(ledgerSubmissions.account, wallet.address),
            eq(ledgerSubmissions.purpose, 'sequence-gap-fill'),
          ),
        );
      expect(fills).toEqual([]);
      // Its Batch took the next sequence after the first (whose line and trade gave theirs back).
      expect(trades[1]!.sequence).toBe(trades[0]!.sequence + 1);
      const rows = await t.database.db
        .select()
        .from(tradingTrades)
        .where(eq(tradingTrades.walletAddress, wallet.address));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.hash).toBe(body.hash);
      const held = new Decimal(await tokenBalance(client, wallet.address, issuer, currency));
      expect(held.minus(rows[0]!.received).abs().lte(held.mul('1e-14'))).toBe(true);
      expect(held.gte(floors[0]!)).toBe(true);
    } finally {
      node.submit = submit;
    }
  }, 180_000);
});

import { eq } from 'drizzle-orm';
import Decimal from 'decimal.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, type LedgerStream } from 'xrpl';
import type { BondingView } from '@ledgerpad/shared';
import { bondingCurves } from '../../src/modules/bonding/schema';
import { useCrashRig, type ChildServer } from '../helpers/child-server';
import { submitAndWait } from '../helpers/submit-and-wait';
import { launchCurveOverHttp, outsideWallets } from '../bonding/bonding-world';

// The keeper cannot stall: kill -9 while a keeper round holds a curve's lease, restart, and buy out
// the ladder that was on the ledger (the anti-snipe window's capped sell side) while the dead
// process's lease still stands. The anti-snipe window is over by then, so no close-by-close top-up
// helps: before the fix nothing looked at the curve again until the next restart. Now the ladder is
// back within 2 ledgers of the lease expiring, and not before (the lease is honoured).

const LEASE_MS = 35_000;
const SNIPE_LEDGERS = 16;
const SNIPE_TOKENS = '2000000';

type Offer = { taker_gets: unknown; taker_pays: unknown };
const isSell = (o: Offer) => typeof o.taker_gets !== 'string'; // the curve gives tokens

describe('bonding keeper after kill -9', () => {
  const rig = useCrashRig('keeper-crash', {
    PLATFORM_BOOTSTRAP: 'on',
    DEMO_SEED: 'off',
    BONDING_KEEPER_LEASE_MS: String(LEASE_MS),
  });
  let client: Client | undefined;
  afterAll(async () => {
    await client?.disconnect().catch(() => undefined);
  });

  const connect = async (server: ChildServer) => {
    await client?.disconnect().catch(() => undefined);
    client = new Client(server.ledgerUrl);
    await client.connect();
    await client.request({ command: 'subscribe', streams: ['ledger'] });
    return client;
  };
  const sellOffers = async (c: Client, account: string) => {
    const r = await c.request({ command: 'account_offers', account, ledger_index: 'validated', limit: 400 });
    return { ledger: r.result.ledger_index ?? 0, offers: (r.result.offers ?? []).filter(isSell) };
  };

  it('re-posts the ladder within 2 ledgers of a dead keeper’s lease expiring', async () => {
    let server = await rig.start();
    const { deployed } = await launchCurveOverHttp(
      server,
      {
        bonding_virtual_xrp: '30',
        bonding_snipe_ledgers: String(SNIPE_LEDGERS),
        bonding_snipe_tokens: SNIPE_TOKENS,
      },
      { name: 'Keeper Curve', ticker: 'KEEPC' },
    );
    const { issuer_address: issuer, currency, hot_wallet_address: curve } = deployed;
    let c = await connect(server);
    const [buyer] = await outsideWallets(c, 1, 2000);
    await submitAndWait(
      c,
      {
        TransactionType: 'TrustSet',
        Account: buyer!.classicAddress,
        LimitAmount: { currency, issuer, value: '1000000000' },
      },
      buyer!,
    );
    const buy = (cl: Client, tokens: string) =>
      submitAndWait(
        cl,
        {
          TransactionType: 'Payment',
          Account: buyer!.classicAddress,
          Destination: buyer!.classicAddress,
          Amount: { currency, issuer, value: tokens },
          SendMax: '1000000000',
        },
        buyer!,
      );

    // Kill -9 as a round starts: a validated crossing of the curve starts one at once (the keeper
    // follows the curve account's stream), and the test hears the same stream message.
    for (;;) {
      const { offers } = await sellOffers(c, curve);
      if (offers.length > 0) break;
      await new Promise<void>((r) => c.once('ledgerClosed', () => r()));
    }
    const prepared = await c.autofill({
      TransactionType: 'Payment',
      Account: buyer!.classicAddress,
      Destination: buyer!.classicAddress,
      Amount: { currency, issuer, value: '100000' },
      SendMax: '1000000000',
    });
    const signed = buyer!.sign(prepared);
    await c.request({ command: 'subscribe', accounts: [buyer!.classicAddress] });
    const crossed = new Promise<void>((resolve) => {
      const onTx = (ev: { validated?: boolean; hash?: string; transaction?: { hash?: string } }) => {
        if (!ev.validated || (ev.hash ?? ev.transaction?.hash) !== signed.hash) return;
        c.off('transaction', onTx);
        resolve();
      };
      c.on('transaction', onTx);
    });
    await c.request({ command: 'submit', tx_blob: signed.tx_blob });
    await crossed;
    await rig.kill();
    // A round takes milliseconds, so the kill may also land just before its claim or just after its
    // release. What a round killed in between leaves is its lease on the curve row (owner, expiry a
    // lease from its claim): when the kill missed, the row is given exactly that state, so the
    // restart always meets a dead process's lease.
    const database = await rig.openDatabase();
    let until: Date;
    try {
      const [row] = await database.db
        .select()
        .from(bondingCurves)
        .where(eq(bondingCurves.issuerAddress, issuer));
      if (row?.keeperOwner && row.keeperUntil && row.keeperUntil.getTime() > Date.now() + LEASE_MS / 2) {
        until = row.keeperUntil;
      } else {
        until = new Date(Date.now() + LEASE_MS);
        await database.db
          .update(bondingCurves)
          .set({ keeperOwner: 'killed-host:1/000000000000', keeperUntil: until })
          .where(eq(bondingCurves.issuerAddress, issuer));
      }
    } finally {
      await database.close();
    }
    server = await rig.start();
    c = await connect(server);
    const leaseEnd = until.getTime();

    // After the anti-snipe window, with the dead process's lease still standing: the sell side on
    // the ledger is the capped one; buy all of it.
    const view = (await (await fetch(`${server.base}/api/bonding/${issuer}`)).json()) as BondingView;
    for (;;) {
      const v = await c.request({ command: 'ledger', ledger_index: 'validated' });
      if (v.result.ledger_index >= view.snipe_until_ledger!) break;
      await new Promise<void>((r) => c.once('ledgerClosed', () => r()));
    }
    const visible = await sellOffers(c, curve);
    expect(visible.offers.length).toBeGreaterThan(0);
    const offered = visible.offers.reduce(
      (sum, o) => sum.plus((o.taker_gets as { value: string }).value),
      new Decimal(0),
    );
    expect(offered.lte(SNIPE_TOKENS)).toBe(true); // the window's cap, not the whole curve
    await buy(c, offered.toFixed());
    const emptied = await sellOffers(c, curve);
    expect(emptied.offers).toEqual([]);
    expect(Date.now(), 'bought out while the dead lease still stands').toBeLessThan(leaseEnd);

    // Ledger by ledger: nothing is re-posted while the lease stands; the first ledger closed after
    // it expired is E; the ladder is on a validated ledger no later than E + 2.
    let expiryLedger: number | null = null;
    const backAt = await new Promise<number>((resolve, reject) => {
      const onClosed = (ev: LedgerStream) => {
        void (async () => {
          const { offers, ledger } = await sellOffers(c, curve);
          if (expiryLedger === null && Date.now() >= leaseEnd) expiryLedger = ev.ledger_index;
          if (offers.length === 0) {
            if (expiryLedger !== null && ev.ledger_index > expiryLedger + 2) {
              c.off('ledgerClosed', onClosed);
              reject(
                new Error(`no ladder ${ev.ledger_index - expiryLedger} ledgers after the lease expired`),
              );
            }
            return;
          }
          c.off('ledgerClosed', onClosed);
          if (Date.now() < leaseEnd - 1000) reject(new Error('re-posted while the dead lease still stood'));
          else resolve(ledger);
        })().catch(reject);
      };
      c.on('ledgerClosed', onClosed);
    });
    expect(expiryLedger).not.toBeNull();
    expect(backAt).toBeLessThanOrEqual(expiryLedger! + 2);
    // The whole remaining curve is back on offer (the window is over): far more than the cap.
    const back = await sellOffers(c, curve);
    const total = back.offers.reduce(
      (sum, o) => sum.plus((o.taker_gets as { value: string }).value),
      new Decimal(0),
    );
    expect(total.gt(SNIPE_TOKENS)).toBe(true);
  }, 240_000);
});

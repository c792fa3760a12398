import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type LedgerStream, type Wallet } from 'xrpl';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import {
  desiredLadder,
  soldFromHeld,
  unitsToMicros,
  type LadderChunk,
  type LedgerAmount,
} from '@ledgerpad/shared';
import { bondingCurves } from '../../src/modules/bonding/schema';
import { paramsOf, type CurveRow } from '../../src/modules/bonding/service';
import { useCrashRig } from '../helpers/child-server';
import { submitAndWait } from '../helpers/submit-and-wait';
import { launchCurveOverHttp, outsideWallets } from '../bonding/bonding-world';

// A keeper's lease dies with its process (issue 34): kill -9 while a keeper round holds a curve,
// take more of the ladder while the server is down (the ledger is the test's own, so it runs on),
// restart — and the curve's whole ladder is back on a validated ledger within 2 ledgers of the
// restart, although the dead process's lease on the curve row still has minutes to run. Before,
// the ladder stayed short for the whole lease (30 s by default).
//
// The kill lands as a round starts (a validated crossing starts one at once; the test hears the
// same stream message), but a round takes milliseconds, so the kill may land just before its claim
// or just after its release: the row is then given what a round killed in between leaves — the
// killed process's lease — with an expiry ten minutes away, so only the holder's death can free it.

const LEASE_LEFT_MS = 10 * 60_000;
const QUOTE_TOLERANCE = 3n;
const TOKEN_RELATIVE_TOLERANCE = new Decimal('1e-12');

type Amount = LedgerAmount;
type Offer = { taker_gets: Amount; taker_pays: Amount };

describe('bonding keeper after kill -9', () => {
  let ledger: StandaloneLedger;
  let client: Client;
  // Filled in once the ledger runs (the rig reads its environment at each start).
  const env: Record<string, string> = { PLATFORM_BOOTSTRAP: 'on', DEMO_SEED: 'off' };
  const rig = useCrashRig('keeper-crash', env);

  beforeAll(async () => {
    ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 1000 });
    env.XRPL_URL = ledger.url;
    client = new Client(ledger.url);
    await client.connect();
    await client.request({ command: 'subscribe', streams: ['ledger'] });
  }, 60_000);
  afterAll(async () => {
    await client?.disconnect().catch(() => undefined);
    await ledger?.close();
  });

  const nextClose = () => new Promise<LedgerStream>((r) => client.once('ledgerClosed', r));

  /**
   * How far the curve's offers on validated ledger `index` are from the ladder its sold amount calls
   * for (`desiredLadder`, the keeper's own rule and tolerances): chunks with no offer plus offers
   * matching no chunk. 0 is the whole ladder.
   */
  async function ladderGap(curve: CurveRow, index: number): Promise<{ gap: number; chunks: number }> {
    const [lines, offers] = await Promise.all([
      client.request({
        command: 'account_lines',
        account: curve.curveAddress,
        peer: curve.issuerAddress,
        ledger_index: index,
      }),
      client.request({
        command: 'account_offers',
        account: curve.curveAddress,
        ledger_index: index,
        limit: 400,
      }),
    ]);
    const held = lines.result.lines.find((l) => l.currency === curve.currency)?.balance ?? '0';
    const desired = desiredLadder(paramsOf(curve), soldFromHeld(held), BigInt(curve.feePpm));
    const isToken = (a: Amount): a is Exclude<Amount, string> =>
      typeof a !== 'string' && a.currency === curve.currency && a.issuer === curve.issuerAddress;
    const micros = (a: Amount) => (typeof a === 'string' ? BigInt(a) : unitsToMicros(a.value, 'nearest'));
    const live = (offers.result.offers as Offer[]).map((o) =>
      isToken(o.taker_gets)
        ? { side: 'sell', tokens: new Decimal(o.taker_gets.value), quote: micros(o.taker_pays) }
        : {
            side: 'buy',
            tokens: new Decimal((o.taker_pays as { value: string }).value),
            quote: micros(o.taker_gets),
          },
    );
    const matches = (o: (typeof live)[number], c: LadderChunk) => {
      const want = new Decimal(c.tokens);
      const dq = o.quote - c.quote;
      return (
        o.side === c.side &&
        o.tokens.minus(want).abs().lte(want.mul(TOKEN_RELATIVE_TOLERANCE)) &&
        (dq < 0n ? -dq : dq) <= QUOTE_TOLERANCE
      );
    };
    const unmatched = new Set(live);
    let missing = 0;
    for (const c of desired) {
      const hit = [...unmatched].find((o) => matches(o, c));
      if (hit) unmatched.delete(hit);
      else missing++;
    }
    return { gap: missing + unmatched.size, chunks: desired.length };
  }

  const validatedIndex = async () =>
    (await client.request({ command: 'ledger', ledger_index: 'validated' })).result.ledger_index;

  it('has the whole ladder back within 2 ledgers of the restart, the dead keeper’s lease notwithstanding', async () => {
    let server = await rig.start();
    const { deployed } = await launchCurveOverHttp(
      server,
      // No anti-snipe window: the whole ladder is on the ledger from the launch.
      { bonding_virtual_xrp: '30', bonding_snipe_ledgers: '0' },
      { name: 'Keeper Curve', ticker: 'KEEPC' },
    );
    const { issuer_address: issuer, currency, hot_wallet_address: curveAddress } = deployed;
    const [buyer] = (await outsideWallets(client, 1, 5000)) as [Wallet];
    await submitAndWait(
      client,
      {
        TransactionType: 'TrustSet',
        Account: buyer.classicAddress,
        LimitAmount: { currency, issuer, value: '1000000000' },
      },
      buyer,
    );
    const buyTx = (tokens: string) => ({
      TransactionType: 'Payment' as const,
      Account: buyer.classicAddress,
      Destination: buyer.classicAddress,
      Amount: { currency, issuer, value: tokens },
      SendMax: '1000000000',
    });
    const sellOffers = async () =>
      (
        (
          await client.request({
            command: 'account_offers',
            account: curveAddress,
            ledger_index: 'validated',
          })
        ).result.offers as Offer[]
      ).filter((o) => typeof o.taker_gets !== 'string');
    while ((await sellOffers()).length === 0) await nextClose();

    // Kill -9 as a round starts: at the validation of a crossing of the curve.
    const signed = buyer.sign(await client.autofill(buyTx('100000')));
    await client.request({ command: 'subscribe', accounts: [buyer.classicAddress] });
    const crossed = new Promise<void>((resolve) => {
      const onTx = (ev: { validated?: boolean; hash?: string; transaction?: { hash?: string } }) => {
        if (!ev.validated || (ev.hash ?? ev.transaction?.hash) !== signed.hash) return;
        client.off('transaction', onTx);
        resolve();
      };
      client.on('transaction', onTx);
    });
    await client.request({ command: 'submit', tx_blob: signed.tx_blob });
    await crossed;
    const killedPid = server.child.pid!;
    await rig.kill();

    // While it is down the ledger runs on: a buyer takes the whole lowest sell offer and more, so
    // the ladder is short whatever the killed round managed to post.
    const lowest = (await sellOffers())
      .map((o) => new Decimal((o.taker_gets as { value: string }).value))
      .sort((a, b) => a.cmp(b))[0]!;
    const taken = await submitAndWait(client, buyTx(lowest.mul(3).toFixed(6)), buyer);
    expect((taken.meta as { TransactionResult: string }).TransactionResult).toBe('tesSUCCESS');

    // The curve row holds the killed process's lease, ten minutes from its end.
    const database = await rig.openDatabase();
    let curve: CurveRow;
    let holder: string;
    try {
      const [row] = await database.db
        .select()
        .from(bondingCurves)
        .where(eq(bondingCurves.issuerAddress, issuer));
      holder =
        row?.keeperOwner?.startsWith(`${hostname()}:${killedPid}/`) === true
          ? row.keeperOwner
          : `${hostname()}:${killedPid}/0123456789ab`;
      [curve] = (await database.db
        .update(bondingCurves)
        .set({ keeperOwner: holder, keeperUntil: new Date(Date.now() + LEASE_LEFT_MS) })
        .where(eq(bondingCurves.issuerAddress, issuer))
        .returning()) as [CurveRow];
    } finally {
      await database.close();
    }
    const before = await ladderGap(curve, await validatedIndex());
    expect(before.gap, 'the ladder is short before the restart').toBeGreaterThan(0);

    // Restart, and watch ledger by ledger from the one validated when it is up.
    server = await rig.start();
    const upAt = performance.now();
    const restartLedger = await validatedIndex();
    const back = await new Promise<{ ledger: number; ms: number }>((resolve, reject) => {
      const check = async (index: number) => {
        const { gap } = await ladderGap(curve, index);
        if (gap === 0) return resolve({ ledger: index, ms: performance.now() - upAt });
        if (index > restartLedger + 2)
          reject(new Error(`ladder short by ${gap} at ledger ${index - restartLedger}`));
      };
      const onClosed = (ev: LedgerStream) => {
        void check(ev.ledger_index)
          .catch(reject)
          .finally(() => undefined);
      };
      client.on('ledgerClosed', onClosed);
      void check(restartLedger).catch(reject);
      setTimeout(() => reject(new Error('no ladder within 60 s of the restart')), 60_000).unref();
    }).finally(() => client.removeAllListeners('ledgerClosed'));
    console.warn(
      `ladder back ${back.ledger - restartLedger} ledger(s) and ${Math.round(back.ms)} ms after the restart ` +
        `(validated ledger ${restartLedger} at the restart; the dead lease had ${Math.round(LEASE_LEFT_MS / 60_000)} min left)`,
    );
    expect(back.ledger - restartLedger).toBeLessThanOrEqual(2);
    expect(before.chunks).toBeGreaterThan(2);
  }, 300_000);
});

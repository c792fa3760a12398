import { pathToFileURL } from 'node:url';
import Decimal from 'decimal.js';
import { Client, type SubmittableTransaction, type Wallet } from 'xrpl';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import { curveLaunchBody, outsideWallets, startCloser } from '../test/bonding/bonding-world';
import { fundedAccount } from '../test/listing/issuer-fixture';
import { ammLaunchBody, fundedWallet, runDeploy } from '../test/helpers/trading-world';
import { until } from '../test/helpers/wait';
import { createWalletTestApp } from '../test/wallets/wallet-app';
import { submitAndWait } from '../test/helpers/submit-and-wait';

// Issue 37's sniper bench, on the embedded ledger through xrpl.js as bots trade: a fresh pool (100 XRP,
// 1,000,000 tokens, 0.5% fee), 20 bots buying 10,000 tokens each in the pool's first ledger, then one
// buyer of 10,000 after them. Printed: XRP per token each group paid (network fees left out).
// Two launches: unprotected, and with the issuer's TransferRate at 50% during the first ledger —
// half the bots buy with Payment, half with OfferCreate (docs/launch-protection.md: only the
// Payments pay it). Run: `npx tsx bench/snipers.ts` in apps/server. `--curve`: a curve launch's
// window; `--window`: an instant launch's window (its pre-pool ladder, then the pool).

const BOTS = 20;
const BUY = '10000';
const IOC = 0x00020000;
/** Closes only when the bench closes one (setCloseInterval refuses 0). */
const MANUAL = 3_600_000;

interface Group {
  label: string;
  tokens: Decimal;
  drops: Decimal;
}

async function ok(client: Client, tx: SubmittableTransaction, w: Wallet): Promise<void> {
  const r = await submitAndWait(client, tx, w);
  const result = (r.meta as { TransactionResult: string }).TransactionResult;
  if (result !== 'tesSUCCESS') throw new Error(`${tx.TransactionType}: ${result}`);
}

async function launch(client: Client, transferRate: number) {
  const issuer = await fundedAccount(client, 100);
  const hot = await fundedAccount(client, 300);
  const token = { currency: 'SNP', issuer: issuer.address };
  await ok(client, { TransactionType: 'AccountSet', Account: issuer.address, SetFlag: 8 }, issuer);
  await ok(
    client,
    { TransactionType: 'TrustSet', Account: hot.address, LimitAmount: { ...token, value: '1000000' } },
    hot,
  );
  await ok(
    client,
    {
      TransactionType: 'Payment',
      Account: issuer.address,
      Destination: hot.address,
      Amount: { ...token, value: '1000000' },
    },
    issuer,
  );
  await ok(
    client,
    {
      TransactionType: 'AMMCreate',
      Account: hot.address,
      Amount: '100000000',
      Amount2: { ...token, value: '1000000' },
      TradingFee: 500,
    },
    hot,
  );
  if (transferRate)
    await ok(
      client,
      { TransactionType: 'AccountSet', Account: issuer.address, TransferRate: transferRate },
      issuer,
    );
  return { issuer, token };
}

async function buyers(
  client: Client,
  token: { currency: string; issuer: string },
  n: number,
): Promise<Wallet[]> {
  const out: Wallet[] = [];
  for (let i = 0; i < n; i++) {
    const w = await fundedAccount(client, 100);
    await ok(
      client,
      { TransactionType: 'TrustSet', Account: w.address, LimitAmount: { ...token, value: '1000000' } },
      w,
    );
    out.push(w);
  }
  return out;
}

const buyTx = (
  w: Wallet,
  token: { currency: string; issuer: string },
  kind: 'payment' | 'offer',
): SubmittableTransaction =>
  kind === 'payment'
    ? {
        TransactionType: 'Payment',
        Account: w.address,
        Destination: w.address,
        Amount: { ...token, value: BUY },
        SendMax: '50000000',
      }
    : {
        TransactionType: 'OfferCreate',
        Account: w.address,
        TakerPays: { ...token, value: BUY },
        TakerGets: '50000000',
        Flags: IOC,
      };

async function state(client: Client, w: Wallet, issuer: string) {
  const info = await client.request({
    command: 'account_info',
    account: w.address,
    ledger_index: 'validated',
  });
  const lines = await client.request({
    command: 'account_lines',
    account: w.address,
    peer: issuer,
    ledger_index: 'validated',
  });
  return {
    drops: new Decimal(info.result.account_data.Balance),
    tokens: new Decimal(lines.result.lines[0]?.balance ?? 0),
  };
}

/** Submits every buy into the same open ledger, closes it, and sums what each group paid and got. */
async function firstLedger(
  ledger: StandaloneLedger,
  client: Client,
  token: { currency: string; issuer: string },
  bots: Array<{ w: Wallet; kind: 'payment' | 'offer'; group: Group }>,
): Promise<void> {
  const before = await Promise.all(bots.map((b) => state(client, b.w, token.issuer)));
  const signed = await Promise.all(
    bots.map(async (b) => {
      const prepared = await client.autofill(buyTx(b.w, token, b.kind));
      return { ...b, fee: new Decimal(prepared.Fee!), blob: b.w.sign(prepared).tx_blob };
    }),
  );
  for (const s of signed) await client.request({ command: 'submit', tx_blob: s.blob });
  ledger.closeLedger();
  for (const [i, s] of signed.entries()) {
    const after = await state(client, s.w, token.issuer);
    s.group.tokens = s.group.tokens.plus(after.tokens.minus(before[i]!.tokens));
    s.group.drops = s.group.drops.plus(before[i]!.drops.minus(after.drops).minus(s.fee));
  }
}

const perToken = (g: Group) =>
  g.tokens.gt(0) ? g.drops.div(g.tokens).div(1e6).toSignificantDigits(6).toFixed() : '—';

async function run(ledger: StandaloneLedger, client: Client, transferRate: number): Promise<Group[]> {
  ledger.setCloseInterval(50);
  const { issuer, token } = await launch(client, transferRate);
  const wallets = await buyers(client, token, BOTS + 1);
  ledger.setCloseInterval(MANUAL);
  const payBots: Group = { label: 'bots, Payment', tokens: new Decimal(0), drops: new Decimal(0) };
  const offerBots: Group = { label: 'bots, OfferCreate', tokens: new Decimal(0), drops: new Decimal(0) };
  const late: Group = { label: 'late buyer (next ledger)', tokens: new Decimal(0), drops: new Decimal(0) };
  const bots = wallets.slice(0, BOTS).map((w, i) => {
    const kind: 'payment' | 'offer' = transferRate && i % 2 === 0 ? 'payment' : 'offer';
    return { w, kind, group: kind === 'payment' ? payBots : offerBots };
  });
  await firstLedger(ledger, client, token, bots);
  ledger.setCloseInterval(50);
  if (transferRate)
    await ok(client, { TransactionType: 'AccountSet', Account: issuer.address, TransferRate: 0 }, issuer);
  ledger.setCloseInterval(MANUAL);
  await firstLedger(ledger, client, token, [{ w: wallets[BOTS]!, kind: 'offer', group: late }]);
  return [payBots, offerBots, late].filter((g) => g.tokens.gt(0));
}

/**
 * The curve launch's anti-sniper window (issue 37): the same 20 bots, through xrpl.js, buying
 * CURVE_BUY tokens each in the first ledger they can (half Payment, half OfferCreate), then one
 * buyer of CURVE_BUY after the window; a curve of x0 = 30 XRP, the per-ledger cap off (so only the
 * surcharge differs), the window off and on (25% decaying over 120 s of ledger time, the defaults).
 */
const CURVE_BUY = '2000000';

async function curveRun(antiSniper: boolean): Promise<{ groups: Group[]; ratePercent: string }> {
  const t = await createWalletTestApp(
    { PLATFORM_BOOTSTRAP: 'on', RATE_LIMIT_WRITE_PER_MIN: '1000000', RATE_LIMIT_READ_PER_MIN: '1000000' },
    { closeIntervalMs: 0 },
  );
  const closer = startCloser(t, 100);
  try {
    await t.app.platform.accounts.bootstrapped();
    const settings = t.app.platform.settings;
    await settings.set('bonding_virtual_xrp', '30');
    await settings.set('bonding_snipe_ledgers', '0');
    const client = t.connection.client;
    const owner = await t.signInOwner();
    const w = await fundedWallet(t, owner);
    const wallets = await outsideWallets(client, BOTS + 1, 1000);
    const launched = await runDeploy(
      t,
      owner,
      { ...curveLaunchBody(w.id, { name: 'Sniped Curve', ticker: 'SNIPE' }), antiSniper },
      180_000,
    );
    const token = { currency: launched.currency, issuer: launched.issuer_address };
    // Every bot's trust line in one ledger, then the ladder as the keeper priced it.
    const lines = await Promise.all(
      wallets.map(async (b) => {
        const prepared = await client.autofill({
          TransactionType: 'TrustSet',
          Account: b.address,
          LimitAmount: { ...token, value: '1000000000' },
        });
        return b.sign(prepared).tx_blob;
      }),
    );
    for (const blob of lines) await client.request({ command: 'submit', tx_blob: blob });
    await until('the trust lines', async () => {
      const r = await client.request({
        command: 'account_lines',
        account: wallets[BOTS]!.address,
        ledger_index: 'validated',
      });
      return r.result.lines.length > 0;
    });
    await t.app.bonding.keeper!.idle();
    closer.pause();
    const bots = wallets.slice(0, BOTS).map((b, i) => ({
      w: b,
      kind: (i % 2 === 0 ? 'payment' : 'offer') as 'payment' | 'offer',
    }));
    const payBots: Group = { label: 'bots, Payment', tokens: new Decimal(0), drops: new Decimal(0) };
    const offerBots: Group = { label: 'bots, OfferCreate', tokens: new Decimal(0), drops: new Decimal(0) };
    const late: Group = { label: 'late buyer (after window)', tokens: new Decimal(0), drops: new Decimal(0) };
    const anti = await t.app.bonding.registry.antiSniper(token.issuer, token.currency);
    const ratePercent = anti ? new Decimal(anti.ppm.toString()).div(10_000).toFixed() : '0';
    await curveLedger(
      t.ledger,
      client,
      token,
      bots.map((b) => ({ ...b, group: b.kind === 'payment' ? payBots : offerBots })),
    );
    closer.resume();
    // After the window: ledger time past it and the ladder re-priced plain.
    await until(
      'the window over',
      async () => !(await t.app.bonding.registry.antiSniper(token.issuer, token.currency)),
      120_000,
    );
    // Two more closes so the keeper's plain ladder is on the ledger.
    const at = t.app.platform.submissions!.ledgerIndex;
    await until('two closes', () => t.app.platform.submissions!.ledgerIndex >= at + 2);
    await t.app.bonding.keeper!.idle();
    closer.pause();
    await curveLedger(t.ledger, client, token, [{ w: wallets[BOTS]!, kind: 'offer', group: late }]);
    closer.resume();
    return { groups: [payBots, offerBots, late], ratePercent };
  } finally {
    closer.stop();
    await t.close();
  }
}

const curveBuyTx = (
  w: Wallet,
  token: { currency: string; issuer: string },
  kind: 'payment' | 'offer',
  amount = CURVE_BUY,
): SubmittableTransaction =>
  kind === 'payment'
    ? {
        TransactionType: 'Payment',
        Account: w.address,
        Destination: w.address,
        Amount: { ...token, value: amount },
        SendMax: '500000000',
      }
    : {
        TransactionType: 'OfferCreate',
        Account: w.address,
        TakerPays: { ...token, value: amount },
        TakerGets: '500000000',
        Flags: IOC,
      };

async function curveLedger(
  ledger: Pick<StandaloneLedger, 'closeLedger'>,
  client: Client,
  token: { currency: string; issuer: string },
  bots: Array<{ w: Wallet; kind: 'payment' | 'offer'; group: Group }>,
  amount = CURVE_BUY,
): Promise<void> {
  const before = await Promise.all(bots.map((b) => state(client, b.w, token.issuer)));
  const signed = await Promise.all(
    bots.map(async (b) => {
      const prepared = await client.autofill(curveBuyTx(b.w, token, b.kind, amount));
      return { ...b, fee: new Decimal(prepared.Fee!), blob: b.w.sign(prepared).tx_blob };
    }),
  );
  for (const s of signed) await client.request({ command: 'submit', tx_blob: s.blob });
  ledger.closeLedger();
  for (const [i, s] of signed.entries()) {
    const after = await state(client, s.w, token.issuer);
    s.group.tokens = s.group.tokens.plus(after.tokens.minus(before[i]!.tokens));
    s.group.drops = s.group.drops.plus(before[i]!.drops.minus(after.drops).minus(s.fee));
  }
}

/**
 * An instant launch with the anti-sniper window (issue 37, docs/launch-protection.md): the same pool as
 * the unprotected launch above (100 XRP, 1,000,000 tokens, 0.5% fee), launched through the deploy with
 * the window (25% decaying over 120 s of ledger time, the defaults): 20 bots buy BUY tokens each
 * through xrpl.js in the first ledger they can (half Payment, half OfferCreate) — on the window's
 * ladder — then, once the window is over and the pool is open, one buyer of BUY from the pool.
 */
async function windowRun(): Promise<{ groups: Group[]; ratePercent: string }> {
  const t = await createWalletTestApp(
    { PLATFORM_BOOTSTRAP: 'on', RATE_LIMIT_WRITE_PER_MIN: '1000000', RATE_LIMIT_READ_PER_MIN: '1000000' },
    { closeIntervalMs: 0 },
  );
  const closer = startCloser(t, 100);
  try {
    await t.app.platform.accounts.bootstrapped();
    const client = t.connection.client;
    const owner = await t.signInOwner();
    const w = await fundedWallet(t, owner, 3);
    const wallets = await outsideWallets(client, BOTS + 1, 1000);
    const launched = await runDeploy(
      t,
      owner,
      {
        ...ammLaunchBody(w.id, { name: 'Sniped Window', ticker: 'SNWIN' }),
        ammFee: '0.5',
        blackholeIssuer: true,
        burnLp: true,
        antiSniper: true,
      },
      180_000,
    );
    const token = { currency: launched.currency, issuer: launched.issuer_address };
    const lines = await Promise.all(
      wallets.map(async (b) => {
        const prepared = await client.autofill({
          TransactionType: 'TrustSet',
          Account: b.address,
          LimitAmount: { ...token, value: '1000000000' },
        });
        return b.sign(prepared).tx_blob;
      }),
    );
    for (const blob of lines) await client.request({ command: 'submit', tx_blob: blob });
    await until('the trust lines', async () => {
      const r = await client.request({
        command: 'account_lines',
        account: wallets[BOTS]!.address,
        ledger_index: 'validated',
      });
      return r.result.lines.length > 0;
    });
    await t.app.bonding.keeper!.idle();
    closer.pause();
    const payBots: Group = { label: 'bots, Payment', tokens: new Decimal(0), drops: new Decimal(0) };
    const offerBots: Group = { label: 'bots, OfferCreate', tokens: new Decimal(0), drops: new Decimal(0) };
    const late: Group = { label: 'late buyer (pool open)', tokens: new Decimal(0), drops: new Decimal(0) };
    const anti = await t.app.bonding.registry.antiSniper(token.issuer, token.currency);
    const ratePercent = anti ? new Decimal(anti.ppm.toString()).div(10_000).toFixed() : '0';
    await curveLedger(
      t.ledger,
      client,
      token,
      wallets.slice(0, BOTS).map((b, i) => {
        const kind = (i % 2 === 0 ? 'payment' : 'offer') as 'payment' | 'offer';
        return { w: b, kind, group: kind === 'payment' ? payBots : offerBots };
      }),
      BUY,
    );
    closer.resume();
    await until(
      'the pool open',
      async () =>
        (await t.app.bonding.registry.byIssuer(token.issuer, token.currency))?.status === 'graduated',
      240_000,
    );
    closer.pause();
    await curveLedger(t.ledger, client, token, [{ w: wallets[BOTS]!, kind: 'offer', group: late }], BUY);
    closer.resume();
    return { groups: [payBots, offerBots, late], ratePercent };
  } finally {
    closer.stop();
    await t.close();
  }
}

export async function benchWindowSnipers(): Promise<void> {
  const { groups, ratePercent } = await windowRun();
  process.stdout.write(
    `instant launch with the anti-sniper window (${ratePercent}% in the bots' ledger): ${BOTS} bots × ${BUY} tokens on its ladder in the first ledger, then 1 × ${BUY} from the pool after the window\n`,
  );
  for (const g of groups)
    process.stdout.write(
      `  ${g.label.padEnd(26)} ${g.tokens.toFixed().padStart(9)} tokens  ${perToken(g)} XRP/token\n`,
    );
}

export async function benchCurveSnipers(): Promise<void> {
  for (const on of [false, true]) {
    const { groups, ratePercent } = await curveRun(on);
    process.stdout.write(
      `curve launch, anti-sniper window ${on ? `on (${ratePercent}% in the bots' ledger)` : 'off'}: ${BOTS} bots × ${CURVE_BUY} tokens in the first ledger, then 1 × ${CURVE_BUY} after the window\n`,
    );
    for (const g of groups)
      process.stdout.write(
        `  ${g.label.padEnd(26)} ${g.tokens.toFixed().padStart(9)} tokens  ${perToken(g)} XRP/token\n`,
      );
  }
}

export async function benchSnipers(): Promise<void> {
  const ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 50 });
  const client = new Client(ledger.url);
  await client.connect();
  try {
    for (const [name, rate] of [
      ['unprotected launch', 0],
      ['TransferRate 50% in the first ledger', 1_500_000_000],
    ] as const) {
      const groups = await run(ledger, client, rate);
      process.stdout.write(
        `${name}: ${BOTS} bots × ${BUY} tokens in the pool's first ledger, then 1 × ${BUY}\n`,
      );
      for (const g of groups)
        process.stdout.write(
          `  ${g.label.padEnd(26)} ${g.tokens.toFixed().padStart(8)} tokens  ${perToken(g)} XRP/token\n`,
        );
    }
  } finally {
    await client.disconnect();
    await ledger.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  (process.argv.includes('--curve')
    ? benchCurveSnipers()
    : process.argv.includes('--window')
      ? benchWindowSnipers()
      : benchSnipers()
  ).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

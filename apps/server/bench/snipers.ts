import { pathToFileURL } from 'node:url';
import Decimal from 'decimal.js';
import { Client, type SubmittableTransaction, type Wallet } from 'xrpl';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import { fundedAccount } from '../test/listing/issuer-fixture';
import { submitAndWait } from '../test/helpers/submit-and-wait';

// Issue 37's sniper bench, on the embedded ledger through xrpl.js as bots trade: a fresh pool (100 XRP,
// 1,000,000 tokens, 0.5% fee), 20 bots buying 10,000 tokens each in the pool's first ledger, then one
// buyer of 10,000 after them. Printed: XRP per token each group paid (network fees left out).
// Two launches: unprotected, and with the issuer's TransferRate at 50% during the first ledger —
// half the bots buy with Payment, half with OfferCreate (docs/launch-protection.md: only the
// Payments pay it). Run: `npx tsx bench/snipers.ts` in apps/server.

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
  benchSnipers().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import {
  OWNER_USER_ID,
  RLUSD_CURRENCY_HEX,
  type DeployResult,
  Decimal,
  decimalToDrops,
  deployRequestSchema,
  TRUST_LINE_MAX_LIMIT,
} from '@ledgerpad/shared';
import { OfferCreateFlags, rippleTimeToUnixTime, Wallet } from 'xrpl';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import { PLATFORM_ROLES } from '../../platform/accounts';
import { insertWallet, platformWallet } from '../../platform/custody';
import { wallets } from '../../platform/custody-schema';
import { jobs as jobsTable, type JobContext } from '../../platform/jobs';
import type { DeployService } from '../deploy';
import { TokenRegistry } from '../tokens';
import { ImageStore, loadSharp } from '../uploads';
import { documented } from '../../plugins/access';

// The demo market of the embedded default: on an empty database, a dozen tokens deployed through
// the real deploy job (XRP and RLUSD pairs, blackholed and not, generated logos and links), then
// demo traders swapping through the ledger, so a newcomer's first `npm start` shows a living list.
// The seed is a persisted job (it resumes after a crash and runs once across instances); the slow
// trading afterwards is an owned loop.

export const DEMO_SEED_JOB = 'demo-seed';
const DEPLOYERS = 3;
/** The creator's first buy on the demo's good-practice launches (docs/launch-protection.md). */
const DEMO_FIRST_BUY_XRP = '10';
const TRADERS = 6;
const BURST_TRADES = 240;

interface DemoToken {
  name: string;
  ticker: string;
  pair: 'XRP' | 'RLUSD';
  blackhole: boolean;
  supply: string;
  liquidity: string;
  dev: string;
  fee: string;
  /** A bonding-curve launch (docs/bonding-curve.md), with its own virtual XRP reserve if given. */
  curve?: { virtualXrp?: string };
}

const TOKENS: DemoToken[] = [
  {
    name: 'Harbor Light',
    ticker: 'HRBR',
    pair: 'XRP',
    blackhole: true,
    supply: '1000000000',
    liquidity: '4000',
    dev: '5',
    fee: '0.3',
  },
  {
    name: 'Ledger Cat',
    ticker: 'LCAT',
    pair: 'XRP',
    blackhole: true,
    supply: '500000000',
    liquidity: '2500',
    dev: '2',
    fee: '0.5',
  },
  {
    name: 'Quiet Orbit',
    ticker: 'ORBT',
    pair: 'XRP',
    blackhole: false,
    supply: '21000000',
    liquidity: '1500',
    dev: '10',
    fee: '0.3',
  },
  {
    name: 'Salt Flats',
    ticker: 'SALT',
    pair: 'RLUSD',
    blackhole: true,
    supply: '100000000',
    liquidity: '3000',
    dev: '0',
    fee: '0.25',
  },
  {
    name: 'Night Market',
    ticker: 'NITE',
    pair: 'XRP',
    blackhole: true,
    supply: '777777777',
    liquidity: '1200',
    dev: '3',
    fee: '1',
  },
  {
    name: 'Copper Fox',
    ticker: 'CFOX',
    pair: 'XRP',
    blackhole: false,
    supply: '10000000',
    liquidity: '800',
    dev: '15',
    fee: '0.3',
  },
  {
    name: 'Tidal Bloom',
    ticker: 'TIDE',
    pair: 'RLUSD',
    blackhole: false,
    supply: '50000000',
    liquidity: '1500',
    dev: '5',
    fee: '0.5',
  },
  {
    name: 'Paper Moon',
    ticker: 'MOON',
    pair: 'XRP',
    blackhole: true,
    supply: '1000000000000',
    liquidity: '600',
    dev: '0',
    fee: '0.3',
  },
  {
    name: 'Glass Whale',
    ticker: 'WHAL',
    pair: 'XRP',
    blackhole: true,
    supply: '250000000',
    liquidity: '5000',
    dev: '1',
    fee: '0.2',
  },
  {
    name: 'Amber Route',
    ticker: 'AMBR',
    pair: 'XRP',
    blackhole: false,
    supply: '42000000',
    liquidity: '900',
    dev: '8',
    fee: '0.4',
  },
  {
    name: 'Iron Sparrow',
    ticker: 'SPRW',
    pair: 'XRP',
    blackhole: true,
    supply: '88000000',
    liquidity: '700',
    dev: '4',
    fee: '0.3',
  },
  {
    name: 'Velvet Rain',
    ticker: 'RAIN',
    pair: 'RLUSD',
    blackhole: true,
    supply: '12000000',
    liquidity: '1000',
    dev: '2',
    fee: '0.3',
  },
  // Two fair launches on a bonding curve: one the traders move along the platform's curve, one so
  // small (15 XRP virtual reserve: it graduates at about 42.6 XRP raised) that it graduates into its
  // AMM pool during the seed.
  {
    name: 'Sprout Curve',
    ticker: 'SPRT',
    pair: 'XRP',
    blackhole: true,
    supply: '1000000000',
    liquidity: '0',
    dev: '0',
    fee: '0.3',
    curve: {},
  },
  {
    name: 'Comet Curve',
    ticker: 'COMET',
    pair: 'XRP',
    blackhole: true,
    supply: '1000000000',
    liquidity: '0',
    dev: '0',
    fee: '0.3',
    curve: { virtualXrp: '15' },
  },
];

const PALETTE = ['#1461db', '#e4572e', '#17bebb', '#ffc914', '#76b041', '#9b5de5', '#f15bb5', '#00bbf9'];

/** A 256×256 PNG: two colour bands and a ring, from the ticker (no fonts needed to render it). */
async function logoFor(ticker: string, i: number): Promise<Buffer> {
  const a = PALETTE[i % PALETTE.length]!;
  const b = PALETTE[(i * 3 + 2) % PALETTE.length]!;
  const angle = (ticker.charCodeAt(0) * 7) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
    <rect width="256" height="256" rx="48" fill="url(#g)"/>
    <circle cx="128" cy="128" r="${60 + (i % 4) * 10}" fill="none" stroke="#ffffff" stroke-opacity=".85" stroke-width="18"/>
    <circle cx="${96 + (i % 5) * 16}" cy="${100 + (i % 3) * 20}" r="14" fill="#ffffff"/>
  </svg>`;
  return (await loadSharp())(Buffer.from(svg)).png().toBuffer();
}

export interface DemoDeps {
  platform: Platform;
  tokens: TokenRegistry;
  deploy: DeployService;
}

/** Whether the config asks for the demo market (the embedded stand-alone network only). */
function demoWanted(c: Pick<Config, 'XRPL_NETWORK' | 'DEMO_SEED' | 'NODE_ENV'>): boolean {
  if (c.XRPL_NETWORK !== 'standalone') return false;
  if (c.DEMO_SEED === 'on' || c.DEMO_SEED === 'true') return true;
  if (c.DEMO_SEED === 'off' || c.DEMO_SEED === 'false') return false;
  return c.NODE_ENV !== 'test';
}

function demoEnabled(platform: Platform): boolean {
  return demoWanted(platform.config) && Boolean(platform.submissions);
}

/**
 * How far back the demo's history reaches: a ledger the demo seed will trade on starts this far
 * behind the wall clock, so the launches and swaps happen with real ledger closes spread over these
 * days, and the seed moves the clock forward to the present as it trades (`ledger_clock`).
 */
const DEMO_HISTORY_DAYS = 3;
export const DEMO_HISTORY_MS = DEMO_HISTORY_DAYS * 86_400_000;

/**
 * The clock offset to start the embedded ledger with (main.ts and the test app, before the app is
 * built): the demo's history when the demo seed will trade on this ledger — a fresh ledger on a
 * database without listed tokens, or a seed that a restart interrupted (the ledger never closes
 * before its last close, so the resumed seed's next move puts it back where its history was). Else
 * 0: the ledger runs on real time.
 */
export async function demoLedgerClockOffsetMs(
  config: Pick<Config, 'XRPL_NETWORK' | 'DEMO_SEED' | 'NODE_ENV'>,
  db: Db,
  freshLedger: boolean,
): Promise<number> {
  if (!demoWanted(config)) return 0;
  const [seed] = await db
    .select({ status: jobsTable.status })
    .from(jobsTable)
    .where(eq(jobsTable.key, DEMO_SEED_JOB));
  if (seed) return seed.status === 'queued' || seed.status === 'running' ? DEMO_HISTORY_MS : 0;
  // The same test as registerDemo's enqueue: no seed will run on a database that lists tokens.
  const listed = await new TokenRegistry(db).listActive(1);
  return freshLedger && listed.length === 0 ? DEMO_HISTORY_MS : 0;
}

/** The embedded ledger's clock offset; 0 for a ledger without `ledger_clock` (not ours). */
async function ledgerClockOffset(platform: Platform): Promise<number> {
  try {
    const r = (await platform.connection!.client.request({ command: 'ledger_clock' } as never)) as {
      result: { offset_ms: number };
    };
    return r.result.offset_ms;
  } catch {
    return 0;
  }
}

/**
 * Moves the embedded ledger's clock forward to `offsetMs` behind the wall clock (never back: a
 * resumed seed may ask for a point it already passed). A ledger that is not ours (no
 * `ledger_clock`) keeps its own time.
 */
async function moveLedgerClock(platform: Platform, offsetMs: number): Promise<void> {
  const client = platform.connection?.client;
  if (!client) return;
  // xrpl.js types only rippled's commands; `ledger_clock` is the embedded ledger's extension.
  const request = (params: Record<string, unknown>) =>
    client.request({ command: 'ledger_clock', ...params } as never) as Promise<{
      result: { offset_ms: number };
    }>;
  try {
    const { result } = await request({});
    if (offsetMs < result.offset_ms) await request({ offset_ms: Math.max(0, Math.round(offsetMs)) });
  } catch {
    // Not the embedded ledger, or an older one: its clock is the wall clock.
  }
}

/** A validated ledger's close time (the ledger's clock, which may run behind the wall clock). */
async function ledgerCloseDate(platform: Platform, ledgerIndex: number | 'validated'): Promise<Date> {
  const r = await platform.connection!.client.request({ command: 'ledger', ledger_index: ledgerIndex });
  return new Date(rippleTimeToUnixTime(r.result.ledger.close_time));
}

/**
 * A launch's `created_at` is the close time of its deploy's last ledger (days back while the demo's
 * clock runs behind), so the list's Age agrees with the chart. Only ever moved earlier.
 */
async function dateLaunch(deps: DemoDeps, t: DeployResult): Promise<void> {
  const indexes = Object.values(t.ledgers ?? {}).filter((n): n is number => typeof n === 'number');
  const launchedAt = await ledgerCloseDate(
    deps.platform,
    indexes.length ? Math.max(...indexes) : 'validated',
  );
  const row = await deps.tokens.byIssuer(t.issuer_address, t.currency);
  if (row && row.createdAt > launchedAt) await deps.tokens.update(row.id, { createdAt: launchedAt });
}

/** RLUSD a demo trader keeps for the RLUSD-paired tokens; topped up from the XRP/RLUSD pool. */
const TRADER_RLUSD_MIN = new Decimal(100);
const TRADER_RLUSD_SWAP_DROPS = '1000000000';

/**
 * Gives each trader an RLUSD line and RLUSD from the platform's pool when it holds less than
 * TRADER_RLUSD_MIN (the seed, and each start of the slow trading for markets seeded before). Intent
 * keys are per trader and `salt`: a resumed seed does not swap twice.
 */
async function fundTradersRlusd(
  deps: DemoDeps,
  traders: Array<{ address: string }>,
  salt: string,
): Promise<number> {
  const { platform } = deps;
  const rlusdIssuer = (await platformWallet(platform.database.db, PLATFORM_ROLES.rlusdIssuer))?.address;
  const client = platform.connection?.client;
  if (!rlusdIssuer || !client || !platform.submissions) return 0;
  const rlusd = { currency: RLUSD_CURRENCY_HEX, issuer: rlusdIssuer };
  let funded = 0;
  for (const w of traders) {
    const lines = await client.request({
      command: 'account_lines',
      account: w.address,
      peer: rlusdIssuer,
      ledger_index: 'validated',
    });
    const line = lines.result.lines.find((l) => l.currency === RLUSD_CURRENCY_HEX);
    if (line && new Decimal(line.balance).gte(TRADER_RLUSD_MIN)) continue;
    if (!line)
      await platform.submissions.submit({
        intentKey: `demo:trader-rlusd-line:${w.address}:${salt}`,
        account: w.address,
        tx: { TransactionType: 'TrustSet', LimitAmount: { ...rlusd, value: '1000000000' } },
        purpose: 'demo',
      });
    const swap = await platform.submissions.submit({
      intentKey: `demo:trader-rlusd-swap:${w.address}:${salt}`,
      account: w.address,
      tx: {
        TransactionType: 'OfferCreate',
        TakerGets: TRADER_RLUSD_SWAP_DROPS,
        TakerPays: { ...rlusd, value: '1' },
        Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
      },
      purpose: 'demo',
    });
    if (swap.status === 'success') funded++;
  }
  return funded;
}

/** What GET /api/demo/status answers: whether the market a visitor sees is the simulated demo one. */
export type DemoStatus = 'off' | 'seeding' | 'ready' | 'failed';

/**
 * Registers the seed job and, once the app is ready, enqueues it on an empty database; and the
 * public status route, so the site can say the market is a demo and tests can await the seed.
 */
export function registerDemo(app: FastifyInstance, deps: DemoDeps): void {
  const { platform } = deps;
  const enabled = demoEnabled(platform);
  app.get('/api/demo/status', documented('/api/demo/status'), async (): Promise<{ demo: DemoStatus }> => {
    if (!enabled) return { demo: 'off' };
    const [seed] = await platform.database.db
      .select({ status: jobsTable.status })
      .from(jobsTable)
      .where(eq(jobsTable.key, DEMO_SEED_JOB));
    if (seed?.status === 'completed') return { demo: 'ready' };
    if (seed?.status === 'failed') return { demo: 'failed' };
    // No job on a database that had tokens before the demo was turned on: nothing is being seeded.
    return { demo: seed ? 'seeding' : 'off' };
  });
  if (!enabled) return;
  const onReady = (fn: () => Promise<void>) => app.addHook('onReady', fn);
  const onClose = (fn: () => Promise<void>) => app.addHook('onClose', fn);
  platform.jobs.register(DEMO_SEED_JOB, (ctx) => runSeed(ctx, deps), {
    maxAttempts: 10,
    completedLog: 'info',
  });
  const trading = new DemoTrading(deps);
  onReady(async () => {
    const listed = await deps.tokens.listActive(1);
    const [seeded] = await platform.database.db
      .select({ status: jobsTable.status })
      .from(jobsTable)
      .where(eq(jobsTable.key, DEMO_SEED_JOB));
    // A ledger started behind the clock for a seed that will not run catches up at once (e.g. a
    // wiped database on a fresh ledger the start-up check could not foresee).
    const seeding = seeded ? seeded.status === 'queued' || seeded.status === 'running' : listed.length === 0;
    if (!seeding) await moveLedgerClock(platform, 0);
    // On an empty database, or to await a seed a restart interrupted (then trade once it is done);
    // the key makes the enqueue once-only across restarts and instances.
    if (listed.length === 0 || seeding) {
      const job = await platform.jobs.enqueue({
        type: DEMO_SEED_JOB,
        userId: null,
        payload: {},
        key: DEMO_SEED_JOB,
      });
      void platform.jobs
        .waitFor(job.id, { timeoutMs: 30 * 60_000 })
        .then(async (done) => {
          // A seed that failed for good leaves no history to build: the ledger returns to the present.
          if (done.status !== 'completed') return moveLedgerClock(platform, 0);
          trading.start();
        })
        .catch(() => undefined);
    } else if (seeded?.status === 'completed') {
      trading.start();
    }
  });
  onClose(() => trading.stop());
}

async function demoWallets(
  deps: DemoDeps,
  jobId: string,
  role: string,
  count: number,
  userId: number | null,
) {
  const db = deps.platform.database.db;
  const found = await db
    .select()
    .from(wallets)
    .where(and(eq(wallets.role, role), eq(wallets.name, `demo:${jobId}`)));
  const out = found.map((w) => ({ id: w.id, address: w.address }));
  while (out.length < count) {
    const row = await insertWallet(db, deps.platform.keyring, {
      userId,
      role,
      name: `demo:${jobId}`,
      wallet: Wallet.generate(),
    });
    out.push({ id: row.id, address: row.address });
  }
  return out.slice(0, count);
}

async function runSeed(ctx: JobContext, deps: DemoDeps): Promise<{ tokens: number; trades: number }> {
  const { platform } = deps;
  const submissions = platform.submissions!;
  await platform.accounts.bootstrapped();
  const genesis = (await platformWallet(platform.database.db, PLATFORM_ROLES.genesis))!.address;
  const rlusdIssuer = (await platformWallet(platform.database.db, PLATFORM_ROLES.rlusdIssuer))?.address;

  const made = await ctx.step('wallets', async () => ({
    deployers: await demoWallets(deps, ctx.jobId, 'user', DEPLOYERS, OWNER_USER_ID),
    // Owned by the platform owner so the one-live-wallet-per-platform-role rule does not apply.
    traders: await demoWallets(deps, ctx.jobId, 'demo_trader', TRADERS, OWNER_USER_ID),
  }));
  await ctx.step('fund', async () => {
    const all = [...made.deployers, ...made.traders];
    const outcomes = await Promise.all(
      all.map((w, i) =>
        submissions.submit({
          intentKey: ctx.intentKey('fund', i),
          account: genesis,
          tx: {
            TransactionType: 'Payment',
            Destination: w.address,
            Amount: i < DEPLOYERS ? '60000000000' : '20000000000',
          },
          purpose: 'demo',
        }),
      ),
    );
    return outcomes.map((o) => o.result);
  });
  // RLUSD-paired launches need RLUSD in their deployer wallets: from the platform's pool, by swap.
  await ctx.step('rlusd', async () => {
    if (!rlusdIssuer) return [];
    const results: string[] = [];
    for (const [i, w] of made.deployers.entries()) {
      const rlusd = { currency: RLUSD_CURRENCY_HEX, issuer: rlusdIssuer };
      await submissions.submit({
        intentKey: ctx.intentKey('rlusd-line', i),
        account: w.address,
        tx: { TransactionType: 'TrustSet', LimitAmount: { ...rlusd, value: '1000000000' } },
        purpose: 'demo',
      });
      const swap = await submissions.submit({
        intentKey: ctx.intentKey('rlusd-swap', i),
        account: w.address,
        tx: {
          TransactionType: 'OfferCreate',
          TakerGets: '4000000000',
          TakerPays: { ...rlusd, value: '1' },
          Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
        },
        purpose: 'demo',
      });
      results.push(swap.result);
    }
    return results;
  });
  const logos = await ctx.step('logos', async () => {
    const store = new ImageStore(platform.database.db);
    const urls: string[] = [];
    for (const [i, t] of TOKENS.entries())
      urls.push(`/cdn/logos/${await store.put(await logoFor(t.ticker, i), 'png')}`);
    return urls;
  });

  // Three launches at a time, one per deployer wallet (a wallet runs one deploy at a time).
  const launched: DeployResult[] = [];
  for (let round = 0; round < TOKENS.length; round += DEPLOYERS) {
    const batch = TOKENS.slice(round, round + DEPLOYERS);
    const results = await ctx.parallel(
      batch.map((t, j) => {
        const i = round + j;
        return [
          `deploy-${t.ticker}`,
          async () => {
            const key = `demo-deploy:${ctx.jobId}:${t.ticker}`;
            const [existing] = await platform.database.db
              .select({ id: jobsTable.id })
              .from(jobsTable)
              .where(eq(jobsTable.key, key));
            const jobId =
              existing?.id ??
              (
                await deps.deploy.startJob(
                  OWNER_USER_ID,
                  // Parsed as a user's form is: the demo's catalog meets the same rules and defaults.
                  parseInput(deployRequestSchema, {
                    name: t.name,
                    ticker: t.ticker,
                    description: `${t.name} is a demo token of the embedded ledger, launched by the demo seed.`,
                    supply: t.supply,
                    devAllocation: t.dev,
                    liquidityAmount: t.liquidity,
                    ammFee: t.fee,
                    logoUrl: logos[i]!,
                    twitterLink: `https://x.com/${t.ticker.toLowerCase()}_demo`,
                    telegramLink: i % 2 === 0 ? `https://t.me/${t.ticker.toLowerCase()}_demo` : '',
                    websiteLink: `https://${t.ticker.toLowerCase()}.example`,
                    blackholeIssuer: t.blackhole,
                    // Good practice shown (issue 37): a blackholed launch burns its LP too; the
                    // others keep it, and the risk panel tells the two apart.
                    burnLp: t.blackhole && !t.curve,
                    // …and locks its dev allocation in escrows (a 25% cliff after a day, the rest a
                    // month later: two escrows, docs/vesting.md), in the deploy's own ledgers.
                    ...(t.blackhole && !t.curve && new Decimal(t.dev).gt(0)
                      ? { vesting: { enabled: true, cliffPercent: '25', cliffHours: '24', months: 1 } }
                      : {}),
                    // …and its creator buys first, in the pool's own all-or-nothing Batch.
                    ...(t.blackhole && !t.curve && t.pair === 'XRP'
                      ? { firstBuyXrp: DEMO_FIRST_BUY_XRP }
                      : {}),
                    requireAuth: false,
                    liquidityPairType: t.pair,
                    launchType: t.curve ? 'bonding' : 'amm',
                    walletId: made.deployers[j]!.id,
                  }),
                  { jobKey: key, platform: true, virtualXrp: t.curve?.virtualXrp },
                )
              ).jobId;
            const job = await platform.jobs.waitFor(jobId, { timeoutMs: 10 * 60_000 });
            if (job.status !== 'completed') throw new Error(`demo deploy ${t.ticker}: ${job.error}`);
            const result = job.result as DeployResult;
            // Dated at once by its ledger time: a visitor watching the first start sees each token
            // arrive with its real age, not as brand new until the whole seed is done.
            await dateLaunch(deps, result);
            return result;
          },
        ] as const;
      }),
    );
    launched.push(...(results as DeployResult[]));
  }

  await ctx.step('trust-lines', async () => {
    await Promise.all(
      made.traders.flatMap((w, i) =>
        launched.map((t, k) =>
          submissions.submit({
            intentKey: ctx.intentKey('line', `${i}-${k}`),
            account: w.address,
            tx: {
              TransactionType: 'TrustSet',
              LimitAmount: { currency: t.currency, issuer: t.issuer_address, value: TRUST_LINE_MAX_LIMIT },
            },
            purpose: 'demo',
          }),
        ),
      ),
    );
    return true;
  });
  // Each launch is dated by its ledger time as its deploy completes (above); again here for a seed
  // resumed from an earlier version that dated them only now.
  await ctx.step('launch-dates', async () => {
    for (const t of launched) await dateLaunch(deps, t);
    return true;
  });
  // The traders hold RLUSD too, so the RLUSD-paired tokens trade (and chart) like the others.
  await ctx.step('rlusd-traders', () =>
    fundTradersRlusd(deps, made.traders, ctx.intentKey('trader-rlusd', 0)),
  );
  // The swaps, round by round, each round a step closer to the present: they spread over the
  // history the ledger started with. A round is a step, so a resumed seed goes on from the round it
  // was in, its clock target computed from the same stored starting offset.
  const trading = new DemoTrading(deps);
  const history = await ctx.step('history', () => (platform.connection ? ledgerClockOffset(platform) : 0));
  const rounds = Math.ceil(BURST_TRADES / TRADERS);
  let trades = 0;
  for (let r = 0; r < rounds; r++) {
    trades += await ctx.step(`trades-${r}`, async () => {
      if (history > 0) await moveLedgerClock(platform, Math.floor((history * (rounds - 1 - r)) / rounds));
      const ok = await Promise.all(made.traders.map(() => trading.tradeOnce()));
      return ok.filter(Boolean).length;
    });
  }
  // After the seed the ledger runs on real time.
  await ctx.step('clock-present', async () => {
    if (history > 0) await moveLedgerClock(platform, 0);
    return true;
  });
  return { tokens: launched.length, trades };
}

/** Demo traders buying and selling small amounts of the demo tokens against their pools. */
class DemoTrading {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  constructor(private readonly deps: DemoDeps) {}

  start(): void {
    const every = this.deps.platform.config.DEMO_TRADE_INTERVAL_MS;
    if (every <= 0 || this.timer) return;
    // Markets seeded before the traders held RLUSD get it now (once: the top-up skips funded traders).
    this.running = this.deps.platform.database.db
      .select({ address: wallets.address })
      .from(wallets)
      .where(eq(wallets.role, 'demo_trader'))
      .then((traders) => fundTradersRlusd(this.deps, traders, `start-${Date.now()}`))
      .catch(() => 0)
      .finally(() => (this.running = undefined));
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tradeOnce()
        .catch(() => false) // a refused or unreachable ledger just skips this tick
        .finally(() => (this.running = undefined));
    }, every);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One random swap by one random demo trader; false when the ledger refused it (e.g. no balance). */
  async tradeOnce(): Promise<boolean> {
    const { platform, tokens } = this.deps;
    const db = platform.database.db;
    const traders = await db
      .select({ address: wallets.address })
      .from(wallets)
      .where(eq(wallets.role, 'demo_trader'));
    // Both pairs: the traders hold XRP and RLUSD (the promoted RLUSD pairing needs a live chart too).
    const listed = (await tokens.listActive(100)).filter(
      (t) => t.deployerUserId === OWNER_USER_ID && t.source === 'deploy',
    );
    if (traders.length === 0 || listed.length === 0) return false;
    const trader = traders[randomInt(traders.length)]!.address;
    const token = listed[randomInt(listed.length)]!;
    const asset = (v: string) => ({ currency: token.currency, issuer: token.issuerAddress, value: v });
    // The token's own pair: XRP in drops, or RLUSD (about 2.2 per XRP on the demo ledger).
    const rlusdIssuer =
      token.liquidityPair === 'RLUSD'
        ? (await platformWallet(db, PLATFORM_ROLES.rlusdIssuer))?.address
        : undefined;
    if (token.liquidityPair === 'RLUSD' && !rlusdIssuer) return false;
    const quote = (units: number, tiny: boolean) =>
      rlusdIssuer
        ? { currency: RLUSD_CURRENCY_HEX, issuer: rlusdIssuer, value: tiny ? '0.000001' : String(units * 2) }
        : tiny
          ? '1'
          : decimalToDrops(units).toString();
    let tx: Record<string, unknown>;
    // Buys a little more often than it sells, so prices wander rather than only fall.
    if (randomInt(100) < 55) {
      tx = { TakerGets: quote(randomInt(2, 60), false), TakerPays: asset('0.000001') };
    } else {
      const lines = await platform.connection!.client.request({
        command: 'account_lines',
        account: trader,
        peer: token.issuerAddress,
        ledger_index: 'validated',
      });
      const held = new Decimal(lines.result.lines.find((l) => l.currency === token.currency)?.balance ?? '0');
      if (held.lte(0)) return false;
      // A tenth to a half of the holding, within the ledger's 15 significant digits.
      const part = held.mul(randomInt(10, 50)).div(100).toSignificantDigits(15, Decimal.ROUND_DOWN);
      tx = { TakerGets: asset(part.toFixed()), TakerPays: quote(0, true) };
    }
    const out = await platform.submissions!.submit({
      intentKey: `demo:trade:${randomUUID()}`,
      account: trader,
      tx: {
        TransactionType: 'OfferCreate',
        Flags: OfferCreateFlags.tfSell | OfferCreateFlags.tfImmediateOrCancel,
        ...tx,
      },
      purpose: 'demo',
    });
    return out.status === 'success';
  }
}

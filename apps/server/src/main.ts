import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pretty from 'pino-pretty';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { SERVER_DIR } from './paths';
import { configuredDatabase } from './scripts/run-script';
import { refusalReporter, type AdminCredentials } from 'xrpl-standalone/access';
import { createXrplConnection } from './ledger/connection';
import { startEmbeddedLedger } from './ledger/embedded-ledger';
import type { LocalLedgerRequest } from './ledger/local-ledger';
import { issueOwnerLink, ownerHasSignedIn, ownerLinkUrl } from './modules/auth';
import { demoLedgerClockOffsetMs } from './modules/demo';
import { serveMetrics } from './metrics-server';

// main.ts owns the process: configuration, the embedded services, listening and shutdown.

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Structured JSON lines in production (for log shippers); on a console, one readable line per event
 * (`12:00:01 INFO GET /api/wallets 200 3 ms`), written synchronously on the main thread.
 */
function consoleLogger(config: Config) {
  const format = config.LOG_FORMAT ?? (config.NODE_ENV === 'production' ? 'json' : 'pretty');
  if (format === 'json') return { level: config.LOG_LEVEL };
  return {
    level: config.LOG_LEVEL,
    stream: pretty({
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId,req,res,statusCode,ms,responseTime',
      colorize: process.stdout.isTTY,
    }),
  };
}

let stopping = false;

async function main(): Promise<void> {
  const config = readConfig();
  mkdirSync(config.dataDir, { recursive: true });
  const cleanups: Array<() => Promise<unknown>> = [];

  const database = await openDatabase(configuredDatabase(config));
  cleanups.push(() => database.close());

  let ledgerUrl = config.XRPL_URL;
  let local: LocalLedgerRequest | undefined;
  let admin: AdminCredentials | undefined;
  let closeIntervalMs: number | undefined;
  if (!ledgerUrl) {
    // The embedded stand-alone ledger: the default network of `npm start` and of every test. Loaded
    // only here, so a server pointed at a public network never loads it.
    // In this thread, or with LEDGER_THREAD=thread in a worker (ledger/embedded-ledger.ts): the
    // ledger's closes and the API's requests then don't queue behind each other.
    const ledgerDir = path.join(config.dataDir, 'ledger');
    const fresh = !existsSync(ledgerDir) || readdirSync(ledgerDir).length === 0;
    const ledger = await startEmbeddedLedger(
      {
        port: config.LEDGER_PORT,
        host: '127.0.0.1',
        dataDir: ledgerDir,
        closeIntervalMs: config.LEDGER_CLOSE_INTERVAL_MS,
        // Days back when the demo seed will trade on it (a fresh ledger, or a seed a restart
        // interrupted); the seed brings it to the present.
        clockOffsetMs: await demoLedgerClockOffsetMs(config, database.db, fresh),
      },
      {
        thread: config.LEDGER_THREAD === 'thread',
        // A web page (or a rebound DNS name) tried the ledger's port: say so, without flooding.
        onRefused: refusalReporter((line) => console.warn(`embedded ledger: ${line}`)),
      },
    );
    cleanups.push(() => ledger.close());
    ledgerUrl = ledger.url;
    local = ledger.local;
    admin = ledger.admin;
    closeIntervalMs = config.LEDGER_CLOSE_INTERVAL_MS;
  }

  const ledger = createXrplConnection(config.XRPL_NETWORK, ledgerUrl, {
    local,
    admin,
    closeIntervalMs,
    responseTimeoutMs: config.LEDGER_RESPONSE_TIMEOUT_MS,
    maxLagCloses: config.LEDGER_MAX_LAG_CLOSES,
  });
  await ledger.connect();
  cleanups.push(() => ledger.close());

  const webDistDir = config.WEB_DIST_DIR
    ? path.resolve(config.WEB_DIST_DIR)
    : path.join(SERVER_DIR, '../web/dist');
  const app = await buildApp({
    config,
    database,
    ledger,
    webDistDir,
    logger: config.LOG_LEVEL === 'silent' ? false : consoleLogger(config),
  });
  cleanups.push(() => app.close());

  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const baseUrl = config.PUBLIC_ORIGIN ?? `http://${shownHost}:${port}`;
  if (config.METRICS_PORT !== undefined) {
    const metricsServer = await serveMetrics(app, config.METRICS_HOST, config.METRICS_PORT);
    cleanups.push(() => new Promise((resolve) => metricsServer.close(resolve)));
  }

  // The owner's way in (user id 1, an admin), printed like a notebook server's token URL. On the
  // local embedded default at every start; elsewhere only until the owner has signed in once
  // (after that, `npm run owner-link` makes a new one), so production logs don't keep carrying one.
  const localDefault = config.XRPL_NETWORK === 'standalone' && config.NODE_ENV !== 'production';
  const ownerLink =
    localDefault || !(await ownerHasSignedIn(database.db))
      ? ownerLinkUrl(baseUrl, await issueOwnerLink(database.db))
      : undefined;
  const ownerLine = ownerLink && `Owner sign-in (one-time link, valid 7 days): ${ownerLink}`;
  const running = `Ledgerpad is running at http://${shownHost}:${port}/ (ledger: ${config.XRPL_NETWORK} ${ledgerUrl})`;
  // One block at the end of start-up: where it runs, the owner's link and whether the demo market
  // is ready. While a first start seeds the demo market, the address is printed at once and the
  // block once the market is ready (request logs are at debug, so the block stays on screen).
  const block = (demo: string) => {
    const lines = [running];
    if (ownerLine) lines.push(ownerLine);
    if (demo === 'ready') lines.push('Demo market ready');
    if (demo === 'failed') lines.push('The demo market could not be prepared (see the log above)');
    const rule = '─'.repeat(Math.min(100, Math.max(...lines.map((l) => l.length))));
    console.log([rule, ...lines, rule].join('\n'));
  };
  const demoStatus = async () =>
    ((await app.inject({ url: '/api/demo/status' })).json() as { demo: string }).demo;
  const demo = await demoStatus();
  if (demo === 'seeding') {
    // The address and the link at once (scripts wait for them); the block again when it is ready.
    const now = ownerLine ? [running, ownerLine] : [running];
    console.log([...now, 'Preparing the demo market (first start: a minute or two)…'].join('\n'));
    void (async () => {
      let status = demo;
      while (status === 'seeding' && !stopping) {
        await new Promise((r) => setTimeout(r, 1000).unref());
        status = await demoStatus().catch(() => 'seeding');
      }
      if (!stopping) block(status);
    })();
  } else {
    block(demo);
  }

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down`);
    // Close in reverse order of start: stop taking requests first, the database last.
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (err) {
        console.error('shutdown step failed', err);
      }
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error('Ledgerpad failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});

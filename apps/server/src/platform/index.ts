import type { FastifyBaseLogger } from 'fastify';
import type { SocketServerMessage } from '@ledgerpad/shared';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { generateMasterKey, Keyring } from '../keys/envelope';
import { verifyMasterKey } from '../keys/key-check';
import { loadKeyring } from '../keys/key-file';
import { isXrplConnection, type LedgerConnection, type XrplConnection } from '../ledger/connection';
import { Funds } from '../ledger/funds';
import { ledgerReader } from '../ledger/local-ledger';
import { SubmissionService } from '../ledger/submission-service';
import { createMemoryBus, type EventBus } from '../realtime/event-bus';
import { createPostgresBus } from '../realtime/pg-event-bus';
import { userTopic } from '../realtime/topics';
import { LedgerFollower } from './indexer/follower';
import { IntentService } from './intents';
import { JobRunner, toJobStatus } from './jobs';
import { LedgerReadCache } from './read-cache';
import { PlatformSettings } from './settings';
import { Quotas } from './quotas';
import {
  bootstrapSettings,
  bootstrapStandalone,
  ensurePublicPlatformWallets,
  recordGenesis,
} from './accounts';
import { createSignerSource } from './custody';

// The shared platform, built once by the composition root (app.ts) and handed to each module: the
// ledger connection, custody (keyring and signer source), the one submission service, the
// platform's own accounts and the event bus. Modules receive what they need from here; none of them
// builds any of it.

export interface PlatformAccounts {
  /** Settles when the stand-alone platform accounts (RLUSD issuer, pool, fee wallets) exist. */
  bootstrapped(): Promise<unknown>;
}

export interface Platform {
  config: Config;
  database: Database;
  ledger: LedgerConnection;
  /** The xrpl.js connection; undefined when the app runs without a ledger (API-only tests). */
  connection?: XrplConnection;
  keyring: Keyring;
  /** The only way to sign and submit; undefined without a ledger connection. */
  submissions?: SubmissionService;
  /** Funds checks before signing (ledger/funds.ts); undefined without a ledger connection. */
  funds?: Funds;
  /**
   * Actions of self-custody wallets: prepared as intents, signed in the browser or a wallet app,
   * checked and submitted (docs/self-custody.md); undefined without a ledger connection.
   */
  intents?: IntentService;
  accounts: PlatformAccounts;
  bus: EventBus;
  /** Persisted background jobs; modules register their handlers before the app is ready. */
  jobs: JobRunner;
  /**
   * Names the ledger writes of a module that get one info line when final (`<what> done` or
   * `<what> failed (<result>)`), by submission purpose: `logWrites({ swap: 'trade' })`. Each module
   * names its own; the rest are logged at most at debug.
   */
  logWrites(names: Record<string, string>): void;
  /** Platform configuration (fees, reserves) with its defaults. */
  settings: PlatformSettings;
  /** Sliding-window limits on what one visitor or user can make the server keep (docs/production.md). */
  quotas: Quotas;
  /**
   * Follows validated ledgers in order (one instance at a time) and hands each to the registered
   * handlers (the market indexer); undefined without a ledger connection.
   */
  indexer?: LedgerFollower;
  /** Public answers kept for the ledger the indexer is at (computed once per ledger, not per request). */
  readCache: LedgerReadCache;
  /** Starts the owned background work (submission tracking, account bootstrap). */
  start(): Promise<void>;
  /** Stops it and waits for it to drain. */
  stop(): Promise<void>;
}

export interface PlatformDeps {
  config: Config;
  database: Database;
  ledger: LedgerConnection;
  log: FastifyBaseLogger;
  /** An event bus built elsewhere (tests sharing one between instances); the platform then doesn't close it. */
  eventBus?: EventBus;
}

async function createEventBus(deps: PlatformDeps): Promise<EventBus> {
  const wanted = deps.config.EVENT_BUS;
  const postgres = wanted === 'postgres' || (wanted === 'auto' && deps.database.driver === 'postgres');
  if (postgres) return createPostgresBus({ database: deps.database, log: deps.log });
  return createMemoryBus((err, topic) => deps.log.error({ err, topic }, 'event handler failed'));
}

export async function createPlatform(deps: PlatformDeps): Promise<Platform> {
  const { config, database, log } = deps;
  const db = database.db;
  // Tests without MASTER_KEY get a throw-away key instead of writing a key file into ./data.
  const keyring =
    config.NODE_ENV === 'test' && !config.MASTER_KEY
      ? new Keyring(generateMasterKey())
      : loadKeyring({
          masterKey: config.MASTER_KEY,
          previousKeys: config.MASTER_KEY_PREVIOUS,
          dataDir: config.dataDir,
        });
  // A throw-away test key opens nothing that is stored; every real key is checked against the
  // database before this instance may sign or claim a job (docs/production.md).
  const throwAwayKey = config.NODE_ENV === 'test' && !config.MASTER_KEY;
  if (!throwAwayKey) {
    const check = await verifyMasterKey(db, keyring);
    if (check.created) log.info({ keyId: keyring.current.id }, 'custody key check recorded');
  }
  const connection = isXrplConnection(deps.ledger) ? deps.ledger : undefined;
  const submissions = connection
    ? new SubmissionService({
        database,
        connection,
        signers: createSignerSource(db, keyring),
        log,
        resignMovedSequences: true,
      })
    : undefined;
  const funds =
    submissions && connection
      ? new Funds({ db, client: ledgerReader(connection.client, connection.local), submissions })
      : undefined;
  const intents =
    submissions && connection
      ? new IntentService({ db, connection, submissions, funds, log: log.child({ component: 'intents' }) })
      : undefined;
  const ownBus = !deps.eventBus;
  const bus = deps.eventBus ?? (await createEventBus(deps));

  const runBootstrap =
    config.PLATFORM_BOOTSTRAP === 'on' ||
    (config.PLATFORM_BOOTSTRAP === 'auto' && config.NODE_ENV !== 'test');
  let bootstrap: Promise<unknown> = Promise.resolve();
  let bootstrapFailed = false;
  const startBootstrap = (): Promise<unknown> => {
    if (!submissions || !connection) return bootstrap;
    bootstrapFailed = false;
    // Every step has a fixed intent key, so running it again continues where it stopped.
    bootstrap = bootstrapStandalone({
      db,
      keyring,
      submissions,
      client: connection.client,
      settings: bootstrapSettings(config),
      log,
    }).then(
      (report) => log.info({ report }, 'standalone platform accounts ready'),
      (err: unknown) => {
        bootstrapFailed = true;
        log.error({ err: err instanceof Error ? err.message : String(err) }, 'standalone bootstrap failed');
      },
    );
    return bootstrap;
  };

  // Most jobs spend their time waiting for a ledger close (a trading fee is one payment): many run
  // at once, or a burst of 100 trades would pay its fees four at a time, one close each (and 500
  // airdrop claims took 34 closes at 32; 10 at 256 — npm run bench -w apps/server).
  const jobs = new JobRunner({
    database,
    log: log.child({ component: 'jobs' }),
    concurrency: 256,
    leaseMs: config.JOB_LEASE_MS,
  });
  // The owner's sockets may be on another instance: job changes go through the bus.
  jobs.onChange((job) => {
    if (job.userId === null) return;
    const frame: SocketServerMessage = { event: 'jobUpdated', data: { jobId: job.id, ...toJobStatus(job) } };
    bus
      .publish(userTopic(job.userId), frame)
      .catch((err: unknown) =>
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'job update not published'),
      );
  });

  const indexer = connection
    ? new LedgerFollower({ database, connection, log: log.child({ component: 'indexer' }) })
    : undefined;

  // Ledger writes logged at info when final, by submission purpose (modules name theirs).
  const loggedWrites = new Map<string, string>();

  let unwatch: Array<() => void> = [];
  return {
    logWrites: (names) => {
      for (const [purpose, what] of Object.entries(names)) loggedWrites.set(purpose, what);
    },
    jobs,
    indexer,
    readCache: new LedgerReadCache({ ledger: () => indexer?.lastIndexed ?? 0 }),
    settings: new PlatformSettings(db),
    quotas: new Quotas(db),
    config,
    database,
    ledger: deps.ledger,
    connection,
    keyring,
    submissions,
    funds,
    intents,
    bus,
    accounts: {
      // A bootstrap that failed (ledger unreachable at start) is tried again by whoever needs it.
      bootstrapped: () => (bootstrapFailed ? startBootstrap() : bootstrap),
    },
    async start() {
      if (!submissions || !connection) return;
      let wasUnhealthy = false;
      // Operators see the ledger going away and coming back (the connection reconnects on its own).
      unwatch = [
        connection.onDisconnected(() => log.warn({ url: connection.url }, 'ledger connection lost')),
        connection.onConnected(() => log.info({ url: connection.url }, 'ledger connected')),
        // Hung (pings unanswered) or lagging (no validated ledger for several closes), and back.
        connection.onHealthChange((h) => {
          if (!h.healthy) {
            const { reason, lagMs, maxLagMs } = h;
            log.warn({ url: connection.url, reason, lagMs, maxLagMs }, 'ledger unhealthy');
          } else if (wasUnhealthy) log.info({ url: connection.url }, 'ledger healthy again');
          wasUnhealthy = !h.healthy;
        }),
      ];
      // One info line per significant ledger write (trades, refunds, claims): the console's story.
      unwatch.push(
        submissions.onFinalized((row) => {
          const what = loggedWrites.get(row.purpose);
          if (!what) return;
          log.info(
            { purpose: row.purpose, result: row.result, hash: row.hash, userId: row.userId },
            `${what} ${row.status === 'success' ? 'done' : `failed (${row.result})`}`,
          );
        }),
      );
      await submissions.start();
      // Intents whose signed blobs arrived before a crash: followed to the end and finished.
      void intents
        ?.resume()
        .catch((err: unknown) =>
          log.warn({ err: err instanceof Error ? err.message : String(err) }, 'intent resume failed'),
        );
      if (config.XRPL_NETWORK === 'standalone') {
        await recordGenesis(db, keyring);
        // In the background: the API is usable at once; only the RLUSD faucet waits for it.
        if (runBootstrap) void startBootstrap();
      } else {
        await ensurePublicPlatformWallets(db, keyring);
      }
      jobs.start();
      indexer?.start();
    },
    async stop() {
      // Jobs first: a running step finishes (or is handed back) while the ledger is still there.
      await jobs.stop({ timeoutMs: 20_000 });
      await indexer?.stop();
      for (const u of unwatch) u();
      unwatch = [];
      await submissions?.stop();
      if (ownBus) await bus.close();
    },
  };
}

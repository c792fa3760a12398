import { Wallet, type Client } from 'xrpl';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import type { Database } from '../../src/db/client';
import { generateMasterKey, Keyring } from '../../src/keys/envelope';
import { createXrplConnection, type XrplConnection } from '../../src/ledger/connection';
import { newLedgerAdmin } from '../../src/ledger/embedded-ledger';
import { SubmissionService, type SubmissionServiceOptions } from '../../src/ledger/submission-service';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { createSignerSource, insertWallet } from '../../src/platform/custody';
import { createTestDatabase } from '../db';
import { xrpBalance } from '../helpers/ledger-reads';
import { sleep } from '../helpers/wait';

/** A ledger, a database, a connection and a submission service signing for wallets recorded in it. */
export interface LedgerRig {
  ledger: StandaloneLedger;
  database: Database;
  connection: XrplConnection;
  keyring: Keyring;
  service: SubmissionService;
  genesis: Wallet;
  /** Records a wallet so the service can sign for it. */
  hold(wallet: Wallet): Promise<void>;
  /** A new service on the same database and connection (a restarted process). */
  restart(opts?: Partial<SubmissionServiceOptions>): Promise<SubmissionService>;
  xrpBalance(address: string): Promise<bigint>;
  close(): Promise<void>;
}

export async function createLedgerRig(
  opts: {
    closeIntervalMs?: number;
    dataDir?: string;
    service?: Partial<SubmissionServiceOptions>;
    /** The ledger's amendments by name (default: the stand-alone's, mainnet's set). */
    amendments?: readonly string[];
  } = {},
): Promise<LedgerRig> {
  // As the app's embedded ledger: admin methods only for the connection that has its credentials.
  const admin = newLedgerAdmin();
  const ledger = await startStandaloneLedger({
    port: 0,
    closeIntervalMs: opts.closeIntervalMs ?? 0,
    dataDir: opts.dataDir,
    admin,
    ...(opts.amendments ? { amendments: opts.amendments } : {}),
  });
  const database = await createTestDatabase();
  const connection = createXrplConnection('standalone', ledger.url, {
    baseDelayMs: 200,
    admin,
    closeIntervalMs: opts.closeIntervalMs ?? 0,
  });
  await connection.connect();
  const keyring = new Keyring(generateMasterKey());
  const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);
  await insertWallet(database.db, keyring, { userId: null, role: 'genesis', wallet: genesis });
  const make = async (extra?: Partial<SubmissionServiceOptions>) => {
    const s = new SubmissionService({
      database,
      connection,
      signers: createSignerSource(database.db, keyring),
      ...opts.service,
      ...extra,
    });
    await s.start();
    return s;
  };
  const rig: LedgerRig = {
    ledger,
    database,
    connection,
    keyring,
    genesis,
    service: await make(),
    hold: async (w) => {
      await insertWallet(database.db, keyring, { userId: null, role: `test-${w.classicAddress}`, wallet: w });
    },
    restart: async (extra) => {
      await rig.service.stop();
      rig.service = await make(extra);
      return rig.service;
    },
    xrpBalance: (address) => xrpBalance(connection.client, address),
    close: async () => {
      await rig.service.stop();
      await connection.close();
      await rig.ledger.close();
      await database.close();
    },
  };
  return rig;
}

/** Closes ledgers until `done` settles (the service follows the ledger stream). */
export async function closeUntil<T>(
  ledger: StandaloneLedger,
  done: Promise<T>,
  timeoutMs = 25_000,
): Promise<T> {
  let settled = false;
  const watched = done.finally(() => {
    settled = true;
  });
  // Bounded by time, not by a count of closes: on a loaded PostgreSQL pass a submission can take
  // longer than 50 quick closes to be signed and sent, and with no close after that it never
  // validated (the test then hung to its timeout; seen once in CI's PostgreSQL pass).
  const deadline = Date.now() + timeoutMs;
  while (!settled && Date.now() < deadline) {
    await sleep(30);
    if (!settled) ledger.closeLedger();
  }
  return watched;
}

/**
 * For apps built by createTestApp (ledger closes only on request): sends `ledger_accept` until
 * `done` settles, e.g. `await acceptUntil(t.ledger!.client, app.platform.submissions!.submit(...))`.
 */
export async function acceptUntil<T>(client: Client, done: Promise<T>, maxCloses = 50): Promise<T> {
  let settled = false;
  const watched = done.finally(() => {
    settled = true;
  });
  for (let i = 0; i < maxCloses && !settled; i++) {
    await sleep(30);
    if (!settled) await client.request({ command: 'ledger_accept' } as never);
  }
  return watched;
}

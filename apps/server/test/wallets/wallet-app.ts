import type { FastifyInstance } from 'fastify';
import type { StandaloneLedger } from 'xrpl-standalone';
import type { Database } from '../../src/db/client';
import type { XrplConnection } from '../../src/ledger/connection';
import { createTestApp, type SignedIn, type TestApp } from '../helpers/test-app';

// createTestApp with the logger on at trace level into a buffer, so tests can prove no seed ever
// reaches the logs, and with the stand-alone ledger closing on a short timer.

export interface WalletTestApp {
  app: FastifyInstance;
  database: Database;
  ledger: StandaloneLedger;
  connection: XrplConnection;
  /** The embedded ledger's close interval, in this thread or in its worker thread. */
  setCloseInterval: TestApp['setCloseInterval'];
  ledgerHeap?: TestApp['ledgerHeap'];
  logs: string[];
  signIn(username: string, ref?: string): Promise<SignedIn>;
  signInOwner(): Promise<SignedIn>;
  /** The test app's `settle()`: no submission in flight, jobs idle, the indexer at the validated ledger. */
  settle: TestApp['settle'];
  close(): Promise<void>;
}

export async function createWalletTestApp(
  env: Record<string, string> = {},
  options: {
    closeIntervalMs?: number;
    clockOffsetMs?: number;
    ledgerThread?: boolean;
    /** A database opened by the caller (and closed by it): a bench's PGlite in a data directory. */
    database?: Database;
  } = {},
): Promise<WalletTestApp> {
  const t = await createTestApp({
    env,
    captureLogs: true,
    closeIntervalMs: options.closeIntervalMs ?? 100,
    clockOffsetMs: options.clockOffsetMs,
    ledgerThread: options.ledgerThread,
    database: options.database,
  });
  if (!t.ledger || (!t.standalone && !options.ledgerThread))
    throw new Error('wallet tests need the stand-alone ledger');
  await t.app.ready();
  // In a worker thread the ledger server object stays there: only its socket is reachable.
  const inThread = new Proxy({} as StandaloneLedger, {
    get: () => {
      throw new Error('the embedded ledger runs in a worker thread: use the connection');
    },
  });
  return {
    app: t.app,
    database: t.database,
    ledger: t.standalone ?? inThread,
    connection: t.ledger,
    setCloseInterval: t.setCloseInterval,
    ledgerHeap: t.ledgerHeap,
    logs: t.logs,
    signIn: t.signIn,
    signInOwner: t.signInOwner,
    settle: t.settle,
    close: t.close,
  };
}

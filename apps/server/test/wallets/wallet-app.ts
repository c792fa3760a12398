import type { FastifyInstance } from 'fastify';
import type { StandaloneLedger } from 'xrpl-standalone';
import type { Database } from '../../src/db/client';
import type { XrplConnection } from '../../src/ledger/connection';
import { createTestApp, type SignedIn } from '../helpers/test-app';

// createTestApp with the logger on at trace level into a buffer, so tests can prove no seed ever
// reaches the logs, and with the stand-alone ledger closing on a short timer.

export interface WalletTestApp {
  app: FastifyInstance;
  database: Database;
  ledger: StandaloneLedger;
  connection: XrplConnection;
  logs: string[];
  signIn(username: string): Promise<SignedIn>;
  signInOwner(): Promise<SignedIn>;
  close(): Promise<void>;
}

export async function createWalletTestApp(
  env: Record<string, string> = {},
  options: { closeIntervalMs?: number; clockOffsetMs?: number } = {},
): Promise<WalletTestApp> {
  const t = await createTestApp({
    env,
    captureLogs: true,
    closeIntervalMs: options.closeIntervalMs ?? 100,
    clockOffsetMs: options.clockOffsetMs,
  });
  if (!t.standalone || !t.ledger) throw new Error('wallet tests need the stand-alone ledger');
  await t.app.ready();
  return {
    app: t.app,
    database: t.database,
    ledger: t.standalone,
    connection: t.ledger,
    logs: t.logs,
    signIn: t.signIn,
    signInOwner: t.signInOwner,
    close: t.close,
  };
}

import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { startStandaloneLedger, type StandaloneLedger } from 'xrpl-standalone';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Database } from '../../src/db/client';
import { createXrplConnection, type XrplConnection } from '../../src/ledger/connection';
import { createTestDatabase } from '../db';
import { sessionCookie, TEST_ORIGIN, type SignedIn } from '../helpers/test-app';

// Like createTestApp, but with the logger on at trace level into a buffer, so tests can prove no
// seed ever reaches the logs, and with the stand-alone ledger closing on a short timer.

export interface WalletTestApp {
  app: FastifyInstance;
  database: Database;
  ledger: StandaloneLedger;
  connection: XrplConnection;
  logs: string[];
  signIn(username: string): Promise<SignedIn>;
  close(): Promise<void>;
}

export async function createWalletTestApp(env: Record<string, string> = {}): Promise<WalletTestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'trace',
    XRPL_NETWORK: 'standalone',
    ALLOWED_ORIGINS: TEST_ORIGIN,
    SOCKET_TOKEN_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMIT_AUTH_PER_MIN: '100000',
    RATE_LIMIT_DEMO_PER_MIN: '100000',
    RATE_LIMIT_READ_PER_MIN: '100000',
    RATE_LIMIT_WRITE_PER_MIN: '100000',
    ...env,
  });
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const database = await createTestDatabase();
  const ledger = await startStandaloneLedger({ port: 0, closeIntervalMs: 100 });
  const connection = createXrplConnection(config.XRPL_NETWORK, ledger.url);
  await connection.connect();
  const app = await buildApp({ config, database, ledger: connection, logger: { level: 'trace', stream } });
  await app.ready();

  const signIn = async (username: string): Promise<SignedIn> => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/demo',
      headers: { origin: TEST_ORIGIN },
      payload: { username },
    });
    if (res.statusCode !== 200) throw new Error(`demo sign-in failed: ${res.statusCode} ${res.body}`);
    const cookie = sessionCookie(res.headers['set-cookie']);
    const csrf = await app.inject({ method: 'GET', url: '/api/csrf-token', headers: { cookie } });
    const csrfToken = (csrf.json() as { token: string }).token;
    return {
      cookie,
      csrfToken,
      user: res.json().user,
      headers: { cookie, 'x-csrf-token': csrfToken },
    };
  };

  return {
    app,
    database,
    ledger,
    connection,
    logs,
    signIn,
    close: async () => {
      await app.close();
      await connection.close();
      await ledger.close();
      await database.close();
    },
  };
}

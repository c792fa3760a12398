import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandaloneLedger } from 'xrpl-standalone';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { createXrplConnection, type XrplConnection } from '../src/ledger/connection';
import { SPA_ROUTES } from '../src/spa-routes';
import { createTestDatabase } from './db';

describe('app shell', () => {
  let app: FastifyInstance;
  let database: Database;
  let ledger: XrplConnection;
  let stopLedger: () => Promise<void>;

  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'ledgerpad-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><title>Ledgerpad</title><div id="root"></div>',
    );
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    const standalone = await startStandaloneLedger({ port: 0, closeIntervalMs: 0 });
    stopLedger = () => standalone.close();
    database = await createTestDatabase();
    ledger = createXrplConnection('standalone', standalone.url);
    await ledger.connect();
    // A configured socket secret: no secret file written into the working directory by tests.
    const config = loadConfig({
      NODE_ENV: 'test',
      SOCKET_TOKEN_SECRET: 'x'.repeat(32),
      HEALTH_DETAILS: 'public',
    });
    app = await buildApp({ config, database, ledger, webDistDir: dist });
  });

  afterAll(async () => {
    await app.close();
    await ledger.close();
    await stopLedger();
    await database.close();
  });

  it('reports versions, database and ledger in /api/health', async () => {
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.database).toEqual({ driver: database.driver, connected: true });
    expect(body.ledger).toMatchObject({ network: 'standalone', connected: true });
    expect(body.versions.node).toBe(process.versions.node);
    expect(body.versions.xrpl).toMatch(/^5\./);
  });

  it('reports a lost ledger connection as degraded (503)', async () => {
    await ledger.close();
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(503);
    expect(res.json().ledger.connected).toBe(false);
    await ledger.connect();
  });

  it('says the demo market is off under NODE_ENV=test', async () => {
    const res = await app.inject('/api/demo/status');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ demo: 'off' });
  });

  it('answers unknown /api routes with JSON 404', async () => {
    const res = await app.inject('/api/does-not-exist?x=1');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ error: 'not_found', message: 'No API route GET /api/does-not-exist' });
    const post = await app.inject({ method: 'POST', url: '/api/nothing' });
    expect(post.statusCode).toBe(404);
    expect(post.json().error).toBe('not_found');
  });

  it('serves index.html for every route of the web app', async () => {
    for (const route of SPA_ROUTES) {
      const url = route.replace(':issuerAddress', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh');
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves built assets and 404s other paths', async () => {
    expect((await app.inject('/assets/app.js')).body).toBe('console.log(1)');
    expect((await app.inject('/no-such-page')).statusCode).toBe(404);
  });
});

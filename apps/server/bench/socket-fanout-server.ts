import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';

// Child process of the socket fan-out bench: one server instance on its own, so its RSS is the
// server's alone. Talks to the parent over IPC: { port } once listening, then answers
// 'publish' (one new_trade), 'rss' and 'stats' requests.

type Request =
  | { type: 'publish'; issuer: string; currency: string }
  | { type: 'rss' }
  | { type: 'stats' }
  | { type: 'exit' };

const send = (msg: unknown) => process.send?.(msg);

const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  SOCKET_TOKEN_SECRET: randomBytes(32).toString('hex'),
  // 5,000 upgrades from a handful of loopback addresses are one client each to the limiter.
  RATE_LIMIT_READ_PER_MIN: '1000000',
  RATE_LIMIT_WRITE_PER_MIN: '1000000',
  RATE_LIMIT_EXPENSIVE_PER_MIN: '1000000',
  WS_MAX_CONNECTIONS_PER_IP: '1000000',
});
const database = await openDatabase();
const app = await buildApp({
  config,
  database,
  ledger: { network: 'standalone', url: 'ws://127.0.0.1:0', isConnected: () => false },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');
const token = (await app.inject({ url: '/api/auth/socket-token' })).json().token as string;
send({ type: 'listening', port: address.port, token });

process.on('message', (raw) => {
  const msg = raw as Request;
  if (msg.type === 'publish') {
    void app.realtime.publishTrade({
      type: 'BUY',
      baseCurrency: msg.currency,
      baseIssuer: msg.issuer,
      quoteCurrency: 'XRP',
      quoteIssuer: null,
      price: '0.000123',
    });
  } else if (msg.type === 'rss') {
    send({ type: 'rss', rss: process.memoryUsage().rss });
  } else if (msg.type === 'stats') {
    send({ type: 'stats', connections: app.realtime.hub.connectionCount, ...app.realtime.hub.stats });
  } else if (msg.type === 'exit') {
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  }
});

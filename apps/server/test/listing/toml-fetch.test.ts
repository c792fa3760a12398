import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { domainOf, fetchToml } from '../../src/modules/listing/toml';

// The xrp-ledger.toml fetch is a server-side request to a host a user chose (through the issuer's
// Domain), so it is fenced: https only, no loopback or private address (unless the test switch),
// a time limit, a size cap, redirects checked like the first request. A real local HTTP server
// plays the site; nothing is mocked.

let server: Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok') return res.writeHead(200).end('[[ISSUERS]]\naddress = "r1"\n');
    if (req.url === '/big') return res.writeHead(200).end('#'.repeat(300 * 1024));
    if (req.url === '/big-stream') {
      // No Content-Length: the cap must hold while the body streams in.
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      const chunk = '#'.repeat(64 * 1024);
      for (let i = 0; i < 6; i++) res.write(chunk);
      return res.end();
    }
    if (req.url === '/slow') return; // never answers
    if (req.url === '/to-private') return res.writeHead(302, { location: 'http://10.0.0.1/x' }).end();
    if (req.url === '/to-ok') return res.writeHead(301, { location: '/ok' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const reason = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'fetched';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('fetchToml', () => {
  it('refuses http:// and loopback addresses outside tests', async () => {
    expect(await reason(fetchToml(`${base}/ok`, { allowLoopback: false }))).toBe(
      `Could not read ${base}/ok: only https:// is fetched.`,
    );
    expect(await reason(fetchToml(`https://127.0.0.1:${port}/ok`, { allowLoopback: false }))).toBe(
      `Could not read https://127.0.0.1:${port}/ok: the site resolves to a loopback address, which is not fetched.`,
    );
    // A name that resolves to loopback is refused on the resolved address.
    expect(await reason(fetchToml(`https://localhost:${port}/ok`, { allowLoopback: false }))).toBe(
      `Could not read https://localhost:${port}/ok: the site resolves to a loopback address, which is not fetched.`,
    );
    expect(await reason(fetchToml('https://10.1.2.3/x', { allowLoopback: false }))).toBe(
      'Could not read https://10.1.2.3/x: the site resolves to a private address, which is not fetched.',
    );
    expect(await reason(fetchToml('https://[::ffff:192.168.1.1]/x', { allowLoopback: false }))).toBe(
      'Could not read https://[::ffff:192.168.1.1]/x: the site resolves to a private address, which is not fetched.',
    );
  });

  it('with the test switch: reads the file, follows a redirect, refuses one to a private address', async () => {
    expect(await fetchToml(`${base}/ok`, { allowLoopback: true })).toContain('[[ISSUERS]]');
    expect(await fetchToml(`${base}/to-ok`, { allowLoopback: true })).toContain('[[ISSUERS]]');
    expect(await reason(fetchToml(`${base}/to-private`, { allowLoopback: true }))).toBe(
      `Could not read ${base}/to-private: the site resolves to a private address, which is not fetched.`,
    );
    expect(await reason(fetchToml(`${base}/loop`, { allowLoopback: true }))).toBe(
      `Could not read ${base}/loop: too many redirects.`,
    );
    expect(await reason(fetchToml(`${base}/missing`, { allowLoopback: true }))).toBe(
      `Could not read ${base}/missing: the site answered HTTP 404.`,
    );
  });

  it('caps the size (declared or streamed) and the time', async () => {
    expect(await reason(fetchToml(`${base}/big`, { allowLoopback: true }))).toBe(
      `Could not read ${base}/big: the file is larger than 256 KB.`,
    );
    expect(await reason(fetchToml(`${base}/big-stream`, { allowLoopback: true }))).toBe(
      `Could not read ${base}/big-stream: the file is larger than 256 KB.`,
    );
    const started = Date.now();
    expect(await reason(fetchToml(`${base}/slow`, { allowLoopback: true, timeoutMs: 300 }))).toBe(
      `Could not read ${base}/slow: it did not answer in time.`,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('domainOf', () => {
  const hex = (s: string) => Buffer.from(s).toString('hex');
  it('reads the Domain field as a host name', () => {
    expect(domainOf(hex('Example.COM'))).toBe('example.com');
    expect(domainOf(hex('https://ripple.com/'))).toBe('ripple.com');
    expect(domainOf(hex('127.0.0.1:8080'))).toBe('127.0.0.1:8080');
    expect(domainOf(hex('not a domain'))).toBeNull();
    expect(domainOf(hex('evil.com@10.0.0.1'))).toBeNull();
    expect(domainOf(undefined)).toBeNull();
  });
});

describe('TOML_FETCH_ALLOW_LOOPBACK', () => {
  it('is accepted only under NODE_ENV=test', () => {
    expect(
      loadConfig({ NODE_ENV: 'test', TOML_FETCH_ALLOW_LOOPBACK: 'true' }).TOML_FETCH_ALLOW_LOOPBACK,
    ).toBe(true);
    expect(loadConfig({}).TOML_FETCH_ALLOW_LOOPBACK).toBe(false);
    for (const env of ['production', 'development']) {
      expect(() => loadConfig({ NODE_ENV: env, TOML_FETCH_ALLOW_LOOPBACK: 'true' })).toThrow(
        /TOML_FETCH_ALLOW_LOOPBACK: is allowed only with NODE_ENV=test/,
      );
    }
  });
});

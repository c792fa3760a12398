import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Wallet } from 'xrpl';
import { STANDALONE_GENESIS_SEED } from '../../src/platform/accounts';
import { launchChromium } from '../helpers/browser';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Issue 34: a page on another local port funded an account with 12,345 XRP through the embedded
// ledger's faucet, forced ledger_accept, and read server_info over a cross-origin WebSocket. Here
// the same page, in Debian's Chromium, tries every way a page has — fetch (no-cors and cors), a
// WebSocket, a form post, and a name that resolves to 127.0.0.1 (DNS rebinding) — against the app's
// embedded ledger as main.ts starts it. Every request reaches the port (its refusals are counted)
// and is refused; the ledger's state does not move; the app's own connection still drives it.

const ATTACK_XRP = '12345';

/** The attacker's page: every attempt, its outcome as the page can see it, in `window.results`. */
function attackPage(ledgerPort: number, victim: string): string {
  const script = `
    const http = 'http://127.0.0.1:${ledgerPort}';
    const results = {};
    const attempt = async (name, run) => {
      try { results[name] = await run(); } catch (err) { results[name] = 'error: ' + err.name; }
    };
    const socket = () => new Promise((resolve) => {
      const seen = { opened: false, messages: [] };
      const ws = new WebSocket('ws://127.0.0.1:${ledgerPort}');
      ws.onopen = () => {
        seen.opened = true;
        ws.send(JSON.stringify({ id: 1, command: 'ledger_accept' }));
        ws.send(JSON.stringify({ id: 2, command: 'server_info' }));
      };
      ws.onmessage = (event) => seen.messages.push(String(event.data));
      ws.onclose = (event) => resolve({ ...seen, closeCode: event.code });
      setTimeout(() => { ws.close(); resolve({ ...seen, closeCode: 'timeout' }); }, 5000);
    });
    const form = () => new Promise((resolve) => {
      // text/plain forms build a JSON body from name=value: the classic way to post JSON cross-site.
      const frame = document.createElement('iframe');
      frame.name = 'sink';
      document.body.append(frame);
      const f = document.createElement('form');
      f.method = 'POST';
      f.action = http + '/accounts';
      f.enctype = 'text/plain';
      f.target = 'sink';
      const input = document.createElement('input');
      input.name = '{"destination":"${victim}","xrpAmount":"${ATTACK_XRP}","pad":"';
      input.value = '"}';
      f.append(input);
      document.body.append(f);
      frame.onload = () => resolve('submitted');
      f.submit();
    });
    (async () => {
      await attempt('faucet', async () => (await fetch(http + '/accounts', {
        method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ destination: '${victim}', xrpAmount: '${ATTACK_XRP}' }),
      })).type);
      await attempt('ledgerAccept', async () => (await fetch(http, {
        method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ method: 'ledger_accept' }),
      })).type);
      await attempt('serverInfoHttp', async () => await (await fetch(http, {
        method: 'POST', headers: { 'Content-Type': 'text/plain' },
        body: JSON.stringify({ method: 'server_info' }),
      })).text());
      await attempt('socket', socket);
      await attempt('form', form);
      window.results = results;
    })();
  `;
  return `<!doctype html><html><body><p>a page on another port</p><script>${script}</script></body></html>`;
}

describe('the embedded ledger’s port against a web page in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let pageServer: Server;
  let outsider: Client;
  const victim = Wallet.generate().address;
  const genesis = Wallet.fromSeed(STANDALONE_GENESIS_SEED);

  beforeAll(async () => {
    t = await createTestApp();
    const ledgerPort = t.standalone!.port;
    pageServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(attackPage(ledgerPort, victim));
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    // A name an attacker controls, now resolving to this machine: DNS rebinding.
    browser = await launchChromium(['--host-resolver-rules=MAP rebound.example 127.0.0.1']);
    // Another program on this machine with xrpl.js and no credentials.
    outsider = new Client(`ws://127.0.0.1:${ledgerPort}`);
    await outsider.connect();
  }, 120_000);

  afterAll(async () => {
    await outsider?.disconnect();
    await browser?.close();
    await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
    await t?.close();
  });

  const state = async () => {
    const current = await outsider.request({ command: 'ledger_current' });
    const validated = await outsider.request({ command: 'ledger', ledger_index: 'validated' });
    const genesisInfo = await outsider.request({ command: 'account_info', account: genesis.address });
    const victimFound = await outsider
      .request({ command: 'account_info', account: victim, ledger_index: 'current' })
      .then(
        () => true,
        () => false,
      );
    return {
      current: current.result.ledger_current_index,
      validated: validated.result.ledger_index,
      genesisBalance: genesisInfo.result.account_data.Balance,
      victimFound,
    };
  };

  it('refuses a page on another port: no funding, no close, no read — over HTTP and WebSocket', async () => {
    const before = await state();
    expect(before.victimFound).toBe(false);
    const page = await browser.newPage();
    try {
      const { port } = pageServer.address() as AddressInfo;
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.waitForFunction(
        () => (globalThis as unknown as { results?: unknown }).results !== undefined,
        null,
        {
          timeout: 20_000,
        },
      );
      const results = (await page.evaluate(
        () => (globalThis as unknown as { results: unknown }).results,
      )) as {
        faucet: string;
        ledgerAccept: string;
        serverInfoHttp: string;
        socket: { opened: boolean; messages: string[]; closeCode: number | string };
        form: string;
      };
      // The page learns nothing: opaque answers, a failed cors read, a socket that never opened.
      expect(results.faucet).toBe('opaque');
      expect(results.ledgerAccept).toBe('opaque');
      expect(results.serverInfoHttp).toBe('error: TypeError');
      expect(results.socket).toEqual({ opened: false, messages: [], closeCode: 1006 });
      expect(results.form).toBe('submitted');

      // Every attempt reached the port and was refused there for its Origin.
      const fromPage = t.ledgerRefusals.filter((r) => r.reason === 'origin');
      expect(fromPage.map((r) => `${r.transport} ${r.method}`).sort()).toEqual([
        'http POST',
        'http POST',
        'http POST',
        'http POST',
        'websocket GET',
      ]);
      expect(new Set(fromPage.map((r) => r.origin))).toEqual(new Set([`http://127.0.0.1:${port}`]));

      // DNS rebinding: the attacker's name now points here; the browser sends it as Host.
      const rebound = await page.goto(`http://rebound.example:${t.standalone!.port}/`);
      expect(rebound?.status()).toBe(403);
      expect(await rebound?.text()).toMatch(/Host header must name this machine/);
      // The page and then its favicon: each refused for its Host.
      const rebinding = t.ledgerRefusals.filter((r) => r.reason === 'host');
      expect(rebinding.length).toBeGreaterThanOrEqual(1);
      expect(new Set(rebinding.map((r) => `${r.method} ${r.host}`))).toEqual(
        new Set([`GET rebound.example:${t.standalone!.port}`]),
      );
    } finally {
      await page.close();
    }

    // Nothing moved: no ledger closed, no payment from genesis, no account for the victim.
    expect(await state()).toEqual(before);
  }, 60_000);

  it('still serves reads to a local program and admin methods to the app alone', async () => {
    const before = await state();
    const info = await outsider.request({ command: 'server_info' });
    expect(info.result.info.validated_ledger?.seq).toBe(before.validated);
    await expect(outsider.request({ command: 'ledger_accept' } as never)).rejects.toMatchObject({
      data: { error: 'forbidden' },
    });
    await expect(
      outsider.fundWallet(Wallet.generate(), {
        faucetHost: `127.0.0.1:${t.standalone!.port}`,
        faucetProtocol: 'http',
      }),
    ).rejects.toThrow();
    expect((await state()).current).toBe(before.current);
    // The app's own connection carries this start's credentials.
    await t.ledger!.client.request({ command: 'ledger_accept' } as never);
    const after = await state();
    expect(after.current).toBe(before.current + 1);
    expect(after.validated).toBe(before.validated + 1);
  });
});

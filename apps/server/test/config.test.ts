import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('loadConfig', () => {
  it('runs on embedded defaults with no environment at all', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.XRPL_NETWORK).toBe('standalone');
    expect(c.DATABASE_URL).toBeUndefined();
    expect(path.isAbsolute(c.dataDir)).toBe(true);
  });

  it('lists every invalid key at once', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'abc', XRPL_NETWORK: 'moon', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT:/m);
    expect(problems).toMatch(/^XRPL_NETWORK:/m);
    expect(problems).toMatch(/^DATABASE_URL:/m);
  });

  it('requires XRPL_URL for public networks', () => {
    expect(() => loadConfig({ XRPL_NETWORK: 'mainnet' })).toThrow(/XRPL_URL/);
    expect(
      loadConfig({ XRPL_NETWORK: 'testnet', XRPL_URL: 'wss://s.altnet.rippletest.net:51233' }).XRPL_URL,
    ).toBe('wss://s.altnet.rippletest.net:51233');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).PORT).toBe(3000);
  });
});

describe('start-up with a bad variable', () => {
  it('exits non-zero naming the key', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, PORT: 'abc', DATA_DIR: path.join(serverDir, 'data-never-created') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.status).not.toBeNull();
    expect(run.stderr).toContain('PORT');
  });
});

describe('sign-in and socket settings', () => {
  it('has safe defaults: methods disabled, Google endpoints, limits', () => {
    const c = loadConfig({});
    expect(c.TELEGRAM_BOT_TOKEN).toBeUndefined();
    expect(c.GOOGLE_CLIENT_ID).toBeUndefined();
    expect(c.GOOGLE_TOKENINFO_URL).toBe('https://oauth2.googleapis.com/tokeninfo');
    expect(c.GOOGLE_USERINFO_URL).toBe('https://openidconnect.googleapis.com/v1/userinfo');
    expect(c.RATE_LIMIT_AUTH_PER_MIN).toBe(10);
    expect(c.ALLOWED_ORIGINS).toEqual([]);
    expect(c.EVENT_BUS).toBe('auto');
  });

  it('parses ALLOWED_ORIGINS and rejects bad values by key', () => {
    expect(
      loadConfig({ ALLOWED_ORIGINS: 'http://localhost:5173, https://a.example' }).ALLOWED_ORIGINS,
    ).toEqual(['http://localhost:5173', 'https://a.example']);
    let caught: unknown;
    try {
      loadConfig({
        ALLOWED_ORIGINS: 'not a url',
        TELEGRAM_BOT_TOKEN: 'nope',
        SOCKET_TOKEN_SECRET: 'short',
        EVENT_BUS: 'postgres',
      });
    } catch (err) {
      caught = err;
    }
    const problems = (caught as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^ALLOWED_ORIGINS/m);
    expect(problems).toMatch(/^TELEGRAM_BOT_TOKEN/m);
    expect(problems).toMatch(/^SOCKET_TOKEN_SECRET/m);
    expect(problems).toMatch(/^EVENT_BUS: postgres needs DATABASE_URL/m);
  });
});

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

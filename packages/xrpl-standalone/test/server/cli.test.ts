// The CLI as users run it: `xrpl-standalone --help`, and a server started with flags.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from 'xrpl';
import { basicAuthorization } from '../../src/index';

const BIN = join(import.meta.dirname, '../../bin/xrpl-standalone.mjs');

function run(args: string[]): { output: Promise<string>; kill: () => void; child: ReturnType<typeof spawn> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += String(d)));
  child.stderr.on('data', (d: Buffer) => (text += String(d)));
  const output = new Promise<string>((resolve) => child.on('exit', () => resolve(text)));
  return { output, kill: () => child.kill('SIGTERM'), child };
}

describe('xrpl-standalone CLI', () => {
  it('prints help naming the units of every flag', async () => {
    const text = await run(['--help']).output;
    expect(text).toMatch(/--reserve-base <drops>/);
    expect(text).toMatch(/--reserve-inc <drops>/);
    expect(text).toMatch(/--base-fee <drops>/);
    expect(text).toMatch(/--close-interval-ms/);
  });

  it('rejects malformed numbers', async () => {
    const text = await run(['--base-fee', '1.5']).output;
    expect(text).toMatch(/--base-fee must be a whole number/);
  });

  it('serves the configured fees and reserves', async () => {
    const proc = run([
      '--port',
      '0',
      '--close-interval-ms',
      '0',
      '--base-fee',
      '200',
      '--reserve-base',
      '20000000',
      '--reserve-inc',
      '5000000',
    ]);
    const url = await new Promise<string>((resolve) => {
      proc.child.stdout?.on('data', (d: Buffer) => {
        const match = /listening on (ws:\/\/\S+)/.exec(String(d));
        if (match) resolve(match[1] as string);
      });
    });
    const client = new Client(url);
    try {
      await client.connect();
      const state = await client.request({ command: 'server_state' });
      expect(state.result.state.validated_ledger).toMatchObject({
        base_fee: 200,
        reserve_base: 20_000_000,
        reserve_inc: 5_000_000,
      });
    } finally {
      await client.disconnect();
      proc.kill();
      await proc.output;
    }
  });

  it('requires the admin password from --admin-password-file for admin methods, and refuses web pages', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xrpl-standalone-cli-'));
    const file = join(dir, 'admin-password');
    writeFileSync(file, 'from-a-file\n');
    const proc = run([
      '--port',
      '0',
      '--close-interval-ms',
      '0',
      '--admin-user',
      'ops',
      '--admin-password-file',
      file,
    ]);
    const url = await new Promise<string>((resolve) => {
      proc.child.stdout?.on('data', (d: Buffer) => {
        const match = /listening on (ws:\/\/\S+)/.exec(String(d));
        if (match) resolve(match[1] as string);
      });
    });
    const guest = new Client(url);
    const operator = new Client(url, {
      headers: { Authorization: basicAuthorization({ user: 'ops', password: 'from-a-file' }) },
    });
    try {
      await guest.connect();
      await operator.connect();
      const before = (await guest.request({ command: 'ledger_current' })).result.ledger_current_index;
      await expect(guest.request({ command: 'ledger_accept' } as never)).rejects.toMatchObject({
        data: { error: 'forbidden' },
      });
      await operator.request({ command: 'ledger_accept' } as never);
      expect((await guest.request({ command: 'ledger_current' })).result.ledger_current_index).toBe(
        before + 1,
      );
      const page = await fetch(url.replace('ws:', 'http:'), {
        method: 'POST',
        headers: { origin: 'http://127.0.0.1:8080', 'content-type': 'text/plain' },
        body: JSON.stringify({ method: 'server_info' }),
      });
      expect(page.status).toBe(403);
    } finally {
      await guest.disconnect();
      await operator.disconnect();
      proc.kill();
      rmSync(dir, { recursive: true, force: true });
    }
    const output = await proc.output;
    expect(output).toMatch(/admin methods and the faucet: loopback clients with admin_user "ops"/);
    expect(output).toMatch(/refused a http request from Origin http:\/\/127\.0\.0\.1:8080/);
    expect(output).not.toContain('from-a-file');
  });
});

import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Wallet } from 'xrpl';
import { openDatabase } from '../../src/db/client';
import { generateMasterKey, Keyring, KeyCustodyError, parseMasterKey } from '../../src/keys/envelope';
import { keyFilePath, loadKeyring, NEXT_KEY_FILE_NAME, writeKeyFile } from '../../src/keys/key-file';
import { rewrapAll } from '../../src/keys/rotate';
import { insertWallet, openWallet } from '../../src/platform/custody';
import { wallets } from '../../src/platform/custody-schema';

const run = promisify(execFile);
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'ledgerpad-keys-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('envelope encryption', () => {
  const keyring = new Keyring(generateMasterKey());
  const seed = Wallet.generate().seed!;

  it('seals with a fresh data key and nonce each time and opens again', () => {
    const a = keyring.seal(seed, 'rAddress');
    const b = keyring.seal(seed, 'rAddress');
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(a.wrappedKey).not.toBe(b.wrappedKey);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.ciphertext).not.toContain(seed);
    expect(Buffer.from(a.ciphertext, 'base64').toString('utf8')).not.toContain(seed);
    expect(a.keyId).toBe(keyring.current.id);
    expect(keyring.open(a, 'rAddress')).toBe(seed);
  });

  it('refuses a tampered ciphertext, a moved record and an unknown master key', () => {
    const sealed = keyring.seal(seed, 'rAddress');
    const body = Buffer.from(sealed.ciphertext, 'base64');
    body[0] = body[0]! ^ 1;
    expect(() => keyring.open({ ...sealed, ciphertext: body.toString('base64') }, 'rAddress')).toThrow(
      KeyCustodyError,
    );
    // Bound to its wallet address: copied onto another record it does not open.
    expect(() => keyring.open(sealed, 'rOther')).toThrow(KeyCustodyError);
    const other = new Keyring(generateMasterKey());
    expect(() => other.open(sealed, 'rAddress')).toThrow(/not available/);
    // Same id, different key bytes: the wrapped data key fails authentication.
    expect(() => other.open({ ...sealed, keyId: other.current.id }, 'rAddress')).toThrow(KeyCustodyError);
  });

  it('rewraps the data key without changing the sealed secret', () => {
    const sealed = keyring.seal(seed, 'rAddress');
    const target = generateMasterKey();
    const moved = keyring.rewrap(sealed, target);
    expect(moved.ciphertext).toBe(sealed.ciphertext);
    expect(moved.keyId).toBe(target.id);
    expect(new Keyring(target).open(moved, 'rAddress')).toBe(seed);
    expect(() => new Keyring(target).open(sealed, 'rAddress')).toThrow();
  });

  it('parses MASTER_KEY as hex or base64 and rejects other lengths', () => {
    const k = generateMasterKey();
    expect(parseMasterKey(k.key.toString('hex')).id).toBe(k.id);
    expect(parseMasterKey(k.key.toString('base64')).id).toBe(k.id);
    expect(() => parseMasterKey('abcd')).toThrow(/MASTER_KEY/);
  });
});

describe('master key file', () => {
  it('is generated once under DATA_DIR with mode 0600 and reused', () => {
    const dir = tempDir();
    const first = loadKeyring({ dataDir: dir });
    const file = keyFilePath(dir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadKeyring({ dataDir: dir }).current.id).toBe(first.current.id);
  });

  it('tightens a key file someone made readable to others', () => {
    const dir = tempDir();
    loadKeyring({ dataDir: dir });
    const file = keyFilePath(dir);
    chmodSync(file, 0o644);
    loadKeyring({ dataDir: dir });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('prefers MASTER_KEY and writes no file then', () => {
    const dir = tempDir();
    const k = generateMasterKey();
    expect(loadKeyring({ dataDir: dir, masterKey: k.key.toString('hex') }).current.id).toBe(k.id);
    expect(() => statSync(keyFilePath(dir))).toThrow();
  });
});

describe('rotation', () => {
  it('npm run keys:rotate replaces the key file and the server keeps signing', async () => {
    const dir = tempDir();
    const keyring = loadKeyring({ dataDir: dir });
    const database = await openDatabase({ dataDir: path.join(dir, 'db') });
    const made = [Wallet.generate(), Wallet.generate(), Wallet.generate()];
    for (const [i, w] of made.entries()) {
      await insertWallet(database.db, keyring, { userId: null, role: `role-${i}`, wallet: w });
    }
    await database.close();

    const serverDir = path.resolve(import.meta.dirname, '../..');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/scripts/rotate-keys.ts'], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent', MASTER_KEY: '' },
    });
    expect(stdout).toMatch(/Re-wrapped 3 of 3 wallet keys/);
    expect(() => statSync(keyFilePath(dir, NEXT_KEY_FILE_NAME))).toThrow();
    const rotated = loadKeyring({ dataDir: dir });
    expect(rotated.current.id).not.toBe(keyring.current.id);
    expect(statSync(keyFilePath(dir)).mode & 0o777).toBe(0o600);

    const again = await openDatabase({ dataDir: path.join(dir, 'db') });
    try {
      const rows = await again.db.select().from(wallets);
      expect(rows).toHaveLength(3);
      for (const stored of rows) {
        // Same sealed seed, new wrapping: opens under the new key only.
        expect(stored.keyId).toBe(rotated.current.id);
        const w = made.find((m) => m.classicAddress === stored.address)!;
        expect(openWallet(rotated, stored).seed).toBe(w.seed);
        expect(() => openWallet(keyring, stored)).toThrow();
      }
      // Nothing left to move: a second run changes nothing.
      expect(await rewrapAll(again.db, rotated, rotated.current)).toEqual({ rewrapped: 0, total: 3 });
    } finally {
      await again.close();
    }
  }, 60_000);

  it('a rotation interrupted before its rename still opens every record', () => {
    const dir = tempDir();
    const current = loadKeyring({ dataDir: dir });
    const next = generateMasterKey();
    writeKeyFile(keyFilePath(dir, NEXT_KEY_FILE_NAME), next);
    const both = loadKeyring({ dataDir: dir });
    expect(both.current.id).toBe(current.current.id);
    expect(both.has(next.id)).toBe(true);
  });
});

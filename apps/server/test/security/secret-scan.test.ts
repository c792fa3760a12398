import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { decodeSeed, ECDSA, Wallet } from 'xrpl';
import { SecretScanner, describeHits, type WalletSecret } from '../helpers/secret-scan';

// The canary's scanner can fail: a known secret planted in each encoding — written by the encoders
// a program would use (JSON, Buffer's base64 / hex / UTF-16 of a longer text, a database's pages and
// WAL), not by the scanner's own needles — is found in each, and nothing is found where none is.

const dir = mkdtempSync(path.join(tmpdir(), 'ledgerpad-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const secp = Wallet.generate();
const ed = Wallet.generate(ECDSA.ed25519);
// BIP39 test vector words (a key pair along m/44'/144'/0'/0/0, no family seed).
const MNEMONIC = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const fromWords = Wallet.fromMnemonic(MNEMONIC, { mnemonicEncoding: 'bip39' });
const secrets: WalletSecret[] = [
  { label: 'secp', seed: secp.seed! },
  { label: 'ed', seed: ed.seed! },
  { label: 'words', mnemonic: MNEMONIC, privateKey: fromWords.privateKey },
];
const scanner = new SecretScanner(secrets);

/** Random filler around a planted value, so it sits at an arbitrary offset of a larger file. */
const around = (inner: Buffer) =>
  Buffer.concat([randomBytes(1000 + Math.floor(Math.random() * 50)), inner, randomBytes(700)]);

function plant(name: string, bytes: Buffer): string {
  const file = path.join(dir, 'planted', name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, around(bytes));
  return path.join('planted', name);
}

describe('the secret scanner', () => {
  it('finds a seed, its entropy and its private key in each encoding, at any alignment', () => {
    const entropy = Buffer.from(decodeSeed(secp.seed!).bytes);
    const key = secp.privateKey; // 00 + 64 hex
    const cases: Array<[string, Buffer, RegExp]> = [
      ['seed-json', Buffer.from(JSON.stringify({ id: 3, wallet_seed: secp.seed })), /^seed utf-8$/],
      ['seed-utf16le', Buffer.from(`note: ${secp.seed} end`, 'utf16le'), /^seed utf-16le$/],
      ['seed-utf16be', Buffer.from(`x${secp.seed}`, 'utf16le').swap16(), /^seed utf-16be$/],
      ...[0, 1, 2].map((k): [string, Buffer, RegExp] => [
        `seed-base64-${k}`,
        Buffer.from(
          Buffer.concat([randomBytes(k), Buffer.from(secp.seed!), randomBytes(5)]).toString('base64'),
        ),
        new RegExp(`^seed base64 \\+${k}$`),
      ]),
      ['entropy-raw', entropy, /^seed entropy raw bytes$/],
      [
        'entropy-hex',
        Buffer.from(`\\x${randomBytes(7).toString('hex')}${entropy.toString('hex')}`),
        /^seed entropy hex utf-8$/,
      ],
      ['entropy-HEX', Buffer.from(entropy.toString('hex').toUpperCase()), /^seed entropy HEX utf-8$/],
      ['entropy-hex-utf16', Buffer.from(entropy.toString('hex'), 'utf16le'), /^seed entropy hex utf-16le$/],
      ...[0, 1, 2].map((k): [string, Buffer, RegExp] => [
        `entropy-base64url-${k}`,
        Buffer.from(Buffer.concat([randomBytes(k), entropy, randomBytes(4)]).toString('base64url')),
        new RegExp(`^seed entropy base64(url)? \\+${k}$`),
      ]),
      ['key-hex', Buffer.from(`"privateKey":"${key}"`), /^private key/],
      ['key-hex-lower', Buffer.from(key.toLowerCase()), /^private key/],
      ['key-raw', Buffer.from(key.slice(2), 'hex'), /^private key raw bytes$/],
      [
        'key-base64',
        Buffer.from(Buffer.from(key.slice(2), 'hex').toString('base64')),
        /^private key base64 \+0$/,
      ],
    ];
    for (const [name, bytes, encoding] of cases) {
      const where = plant(name, bytes);
      const hits = scanner.scanDirectory(dir).filter((h) => h.where === where);
      expect(
        hits.some((h) => h.label === 'secp' && encoding.test(h.encoding)),
        `${name}: ${describeHits(hits) || 'nothing found'}`,
      ).toBe(true);
      rmSync(path.join(dir, where));
    }
  });

  it('finds an Ed25519 seed and a mnemonic and its key in their encodings', () => {
    const cases: Array<[string, Buffer, string, RegExp]> = [
      ['ed-seed', Buffer.from(`seed=${ed.seed}`), 'ed', /^seed utf-8$/],
      ['ed-key', Buffer.from(ed.privateKey.slice(2).toLowerCase()), 'ed', /^private key hex utf-8$/],
      ['words-utf8', Buffer.from(`{"mnemonic":"${MNEMONIC}"}`), 'words', /^mnemonic utf-8$/],
      ['words-utf16be', Buffer.from(MNEMONIC, 'utf16le').swap16(), 'words', /^mnemonic utf-16be$/],
      [
        'words-base64',
        Buffer.from(Buffer.from(`  ${MNEMONIC}`).toString('base64')),
        'words',
        /^mnemonic base64 \+2$/,
      ],
      ['words-key', Buffer.from(fromWords.privateKey), 'words', /^private key/],
    ];
    for (const [name, bytes, label, encoding] of cases) {
      const where = plant(name, bytes);
      const hits = scanner.scanDirectory(dir).filter((h) => h.where === where);
      expect(
        hits.some((h) => h.label === label && encoding.test(h.encoding)),
        `${name}: ${describeHits(hits) || 'nothing found'}`,
      ).toBe(true);
      rmSync(path.join(dir, where));
    }
  });

  it('finds a seed written into a database in its pages and its WAL, and in a log line', async () => {
    const dataDir = path.join(dir, 'pglite');
    const db = new PGlite(dataDir);
    await db.exec('create table answers (id int primary key, response jsonb)');
    await db.query('insert into answers values (1, $1)', [JSON.stringify({ wallet_seed: ed.seed })]);
    await db.close();
    const hits = scanner.scanDirectory(dataDir);
    expect(
      hits.some((h) => h.label === 'ed' && h.where.startsWith('base/')),
      describeHits(hits),
    ).toBe(true);
    expect(
      hits.some((h) => h.label === 'ed' && h.where.startsWith('pg_wal/')),
      describeHits(hits),
    ).toBe(true);
    const line = JSON.stringify({ level: 10, msg: 'imported', body: { mnemonic: MNEMONIC } });
    expect(scanner.scanText(line, 'log').map((h) => h.label)).toContain('words');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds nothing where no secret is: other wallets, public keys, addresses', () => {
    const other = Wallet.generate();
    const where = plant(
      'clean',
      Buffer.from(
        JSON.stringify({
          other: other.seed,
          addresses: [secp.classicAddress, ed.classicAddress, fromWords.classicAddress],
          publicKeys: [secp.publicKey, ed.publicKey, fromWords.publicKey],
        }),
      ),
    );
    expect(describeHits(scanner.scanDirectory(dir))).toBe('');
    rmSync(path.join(dir, where));
  });
});

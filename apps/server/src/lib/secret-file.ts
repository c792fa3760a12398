import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Reads a 32-byte secret from `file`, creating it (mode 0600) on first use. The embedded default
 * keeps its secrets in DATA_DIR so `npm start` needs no configuration; `wx` makes concurrent first
 * starts agree on one secret instead of overwriting each other.
 */
export async function loadOrCreateSecret(file: string): Promise<Buffer> {
  try {
    return parseSecret(await readFile(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(path.dirname(file), { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parseSecret(await readFile(file, 'utf8'), file);
}

function parseSecret(text: string, file: string): Buffer {
  const hex = text.trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} does not hold a 64-hex-digit secret`);
  return Buffer.from(hex, 'hex');
}

import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { generateMasterKey, Keyring, parseMasterKey, type MasterKey } from './envelope';

// Where the master key comes from: MASTER_KEY in production (a secret manager injects it), or on the
// embedded default a key file under DATA_DIR created on first start, readable by the owner only.

const KEY_FILE_NAME = 'master.key';
/** Written by a rotation before it commits; a crash between commit and rename leaves both usable. */
export const NEXT_KEY_FILE_NAME = 'master.key.next';

export interface KeySourceOptions {
  /** MASTER_KEY from configuration (64 hex or base64). When set no key file is used. */
  masterKey?: string;
  /** Older master keys that may still wrap some records (MASTER_KEY_PREVIOUS). */
  previousKeys?: string[];
  dataDir: string;
}

export function keyFilePath(dataDir: string, name = KEY_FILE_NAME): string {
  return path.join(dataDir, name);
}

/** Creates the file with 0600 from the start (never written world-readable, then tightened). */
export function writeKeyFile(file: string, key: MasterKey): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, `${key.key.toString('hex')}\n`);
  } finally {
    closeSync(fd);
  }
  chmodSync(file, 0o600); // the umask cannot loosen it, but be explicit
}

export function readKeyFile(file: string): MasterKey {
  const mode = statSync(file).mode & 0o777;
  if (mode & 0o077) chmodSync(file, 0o600); // someone loosened it; a key file is the owner's only
  return parseMasterKey(readFileSync(file, 'utf8'));
}

export function loadKeyring(opts: KeySourceOptions): Keyring {
  const previous = (opts.previousKeys ?? []).map(parseMasterKey);
  if (opts.masterKey) return new Keyring(parseMasterKey(opts.masterKey), previous);
  const file = keyFilePath(opts.dataDir);
  if (!existsSync(file)) {
    try {
      writeKeyFile(file, generateMasterKey());
    } catch (err) {
      // Another process created it at the same moment: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const current = readKeyFile(file);
  const next = keyFilePath(opts.dataDir, NEXT_KEY_FILE_NAME);
  if (existsSync(next)) previous.push(readKeyFile(next));
  return new Keyring(current, previous);
}

/** Finishes a file-based rotation: the new key becomes the key file (atomic rename). */
export function promoteNextKeyFile(dataDir: string): void {
  renameSync(keyFilePath(dataDir, NEXT_KEY_FILE_NAME), keyFilePath(dataDir));
}

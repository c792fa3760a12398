import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { generateMasterKey, Keyring, parseMasterKey } from '../keys/envelope';
import {
  keyFilePath,
  loadKeyring,
  NEXT_KEY_FILE_NAME,
  promoteNextKeyFile,
  readKeyFile,
  writeKeyFile,
} from '../keys/key-file';
import { rewrapAll } from '../keys/rotate';

// `npm run keys:rotate`: re-wraps every wallet data key under a new master key.
// - Key file (embedded default): a new key is generated as DATA_DIR/master.key.next, every record is
//   re-wrapped in one transaction, then the new file replaces master.key. Stop the server first when
//   the database is the embedded PGlite (one process at a time).
// - MASTER_KEY: set NEW_MASTER_KEY to the new key; after the run, deploy with MASTER_KEY=<new key>.

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const database = await openDatabase(
    config.DATABASE_URL
      ? { url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA }
      : { dataDir: path.join(config.dataDir, 'db') },
  );
  try {
    if (config.MASTER_KEY) {
      if (!config.NEW_MASTER_KEY)
        throw new Error('Set NEW_MASTER_KEY to the key to rotate to (64 hex characters).');
      const target = parseMasterKey(config.NEW_MASTER_KEY);
      const keyring = new Keyring(parseMasterKey(config.MASTER_KEY), [
        ...config.MASTER_KEY_PREVIOUS.map(parseMasterKey),
        target,
      ]);
      const r = await rewrapAll(database.db, keyring, target);
      console.log(`Re-wrapped ${r.rewrapped} of ${r.total} wallet keys under master key ${target.id}.`);
      console.log('Now restart every instance with MASTER_KEY set to the new key.');
      return;
    }
    const nextFile = keyFilePath(config.dataDir, NEXT_KEY_FILE_NAME);
    // A rotation that stopped half-way left its key behind: finish with that key, never a third one.
    const target = existsSync(nextFile) ? readKeyFile(nextFile) : generateMasterKey();
    if (!existsSync(nextFile)) writeKeyFile(nextFile, target);
    const keyring = loadKeyring({ dataDir: config.dataDir, previousKeys: config.MASTER_KEY_PREVIOUS });
    const r = await rewrapAll(database.db, keyring, target);
    promoteNextKeyFile(config.dataDir);
    console.log(
      `Re-wrapped ${r.rewrapped} of ${r.total} wallet keys under master key ${target.id} (${keyFilePath(config.dataDir)}).`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError
      ? err.message
      : `Key rotation failed: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
});

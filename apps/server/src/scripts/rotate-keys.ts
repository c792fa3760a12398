import { existsSync } from 'node:fs';
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
import { runScript } from './run-script';

// `npm run keys:rotate`: re-wraps every wallet data key under a new master key.
// - Key file (embedded default): a new key is generated as DATA_DIR/master.key.next, every record is
//   re-wrapped in one transaction, then the new file replaces master.key. Stop the server first when
//   the database is the embedded PGlite (one process at a time).
// - MASTER_KEY: set NEW_MASTER_KEY to the new key; after the run, deploy with MASTER_KEY=<new key>.

runScript('Key rotation failed', async (config, database) => {
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
});

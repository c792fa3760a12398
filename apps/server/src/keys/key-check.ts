import { eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sealedOf } from '../platform/custody';
import { custodyKeyCheck, wallets } from '../platform/custody-schema';
import { KeyCustodyError, type Keyring, type MasterKey, type SealedSecret } from './envelope';

// The boot check of the master key against the database: every instance on one database must hold
// the key its custody records are sealed with. Checked once at start-up, so a wrong MASTER_KEY stops
// the instance with a message naming the key, not the first swap with a 500.

const KEY_CHECK_ID = 1;
const KEY_CHECK_PLAINTEXT = 'ledgerpad-custody-key-check';
const KEY_CHECK_CONTEXT = 'custody-key-check';

type CheckRow = typeof custodyKeyCheck.$inferSelect;

const sealedOfCheck = (row: CheckRow): SealedSecret => ({
  ciphertext: row.ciphertext,
  nonce: row.nonce,
  wrappedKey: row.dataKeyWrapped,
  wrappedKeyNonce: row.dataKeyNonce,
  keyId: row.keyId,
});

const columnsOf = (s: SealedSecret) => ({
  ciphertext: s.ciphertext,
  nonce: s.nonce,
  dataKeyWrapped: s.wrappedKey,
  dataKeyNonce: s.wrappedKeyNonce,
  keyId: s.keyId,
});

class MasterKeyMismatchError extends KeyCustodyError {
  constructor(
    readonly neededKeyIds: string[],
    readonly heldKeyIds: string[],
  ) {
    super(
      `This instance's master key cannot open the custody records in this database: they are sealed ` +
        `with master key ${neededKeyIds.join(', ')}, and this instance has ${heldKeyIds.join(', ')}. ` +
        'Start every instance with the same MASTER_KEY (and MASTER_KEY_PREVIOUS during a rotation); ' +
        'see docs/production.md.',
    );
    this.name = 'MasterKeyMismatchError';
  }
}

const held = (keyring: Keyring): string[] => keyring.ids();

/**
 * Verifies that `keyring` opens the database's key-check record and holds the key of every wallet;
 * writes the record on the first start (sealed under the current key). Throws
 * MasterKeyMismatchError naming the missing key ids.
 */
export async function verifyMasterKey(db: Db, keyring: Keyring): Promise<{ created: boolean }> {
  // Every key a wallet is sealed with must be here (a half-finished rotation needs both).
  // Self-custody wallets have no key here at all (docs/self-custody.md).
  const used = (
    await db.selectDistinct({ keyId: wallets.keyId }).from(wallets).where(isNotNull(wallets.keyId))
  )
    .map((r) => r.keyId)
    .filter((id): id is string => id !== null)
    .map((keyId) => ({ keyId }));
  const missing = used.map((r) => r.keyId).filter((id) => !keyring.has(id));
  if (missing.length) throw new MasterKeyMismatchError(missing.sort(), held(keyring));

  let [row] = await db.select().from(custodyKeyCheck).where(eq(custodyKeyCheck.id, KEY_CHECK_ID));
  let created = false;
  if (!row) {
    // A database from before the key check, or the first start: proven by opening one wallet of
    // each key (the fingerprint alone could be forged by editing the column).
    for (const { keyId } of used) {
      const [w] = await db.select().from(wallets).where(eq(wallets.keyId, keyId)).limit(1);
      if (!w) continue;
      try {
        keyring.open(sealedOf(w), w.address);
      } catch {
        throw new MasterKeyMismatchError([keyId], held(keyring));
      }
    }
    const sealed = keyring.seal(KEY_CHECK_PLAINTEXT, KEY_CHECK_CONTEXT);
    // Two instances starting on an empty database together: the first insert wins, both check it.
    const inserted = await db
      .insert(custodyKeyCheck)
      .values({ id: KEY_CHECK_ID, ...columnsOf(sealed) })
      .onConflictDoNothing()
      .returning();
    created = inserted.length > 0;
    [row] = await db.select().from(custodyKeyCheck).where(eq(custodyKeyCheck.id, KEY_CHECK_ID));
    if (!row) throw new KeyCustodyError('The custody key check could not be recorded');
  }
  if (!keyring.has(row.keyId)) throw new MasterKeyMismatchError([row.keyId], held(keyring));
  let opened: string;
  try {
    opened = keyring.open(sealedOfCheck(row), KEY_CHECK_CONTEXT);
  } catch {
    throw new MasterKeyMismatchError([row.keyId], held(keyring));
  }
  if (opened !== KEY_CHECK_PLAINTEXT) throw new MasterKeyMismatchError([row.keyId], held(keyring));
  return { created };
}

/** Re-wraps the key-check record under `target` inside a rotation's transaction. */
export async function rewrapKeyCheck(tx: Db, keyring: Keyring, target: MasterKey): Promise<void> {
  const [row] = await tx
    .select()
    .from(custodyKeyCheck)
    .where(eq(custodyKeyCheck.id, KEY_CHECK_ID))
    .for('update');
  if (!row || row.keyId === target.id) return;
  const sealed = keyring.rewrap(sealedOfCheck(row), target);
  await tx
    .update(custodyKeyCheck)
    .set({ ...columnsOf(sealed), updatedAt: sql`now()` })
    .where(eq(custodyKeyCheck.id, KEY_CHECK_ID));
}

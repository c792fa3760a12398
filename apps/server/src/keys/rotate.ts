import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sealedOf } from '../platform/custody';
import { wallets } from '../platform/custody-schema';
import type { Keyring, MasterKey } from './envelope';
import { rewrapKeyCheck } from './key-check';

/**
 * Re-wraps every wallet's data key under `target` in one database transaction: either every record
 * moves to the new master key or none does. Seeds are never decrypted, only their data keys.
 */
export async function rewrapAll(
  db: Db,
  keyring: Keyring,
  target: MasterKey,
): Promise<{ rewrapped: number; total: number }> {
  return db.transaction(async (t) => {
    const rows = await t.select().from(wallets).for('update');
    let rewrapped = 0;
    for (const row of rows) {
      // Self-custody wallets hold no key here (docs/self-custody.md): nothing to re-wrap.
      if (row.kind !== 'custodial' || row.keyId === target.id) continue;
      const sealed = keyring.rewrap(sealedOf(row), target);
      await t
        .update(wallets)
        .set({ dataKeyWrapped: sealed.wrappedKey, dataKeyNonce: sealed.wrappedKeyNonce, keyId: sealed.keyId })
        .where(eq(wallets.id, row.id));
      rewrapped += 1;
    }
    // The boot check moves with the records, so instances on the new key start and old ones refuse.
    await rewrapKeyCheck(t, keyring, target);
    return { rewrapped, total: rows.length };
  });
}

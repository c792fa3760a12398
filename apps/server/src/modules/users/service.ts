import { OWNER_USER_ID, type User } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { admins } from '../admin/schema';
import { users, type UserRow } from './schema';

/** The user as the API shows it (spec 000 §3): snake_case, no internal columns. */
export function toPublicUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    first_name: row.firstName,
    photo_url: row.photoUrl,
    email: row.email,
    telegram_id: row.telegramId,
    google_id: row.googleId,
    created_at: row.createdAt.toISOString(),
  };
}

export interface ProfileFields {
  username?: string | null;
  firstName?: string | null;
  photoUrl?: string | null;
  email?: string | null;
}

type Identity = { telegramId: number } | { googleId: string } | { demoUsername: string };

/**
 * Creates the user for an identity or refreshes its profile from the identity provider. The first
 * user ever created gets id 1 and becomes the owner: an admin, in the same transaction.
 */
export async function upsertUser(db: Db, identity: Identity, profile: ProfileFields): Promise<UserRow> {
  const target =
    'telegramId' in identity
      ? users.telegramId
      : 'googleId' in identity
        ? users.googleId
        : users.demoUsername;
  // Fields left undefined keep their stored value; null clears (the provider says there is none).
  const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
  for (const [k, v] of Object.entries(profile)) if (v !== undefined) (set as Record<string, unknown>)[k] = v;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({ ...identity, ...profile })
      .onConflictDoUpdate({ target, set })
      .returning();
    if (!row) throw new Error('upsert returned no row');
    if (row.id === OWNER_USER_ID) {
      await tx.insert(admins).values({ userId: row.id }).onConflictDoNothing();
    }
    return row;
  });
}

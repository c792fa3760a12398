import { eq, inArray } from 'drizzle-orm';
import type { User } from '@ledgerpad/shared';
import { batchedRead, isRowId } from '../../db/batched';
import type { Db } from '../../db/client';
import { safeEqual } from '../../lib/crypto';
import { badRequest, forbidden } from '../../lib/errors';
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

type Identity = { telegramId: number } | { googleId: string };

/** A signed-in user's row, and whether this sign-in created it (their first: referrals bind then). */
export type SignedInUser = UserRow & { created: boolean };

/**
 * Creates the user for an identity or refreshes its profile from the identity provider. Sign-in
 * never creates the owner: user id 1 exists from the first start (migration 0003). `created` is
 * true only for the sign-in whose insert made the row (two first sign-ins at once: one of them).
 */
export async function upsertUser(db: Db, identity: Identity, profile: ProfileFields): Promise<SignedInUser> {
  const target = 'telegramId' in identity ? users.telegramId : users.googleId;
  const [inserted] = await db
    .insert(users)
    .values({ ...identity, ...profile })
    .onConflictDoNothing({ target })
    .returning();
  if (inserted) return { ...inserted, created: true };
  // Fields left undefined keep their stored value; null clears (the provider says there is none).
  const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
  for (const [k, v] of Object.entries(profile)) if (v !== undefined) (set as Record<string, unknown>)[k] = v;
  const where =
    'telegramId' in identity
      ? eq(users.telegramId, identity.telegramId)
      : eq(users.googleId, identity.googleId);
  const [row] = await db.update(users).set(set).where(where).returning();
  if (!row) throw new Error('upsert returned no row');
  return { ...row, created: false };
}

/** Names a demo user may not take: they would read as the platform's own accounts. */
const RESERVED_DEMO_NAMES = new Set(['owner', 'admin', 'administrator', 'root', 'ledgerpad', 'support']);

const DEMO_MESSAGES = {
  reserved: 'This name is reserved. Please choose another name.',
  taken: 'This demo name belongs to another browser. Please choose another name.',
} as const;

/**
 * Demo sign-in: creates an ordinary user bound to the browser's device secret, or signs that same
 * browser back in. Another browser presenting the name is refused, so a demo name is not a password.
 */
export async function demoSignIn(db: Db, username: string, deviceHash: string): Promise<SignedInUser> {
  const name = username.toLowerCase();
  if (RESERVED_DEMO_NAMES.has(name)) throw badRequest(DEMO_MESSAGES.reserved);
  const sameDevice = (row: UserRow) =>
    row.demoDeviceHash !== null && safeEqual(row.demoDeviceHash, deviceHash);
  const [existing] = await db.select().from(users).where(eq(users.demoUsername, name)).limit(1);
  if (existing) {
    if (!sameDevice(existing)) throw forbidden(DEMO_MESSAGES.taken);
    return { ...existing, created: false };
  }
  const [created] = await db
    .insert(users)
    .values({ demoUsername: name, demoDeviceHash: deviceHash, username, firstName: username })
    .onConflictDoNothing({ target: users.demoUsername })
    .returning();
  if (created) return { ...created, created: true };
  // Another request created the name between our read and insert.
  const [winner] = await db.select().from(users).where(eq(users.demoUsername, name)).limit(1);
  if (!winner || !sameDevice(winner)) throw forbidden(DEMO_MESSAGES.taken);
  return { ...winner, created: false };
}

/** Whether a demo name is taken already (signing in with it creates no user). */
export async function demoUserExists(db: Db, username: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.demoUsername, username.toLowerCase()))
    .limit(1);
  return rows.length > 0;
}

/** The admin-set trading fee of a user in percent, or null for the platform's fee. */
export async function customFeePercent(db: Db, userId: number): Promise<string | null> {
  let read = feeReaders.get(db);
  if (!read) {
    // Every quote, swap and trade record asks: the users asked for in one turn are read together.
    read = batchedRead(async (ids: number[]) => {
      const rows = await db
        .select({ id: users.id, fee: users.customFeePercentage })
        .from(users)
        .where(inArray(users.id, ids));
      return new Map(rows.map((r) => [String(r.id), r.fee]));
    });
    feeReaders.set(db, read);
  }
  return isRowId(userId) ? ((await read(userId)) ?? null) : null;
}
const feeReaders = new WeakMap<Db, (userId: number) => Promise<string | null | undefined>>();

/**
 * How a claim's text names a user ('Ledgerpad: make alice (user #7) controller of …'): the
 * username, the demo name or the first name, reduced to letters, digits and `_.-` (it goes into a
 * ledger memo and a TOML string); 'user' when none is left. The user id beside it is what binds.
 */
export async function claimLabel(db: Db, userId: number): Promise<string> {
  const [row] = await db
    .select({ username: users.username, demo: users.demoUsername, first: users.firstName })
    .from(users)
    .where(eq(users.id, userId));
  const raw = row?.username ?? row?.demo ?? row?.first ?? '';
  const clean = raw
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_.-]/gu, '')
    .slice(0, 32);
  return clean || 'user';
}

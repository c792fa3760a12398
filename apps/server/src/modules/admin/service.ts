import { eq } from 'drizzle-orm';
import { OWNER_USER_ID } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { admins } from './schema';

export async function isAdmin(db: Db, userId: number): Promise<boolean> {
  const rows = await db
    .select({ userId: admins.userId })
    .from(admins)
    .where(eq(admins.userId, userId))
    .limit(1);
  return rows.length > 0;
}

export async function addAdmin(db: Db, userId: number, addedBy: number | null): Promise<void> {
  await db.insert(admins).values({ userId, addedBy }).onConflictDoNothing();
}

/** The owner can never be removed (spec 001 §6); a database trigger enforces the same. */
export async function removeAdmin(db: Db, userId: number): Promise<void> {
  if (userId === OWNER_USER_ID) throw new AppError('FORBIDDEN', 'The owner (user id 1) cannot be removed');
  await db.delete(admins).where(eq(admins.userId, userId));
}

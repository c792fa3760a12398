import { eq } from 'drizzle-orm';
import { OWNER_USER_ID } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { forbidden } from '../../lib/errors';
import { adminAudit, admins } from './schema';

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
  if (userId === OWNER_USER_ID) throw forbidden('The owner (user id 1) cannot be removed');
  await db.delete(admins).where(eq(admins.userId, userId));
}

export interface AdminAuditEntry {
  adminUserId: number;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
  txHash?: string | null;
}

/**
 * One row of the append-only admin audit trail. Run it in the transaction of the change it records.
 * Values are stored as { value } objects: a bare JSON string or number reads back ambiguously.
 */
export async function recordAdminAudit(db: Db, e: AdminAuditEntry): Promise<void> {
  const wrap = (v: unknown) => (v !== null && typeof v === 'object' ? v : { value: v ?? null });
  await db.insert(adminAudit).values({
    adminUserId: e.adminUserId,
    action: e.action,
    target: e.target,
    before: wrap(e.before),
    after: wrap(e.after),
    txHash: e.txHash ?? null,
  });
}

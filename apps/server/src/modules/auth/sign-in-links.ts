import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { OWNER_USER_ID } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { signInLinks } from './schema';

// The owner's way in: a one-time link, like a notebook server's token URL. The owner account
// (user id 1) is created by migration 0003 before anyone can sign in; only someone who can read the
// server's console (or run `npm run owner-link` against its database) gets a link.

/** A printed link stays usable this long, so a local app restarted rarely keeps a working link. */
export const SIGN_IN_LINK_TTL_MS = 7 * 24 * 3600_000;

export const OWNER_LINK_PATH = '/api/auth/owner-link';

/**
 * Issues a new one-time link for the owner and revokes every earlier unused one, so only the most
 * recently printed link works. Returns the raw token (shown once, stored only as its hash).
 */
export async function issueOwnerLink(db: Db, now = Date.now()): Promise<string> {
  const token = randomToken(32);
  await db.transaction(async (tx) => {
    await tx
      .update(signInLinks)
      .set({ revokedAt: new Date(now) })
      .where(
        and(eq(signInLinks.userId, OWNER_USER_ID), isNull(signInLinks.usedAt), isNull(signInLinks.revokedAt)),
      );
    await tx.insert(signInLinks).values({
      tokenHash: sha256Hex(token),
      userId: OWNER_USER_ID,
      createdAt: new Date(now),
      expiresAt: new Date(now + SIGN_IN_LINK_TTL_MS),
    });
  });
  return token;
}

/** Whether the owner has ever signed in with a link (production prints links only until then). */
export async function ownerHasSignedIn(db: Db): Promise<boolean> {
  const rows = await db
    .select({ id: signInLinks.id })
    .from(signInLinks)
    .where(and(eq(signInLinks.userId, OWNER_USER_ID), sql`${signInLinks.usedAt} is not null`))
    .limit(1);
  return rows.length > 0;
}

/** Spends a link: the user id when it is valid, unused and unexpired (atomically, so only once). */
export async function redeemSignInLink(db: Db, token: string, now = Date.now()): Promise<number | null> {
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return null;
  const [row] = await db
    .update(signInLinks)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(signInLinks.tokenHash, sha256Hex(token)),
        isNull(signInLinks.usedAt),
        isNull(signInLinks.revokedAt),
        gt(signInLinks.expiresAt, new Date(now)),
      ),
    )
    .returning({ userId: signInLinks.userId });
  return row?.userId ?? null;
}

export const ownerLinkUrl = (baseUrl: string, token: string): string =>
  `${baseUrl.replace(/\/$/, '')}${OWNER_LINK_PATH}?token=${token}`;

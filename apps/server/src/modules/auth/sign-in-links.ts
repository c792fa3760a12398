import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { OWNER_USER_ID } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { signInLinks } from './schema';

// The owner's way in: a one-time link, like a notebook server's token URL. The owner account
// (user id 1) is created by migration 0003 before anyone can sign in; only someone who can read the
// server's console (or run `npm run owner-link` against its database) gets a link.

/** A printed link stays usable this long, so a local app restarted rarely keeps a working link. */
const SIGN_IN_LINK_TTL_MS = 7 * 24 * 3600_000;

export const OWNER_LINK_PATH = '/api/auth/owner-link';

/**
 * Issues a new one-time link for the owner. Earlier unused links stay valid until they expire or
 * the owner signs in with any of them: several instances on one database each print a link at
 * start, and the one an operator copied must not die because another instance started. Returns the
 * raw token (shown once, stored only as its hash).
 */
export async function issueOwnerLink(db: Db, now = Date.now()): Promise<string> {
  const token = randomToken(32);
  await db.insert(signInLinks).values({
    tokenHash: sha256Hex(token),
    userId: OWNER_USER_ID,
    createdAt: new Date(now),
    expiresAt: new Date(now + SIGN_IN_LINK_TTL_MS),
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

export type RedeemResult = { userId: number } | { refused: 'invalid' | 'used' | 'expired' };

/**
 * Spends a link: the user id when it is valid, unused and unexpired (atomically, so only once). Once
 * a link is used, every other unused link of that user is revoked: the links still sitting in the
 * consoles of other instances open nothing any more.
 */
export async function redeemSignInLink(db: Db, token: string, now = Date.now()): Promise<RedeemResult> {
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(token)) return { refused: 'invalid' };
  const at = new Date(now);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(signInLinks)
      .set({ usedAt: at })
      .where(
        and(
          eq(signInLinks.tokenHash, sha256Hex(token)),
          isNull(signInLinks.usedAt),
          isNull(signInLinks.revokedAt),
          gt(signInLinks.expiresAt, at),
        ),
      )
      .returning({ id: signInLinks.id, userId: signInLinks.userId });
    if (!row) {
      const [known] = await tx
        .select()
        .from(signInLinks)
        .where(eq(signInLinks.tokenHash, sha256Hex(token)))
        .limit(1);
      if (!known) return { refused: 'invalid' };
      if (known.usedAt || known.revokedAt) return { refused: 'used' };
      return { refused: 'expired' };
    }
    await tx
      .update(signInLinks)
      .set({ revokedAt: at })
      .where(
        and(
          eq(signInLinks.userId, row.userId),
          isNull(signInLinks.usedAt),
          isNull(signInLinks.revokedAt),
          ne(signInLinks.id, row.id),
        ),
      );
    return { userId: row.userId };
  });
}

export const ownerLinkUrl = (baseUrl: string, token: string): string =>
  `${baseUrl.replace(/\/$/, '')}${OWNER_LINK_PATH}?token=${token}`;

/** What a refused link says, by reason. */
const SIGN_IN_LINK_MESSAGES = {
  invalid: 'This sign-in link is not valid.',
  used: 'This sign-in link has already been used.',
  expired: 'This sign-in link has expired.',
  howToGetNew:
    'Each link works once, for 7 days. For a new one, restart Ledgerpad (it prints a link at start) or run `npm run owner-link` on the server.',
} as const;

/** The page a spent, expired or unknown link opens (a person followed it from a console). */
export function signInLinkRefusedPage(reason: 'invalid' | 'used' | 'expired'): string {
  const title = SIGN_IN_LINK_MESSAGES[reason];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ledgerpad sign-in link</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}code{background:#eee;padding:0 .25rem}</style>
</head><body>
<h1>${title}</h1>
<p>${SIGN_IN_LINK_MESSAGES.howToGetNew.replace('`npm run owner-link`', '<code>npm run owner-link</code>')}</p>
<p><a href="/">Go to Ledgerpad</a></p>
</body></html>
`;
}

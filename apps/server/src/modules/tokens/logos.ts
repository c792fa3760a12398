import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tokens } from './schema';

/** Which of these logo URLs a listed token shows (the uploads module's sweep keeps those). */
export async function tokenLogosInUse(db: Db, urls: string[]): Promise<string[]> {
  if (urls.length === 0) return [];
  const rows = await db
    .selectDistinct({ url: tokens.logoUrl })
    .from(tokens)
    .where(inArray(tokens.logoUrl, urls));
  return rows.flatMap((r) => (r.url ? [r.url] : []));
}

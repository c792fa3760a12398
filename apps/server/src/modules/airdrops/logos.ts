import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { airdrops } from './schema';

/** Which of these logo URLs an airdrop shows, whatever its state (the uploads sweep keeps those). */
export async function airdropLogosInUse(db: Db, urls: string[]): Promise<string[]> {
  if (urls.length === 0) return [];
  const rows = await db
    .selectDistinct({ url: airdrops.logoUrl })
    .from(airdrops)
    .where(inArray(airdrops.logoUrl, urls));
  return rows.map((r) => r.url);
}

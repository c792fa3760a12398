import { and, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jobs } from '../../platform/jobs';
import { DEPLOY_JOB } from './job';

/**
 * Which of these logo URLs a deploy still in progress will list (once listed, the token refers to
 * it). The uploads module's sweep keeps those.
 */
export async function deployLogosInUse(db: Db, urls: string[]): Promise<string[]> {
  if (urls.length === 0) return [];
  const logo = sql<string>`${jobs.payload}->'form'->>'logoUrl'`;
  const rows = await db
    .selectDistinct({ url: logo })
    .from(jobs)
    .where(
      and(
        inArray(jobs.type, [DEPLOY_JOB]),
        notInArray(jobs.status, ['completed', 'failed']),
        inArray(logo, urls),
      ),
    );
  return rows.map((r) => r.url);
}

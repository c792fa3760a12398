import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { quotaEvents } from './schema';

// Sliding-window quotas for the resources one visitor or user can make the server keep (demo users,
// upload bytes): checked and recorded in one database transaction under an advisory lock on the
// subject, so parallel requests on any instance cannot slip past together. A refusal is a 429 with
// Retry-After: the moment enough of the window has passed for this use to fit.

export interface QuotaRule {
  bucket: string;
  /** The most `amount` summed over the window. */
  limit: number;
  windowMs: number;
  /** The refusal's sentence (the Retry-After seconds are appended). */
  message: string;
}

/** Nothing older than this is ever counted (the longest window is a day). */
const KEEP_MS = 2 * 24 * 3600_000;
/** Old rows of every subject are deleted at most this often per instance. */
const PURGE_EVERY_MS = 3600_000;

class QuotaExceeded extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super('RATE_LIMITED', `Too Many Requests: ${message} Try again in ${retryAfterSeconds} s.`, {
      retryAfter: retryAfterSeconds,
    });
  }
}

export class Quotas {
  private lastPurge = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts `amount` against `subject` when it fits the window, else throws QuotaExceeded. Returns
   * the use's id, for `refund` when the use did not happen after all.
   */
  async take(rule: QuotaRule, subject: string, amount = 1): Promise<number> {
    const t = this.now();
    await this.purge(t);
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`quota:${rule.bucket}:${subject}`}))`);
      const since = new Date(t - rule.windowMs);
      const used = await tx
        .select({ amount: quotaEvents.amount, createdAt: quotaEvents.createdAt })
        .from(quotaEvents)
        .where(
          and(
            eq(quotaEvents.bucket, rule.bucket),
            eq(quotaEvents.subject, subject),
            gt(quotaEvents.createdAt, since),
          ),
        )
        .orderBy(asc(quotaEvents.createdAt));
      let total = used.reduce((sum, e) => sum + e.amount, 0);
      if (total + amount > rule.limit) {
        // The oldest uses leave the window first: wait until enough of them have.
        let freeAt = t + rule.windowMs;
        for (const e of used) {
          total -= e.amount;
          if (total + amount <= rule.limit) {
            freeAt = e.createdAt.getTime() + rule.windowMs;
            break;
          }
        }
        throw new QuotaExceeded(rule.message, Math.max(1, Math.ceil((freeAt - t) / 1000)));
      }
      const [row] = await tx
        .insert(quotaEvents)
        .values({ bucket: rule.bucket, subject, amount, createdAt: new Date(t) })
        .returning({ id: quotaEvents.id });
      return row!.id;
    });
  }

  /** A use that did not happen (the action failed after `take`) no longer counts. */
  async refund(id: number): Promise<void> {
    await this.db.delete(quotaEvents).where(eq(quotaEvents.id, id));
  }

  /** `take`, then `fn`; refunded when `fn` throws. */
  async within<T>(rule: QuotaRule, subject: string, amount: number, fn: () => Promise<T>): Promise<T> {
    const id = await this.take(rule, subject, amount);
    try {
      return await fn();
    } catch (err) {
      await this.refund(id).catch(() => undefined);
      throw err;
    }
  }

  /** What `subject` has used in the window (tests, the admin view). */
  async used(rule: Pick<QuotaRule, 'bucket' | 'windowMs'>, subject: string): Promise<number> {
    const [row] = await this.db
      .select({ total: sql<string>`coalesce(sum(${quotaEvents.amount}), 0)` })
      .from(quotaEvents)
      .where(
        and(
          eq(quotaEvents.bucket, rule.bucket),
          eq(quotaEvents.subject, subject),
          gt(quotaEvents.createdAt, new Date(this.now() - rule.windowMs)),
        ),
      );
    return Number(row?.total ?? 0);
  }

  private async purge(t: number): Promise<void> {
    if (t - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = t;
    await this.db.delete(quotaEvents).where(lt(quotaEvents.createdAt, new Date(t - KEEP_MS)));
  }
}

export const DAY_MS = 24 * 3600_000;

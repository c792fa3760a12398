import { and, eq, sql } from 'drizzle-orm';
import { batchedWrite } from '../db/batched';
import type { Database } from '../db/client';
import { rowsOf } from '../db/results';
import { badRequest } from '../lib/errors';
import type { XrplConnection } from './connection';
import { ledgerReader } from './local-ledger';
import { ledgerAccounts } from './schema';
import { asError, rippledErrorName, type SubmissionRow } from './submission-types';

// Hands out account sequences from the database (`ledger_accounts.next_sequence`), so independent
// transactions of one account share a ledger instead of waiting one ledger each, and serialises the
// signing of each account in this process (a lock per account) so sequences are sent in order.

/** A database transaction, as drizzle hands it to `db.transaction`. */
export type DbTx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

export class SequenceAllocator {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly ready = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Database['db'],
    private readonly connection: XrplConnection,
  ) {}

  /** Runs `fn` holding the account's lock (after whatever holds it now, failed or not). */
  withAccount<T>(account: string, fn: () => Promise<T>): Promise<T> {
    return this.withAccounts([account], fn);
  }

  /** Runs `fn` holding every account's lock at once (taken together, so no two callers deadlock). */
  withAccounts<T>(accounts: string[], fn: () => Promise<T>): Promise<T> {
    const prev = accounts.map((a) => this.chains.get(a) ?? Promise.resolve());
    const next = Promise.all(prev.map((p) => p.catch(() => {}))).then(fn);
    const settled = next.catch(() => {});
    for (const account of accounts) {
      this.chains.set(account, settled);
      void settled.then(() => {
        if (this.chains.get(account) === settled) this.chains.delete(account);
      });
    }
    return next;
  }

  /**
   * Makes sure the account has a sequence row, reconciled once per process with the ledger: if the
   * account was used outside the platform its Sequence is ahead, and ours must jump forward.
   */
  async ensureAccount(account: string): Promise<void> {
    const err = (await this.ensureAccounts([account])).get(account);
    if (err) throw err;
  }

  /** ensureAccount for many accounts: their ledger sequences read at once, one statement to record. */
  async ensureAccounts(accounts: string[]): Promise<Map<string, Error | undefined>> {
    const missing = accounts.filter((a) => !this.ready.has(a));
    if (missing.length) {
      const batch = (async () => {
        const read = await Promise.all(
          missing.map(async (account) => {
            try {
              return { account, sequence: await this.ledgerSequence(account) };
            } catch (err) {
              return { account, err: asError(err) };
            }
          }),
        );
        const known = read.filter((r): r is { account: string; sequence: number } => 'sequence' in r);
        if (known.length) await Promise.all(known.map((r) => this.firstSequence(r)));
        return new Map(read.map((r) => [r.account, 'err' in r ? r.err : undefined]));
      })();
      for (const account of missing) {
        const ready = batch.then((m) => {
          const err = m.get(account);
          if (err) throw err;
        });
        this.ready.set(account, ready);
        ready.catch(() => this.ready.delete(account));
      }
    }
    const out = new Map<string, Error | undefined>();
    await Promise.all(
      accounts.map((a) =>
        this.ready.get(a)!.then(
          () => void out.set(a, undefined),
          (err: unknown) => void out.set(a, asError(err)),
        ),
      ),
    );
    return out;
  }

  /**
   * The sequence rows of the accounts first seen in one turn (a burst of new wallets' first buys,
   * one `ensureAccount` each), recorded in one statement: never below what the row holds.
   */
  private readonly firstSequence = batchedWrite(
    async (rows: Array<{ account: string; sequence: number }>) => {
      // One row per account (a statement may not update a row twice): the highest sequence read.
      const by = new Map<string, number>();
      for (const r of rows) by.set(r.account, Math.max(r.sequence, by.get(r.account) ?? 0));
      await this.db
        .insert(ledgerAccounts)
        .values([...by].map(([account, nextSequence]) => ({ account, nextSequence })))
        .onConflictDoUpdate({
          target: ledgerAccounts.account,
          set: {
            nextSequence: sql`greatest(${ledgerAccounts.nextSequence}, excluded.next_sequence)`,
            updatedAt: new Date(),
          },
        });
    },
  );

  /**
   * Advances each account's next sequence by its count in one statement, inside the caller's
   * database transaction (rolled back with it). Answers the first sequence handed to each account.
   */
  async allocate(t: DbTx, counts: Map<string, number>): Promise<Map<string, number>> {
    const pairs = [...counts].map(([account, n]) => sql`(${account}, ${n}::bigint)`);
    const allocated = await t.execute(sql`
      update ${ledgerAccounts} as la
         set next_sequence = la.next_sequence + c.n, updated_at = now()
        from (values ${sql.join(pairs, sql`, `)}) as c(account, n)
       where la.account = c.account
      returning la.account, la.next_sequence`);
    const first = new Map<string, number>();
    for (const r of rowsOf<{ account: string; next_sequence: number | string }>(allocated))
      first.set(r.account, Number(r.next_sequence) - counts.get(r.account)!);
    for (const account of counts.keys())
      if (!first.has(account)) throw new Error(`No sequence row for ${account}`);
    return first;
  }

  /** Takes back the end of an allocation that was not used (inside the same database transaction). */
  async rewind(t: DbTx, account: string, next: number): Promise<void> {
    await t.update(ledgerAccounts).set({ nextSequence: next }).where(eq(ledgerAccounts.account, account));
  }

  /**
   * The account's sequence is used up to `sequence` (someone used the key elsewhere): ours jumps to
   * it. Sequences below a validated Sequence are used, whoever used them, so jumping never skips
   * one that is still free.
   */
  async jumpTo(account: string, sequence: number): Promise<void> {
    if (!Number.isSafeInteger(sequence) || sequence < 0 || sequence > 0xffffffff) return;
    await this.jumps({ account, sequence });
  }

  /**
   * Every funds check reads the account from the ledger and moves its next sequence up to it:
   * the checks of one turn move theirs in one statement (db/batched.ts). Only ever forward.
   */
  private readonly jumps = batchedWrite(async (items: Array<{ account: string; sequence: number }>) => {
    const top = new Map<string, number>();
    for (const i of items) top.set(i.account, Math.max(top.get(i.account) ?? 0, i.sequence));
    await this.db.execute(sql`
      update ${ledgerAccounts} as a
         set next_sequence = v.sequence, updated_at = now()
        from (select unnest(${sql.param([...top.keys()])}::text[]) as account,
                     unnest(${sql.param([...top.values()])}::bigint[]) as sequence) as v
       where a.account = v.account and a.next_sequence < v.sequence`);
  });

  /** Gives an unused sequence back when it was the last one handed out; false when something came after. */
  async giveBack(row: SubmissionRow): Promise<boolean> {
    const given = await this.db
      .update(ledgerAccounts)
      .set({ nextSequence: row.sequence, updatedAt: new Date() })
      .where(and(eq(ledgerAccounts.account, row.account), eq(ledgerAccounts.nextSequence, row.sequence + 1)))
      .returning();
    return given.length > 0;
  }

  private async ledgerSequence(account: string): Promise<number> {
    try {
      // In-process when the embedded ledger runs in this thread: an airdrop burst's first trust
      // lines read 500 claimers' sequences at once (only the account's own transactions move it,
      // and none of ours are sent before this read).
      const info = await ledgerReader(this.connection.client, this.connection.local).request({
        command: 'account_info',
        account,
        ledger_index: 'current',
      });
      return info.result.account_data.Sequence;
    } catch (err) {
      if (rippledErrorName(err) === 'actNotFound') {
        throw badRequest('This wallet is not activated on the XRP Ledger yet.');
      }
      throw err;
    }
  }
}

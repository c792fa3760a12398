import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { ValidationError } from 'xrpl';
import { sameCurrency, Decimal, TRUST_LINE_MAX_LIMIT } from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/results';
import type { SubmissionRow, SubmissionService, SubmitRequest } from '../../ledger/submission-service';
import { AppError } from '../../lib/errors';
import type { WalletsApi } from '../wallets';
import { airdropClaims, airdrops, type AirdropClaimRow, type AirdropRow } from './schema';
import { AIRDROP_CLAIM_JOB, releaseClaim } from './service';

// The airdrop payer: an owned loop that pays reserved claims in batches. A burst of claims becomes
// one lease statement, the claimers' trust lines signed and recorded in one database transaction,
// and every payment from the airdrop wallet in another — so 500 claims cost a handful of statements
// instead of thousands, and land in the next ledgers instead of in waves (docs/airdrops.md).
//
// Safety is the same as one job per claim had: each claim's transactions carry intent keys
// ('…:trust', '…:pay'), so however many rounds or instances take a claim up, each is signed at most
// once; a claim is taken by one instance at a time through a lease (renewed while in flight); a
// claim whose payment is final is marked paid or released from its ledger outcome, which anyone may
// do; a claim released with nothing signed is released only under our unexpired lease.

/** How long a leased claim is ours without renewal (an instance killed mid-round lets go after it). */
/** The default claim lease (JOB_LEASE_MS's default: a claim is work as a job is). */
const CLAIM_LEASE_MS = 15_000;
/** Rounds that took a claim up without signing its payment before it is released. */
const CLAIM_MAX_ATTEMPTS = 8;
/** Claims one round takes up at most. */
const ROUND_SIZE = 1_000;
/** Trust-line hints kept at most (each is consumed by the round that takes its claim up). */
const HINTS_MAX = 10_000;
/** Trust line limit a claimer's wallet gets in auto mode (no cap in practice). */
const CLAIMER_TRUST_LIMIT = TRUST_LINE_MAX_LIMIT;

const claimIntentKey = (claimId: number, part: 'trust' | 'pay') =>
  `${AIRDROP_CLAIM_JOB}:claim-${claimId}:${part}`;

export interface AirdropPayerDeps {
  db: Db;
  submissions: SubmissionService;
  wallets: WalletsApi;
  log: { warn(obj: object, msg: string): void };
  /** How often the payer looks for claims nobody is working on (a restart, another instance). */
  pollMs?: number;
  /** A claim's lease: after a crash another instance takes the claim over once it expires. */
  leaseMs?: number;
}

interface Work {
  claim: AirdropClaimRow;
  airdrop: AirdropRow;
  trust?: SubmissionRow;
  /** The trust line was recorded by an earlier round: its open-ledger verdict is not known here. */
  trustEarlier?: boolean;
}

const amountOf = (a: AirdropRow, value: string) => ({
  currency: a.currency,
  issuer: a.issuerAddress,
  value: new Decimal(value).toFixed(),
});

/** A refusal no retry can change (the request itself is invalid, the wallet is not activated). */
const isFinalRefusal = (err: Error) =>
  err instanceof ValidationError || (err instanceof AppError && err.code === 'BAD_REQUEST');

export class AirdropPayer {
  private readonly owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly inFlight = new Set<number>();
  private readonly waiters = new Map<number, Set<(row: AirdropClaimRow) => void>>();
  private readonly work = new Set<Promise<unknown>>();
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private pollTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private waitPoll: NodeJS.Timeout | undefined;

  constructor(private readonly deps: AirdropPayerDeps) {
    this.pollMs = deps.pollMs ?? 1_000;
    this.leaseMs = deps.leaseMs ?? CLAIM_LEASE_MS;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.pollTimer = setInterval(() => this.wake(), this.pollMs);
    this.pollTimer.unref();
    this.renewTimer = setInterval(() => void this.renew(), this.leaseMs / 3);
    this.renewTimer.unref();
    this.wake();
  }

  /** Stops taking claims up and waits for the round being signed; outcomes still open are left to the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearInterval(this.renewTimer);
    clearTimeout(this.waitPoll);
    await this.running;
  }

  /**
   * Whether a claimer's wallet had the trust line when its claim route read it, by claim id: the
   * round signs the TrustSet (or not) from it instead of reading every claimer's lines again (500
   * ledger round trips in a burst). Claims taken over from elsewhere have none and are read.
   */
  private readonly lineHints = new Map<number, boolean>();

  /** Something was reserved: a round now (rounds asked for while one is signing run once after it). */
  wake(claim?: { id: number; hasLine: boolean }): void {
    if (this.stopped) return;
    if (claim) {
      if (this.lineHints.size >= HINTS_MAX) this.lineHints.clear(); // claims another instance took
      this.lineHints.set(claim.id, claim.hasLine);
    }
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.round().catch((err: unknown) =>
          this.deps.log.warn(
            { err: err instanceof Error ? err.message : String(err) },
            'airdrop payer round failed',
          ),
        );
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /**
   * Resolves with the claim once it is paid or released, wherever it was paid (this instance tells
   * at once; the others' work is found by one shared poll of every awaited claim), or undefined
   * after `timeoutMs`.
   */
  settled(claimId: number, timeoutMs: number): Promise<AirdropClaimRow | undefined> {
    return new Promise((resolve) => {
      const set = this.waiters.get(claimId) ?? new Set();
      this.waiters.set(claimId, set);
      const done = (row: AirdropClaimRow | undefined) => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0 && this.waiters.get(claimId) === set) this.waiters.delete(claimId);
        resolve(row);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      set.add(done);
      this.scheduleWaitPoll();
    });
  }

  /** Waits until nothing this instance signed is still open (tests). */
  async idle(): Promise<void> {
    while (this.running || this.work.size) {
      await this.running;
      await Promise.allSettled([...this.work]);
    }
  }

  private scheduleWaitPoll(): void {
    if (this.waitPoll || this.waiters.size === 0) return;
    this.waitPoll = setTimeout(() => {
      void (async () => {
        const ids = [...this.waiters.keys()];
        try {
          const rows = await this.deps.db
            .select()
            .from(airdropClaims)
            .where(and(inArray(airdropClaims.id, ids), ne(airdropClaims.status, 'pending')));
          for (const row of rows) this.notify(row);
        } catch (err) {
          this.deps.log.warn(
            { err: err instanceof Error ? err.message : String(err) },
            'claim status poll failed',
          );
        }
      })().finally(() => {
        this.waitPoll = undefined;
        this.scheduleWaitPoll();
      });
    }, 250);
    this.waitPoll.unref();
  }

  private notify(row: AirdropClaimRow): void {
    for (const w of [...(this.waiters.get(row.id) ?? [])]) w(row);
  }

  /** Reads a claim back after settling it and tells its waiters. */
  private async settledNow(claimId: number): Promise<void> {
    if (!this.waiters.has(claimId)) return;
    const [row] = await this.deps.db.select().from(airdropClaims).where(eq(airdropClaims.id, claimId));
    if (row && row.status !== 'pending') this.notify(row);
  }

  private async renew(): Promise<void> {
    if (this.inFlight.size === 0) return;
    await this.deps.db
      .update(airdropClaims)
      .set({ leaseUntil: sql`now() + ${this.leaseMs}::int * interval '1 millisecond'` })
      .where(
        and(
          inArray(airdropClaims.id, [...this.inFlight]),
          eq(airdropClaims.leaseOwner, this.owner),
          eq(airdropClaims.status, 'pending'),
        ),
      )
      .catch(() => undefined);
  }

  /** One round: lease what is waiting, then sign and submit it in batches. */
  private async round(): Promise<void> {
    const leasedAt = Date.now();
    const res = await this.deps.db.execute(sql`
      update ${airdropClaims}
         set lease_owner = ${this.owner},
             lease_until = now() + ${this.leaseMs}::int * interval '1 millisecond',
             attempts = attempts + 1,
             updated_at = now()
       where id in (
         select id from ${airdropClaims}
          where status = 'pending' and (lease_until is null or lease_until < now())
          order by id
          limit ${ROUND_SIZE}
          for update skip locked)
      returning id`);
    const ids = rowsOf<{ id: number | string }>(res)
      .map((r) => Number(r.id))
      .filter((id) => !this.inFlight.has(id));
    if (ids.length === 0) return;
    // Read back through drizzle for typed rows (raw `returning *` keeps the database's column names).
    const claims = await this.deps.db.select().from(airdropClaims).where(inArray(airdropClaims.id, ids));
    for (const c of claims) this.inFlight.add(c.id);
    const leaseUntil = leasedAt + this.leaseMs;
    try {
      await this.pay(claims, leaseUntil);
    } finally {
      // Claims still open are followed by `work`; the others are free for a later round.
      for (const c of claims) if (!this.followed.has(c.id)) this.inFlight.delete(c.id);
    }
  }

  private readonly followed = new Set<number>();

  private async pay(claims: AirdropClaimRow[], leaseUntil: number): Promise<void> {
    const { db, submissions } = this.deps;
    const airdropIds = [...new Set(claims.map((c) => c.airdropId))];
    const rows = await db.select().from(airdrops).where(inArray(airdrops.id, airdropIds));
    const byId = new Map(rows.map((a) => [a.id, a]));
    const known = await submissions.recorded(
      claims.flatMap((c) => [claimIntentKey(c.id, 'trust'), claimIntentKey(c.id, 'pay')]),
    );

    const todo: Work[] = [];
    for (const claim of claims) {
      const airdrop = byId.get(claim.airdropId);
      const paid = known.get(claimIntentKey(claim.id, 'pay'));
      if (paid) {
        this.follow(claim, paid, airdrop?.airdropAddress ? this.payment({ claim, airdrop }) : undefined);
      } else if (!airdrop?.airdropAddress || claim.attempts > CLAIM_MAX_ATTEMPTS) {
        await this.releaseUnsigned(claim);
      } else {
        const trust = known.get(claimIntentKey(claim.id, 'trust'));
        todo.push({ claim, airdrop, trust, trustEarlier: trust !== undefined });
      }
    }

    // Auto mode: a trust line for every claimer wallet that has none, all in one batch.
    const lacking: Work[] = [];
    await Promise.all(
      todo
        .filter((w) => w.airdrop.trustlineMode === 'auto' && !w.trust)
        .map(async (w) => {
          const hint = this.lineHints.get(w.claim.id);
          this.lineHints.delete(w.claim.id);
          // What the route read a moment ago. Either way the race is the one a read here had:
          // a line removed since makes the payment fail (the claim is released); a line added
          // since gets its limit set by the TrustSet.
          if (hint === true) return;
          if (hint === false) {
            lacking.push(w);
            return;
          }
          const lines = await this.deps.wallets.lines(w.claim.walletAddress, w.airdrop.issuerAddress);
          if (!lines.some((l) => sameCurrency(l.currency, w.airdrop.currency))) lacking.push(w);
        }),
    );
    if (Date.now() >= leaseUntil) return; // too slow: the lease may be another instance's now
    const trusts = await submissions.prepareMany(lacking.map((w) => this.trustLine(w)));
    const refused = new Set<Work>();
    for (const [i, w] of lacking.entries()) {
      const r = trusts[i]!;
      if (!(r instanceof Error)) w.trust = r;
      else if (isFinalRefusal(r)) {
        refused.add(w);
        await this.releaseUnsigned(w.claim);
      } else refused.add(w); // ledger unreachable: a later round tries again
    }

    // Payments follow trust lines the open ledger applied into the same ledger; a trust line that
    // is not through yet (or one from an earlier round) is waited for first.
    const now: Work[] = [];
    const later: Work[] = [];
    await Promise.all(
      todo
        .filter((w) => !refused.has(w))
        .map(async (w) => {
          if (!w.trust) now.push(w);
          else if (!w.trustEarlier && (await submissions.engineResult(w.trust.hash)) === 'tesSUCCESS')
            now.push(w);
          else later.push(w);
        }),
    );
    if (Date.now() >= leaseUntil) return;
    const payments = await submissions.prepareMany(now.map((w) => this.payment(w)));
    for (const [i, w] of now.entries()) {
      const r = payments[i]!;
      if (!(r instanceof Error)) this.follow(w.claim, r, this.payment(w));
      else if (isFinalRefusal(r)) await this.releaseUnsigned(w.claim);
    }
    for (const w of later) {
      this.track(w.claim.id, async () => {
        // The claimer's own wallet signs the trust line, and its seed is the user's: a transaction
        // signed elsewhere may take the sequence (tefPAST_SEQ); `follow` signs it again then.
        const trusted = await submissions.follow(this.trustLine(w), w.trust!);
        if (trusted.status !== 'success') {
          await releaseClaim(db, w.claim.id, trusted.hash);
          return;
        }
        const req = this.payment(w);
        const outcome = await submissions.follow(req, await submissions.prepare(req));
        await this.settle(w.claim, outcome.status === 'success', outcome.hash);
      });
    }
  }

  private trustLine(w: Work): SubmitRequest {
    return {
      intentKey: claimIntentKey(w.claim.id, 'trust'),
      account: w.claim.walletAddress,
      tx: {
        TransactionType: 'TrustSet',
        LimitAmount: amountOf(w.airdrop, CLAIMER_TRUST_LIMIT),
      },
      purpose: 'airdrop:claim-trust',
      userId: w.claim.userId,
      walletId: w.claim.walletId,
    };
  }

  private payment(w: Work): SubmitRequest {
    return {
      intentKey: claimIntentKey(w.claim.id, 'pay'),
      account: w.airdrop.airdropAddress!,
      tx: {
        TransactionType: 'Payment',
        Destination: w.claim.walletAddress,
        Amount: amountOf(w.airdrop, w.claim.amount),
      },
      purpose: 'airdrop:claim',
      userId: w.claim.userId,
    };
  }

  /**
   * Follows a signed payment to its final outcome: paid, or released with the ledger's verdict.
   * With its request, a payment that provably never applied because the account's sequence moved
   * (tefPAST_SEQ) is signed again under a derived intent key (docs/money.md "Outside transactions").
   */
  private follow(claim: AirdropClaimRow, row: SubmissionRow, req?: SubmitRequest): void {
    this.track(claim.id, async () => {
      const { submissions } = this.deps;
      const outcome = req ? await submissions.follow(req, row) : await submissions.wait(row.hash);
      await this.settle(claim, outcome.status === 'success', outcome.hash);
    });
  }

  private async settle(claim: AirdropClaimRow, paid: boolean, hash: string): Promise<void> {
    if (paid) await this.markPaid(claim.id, hash);
    else await releaseClaim(this.deps.db, claim.id, hash);
  }

  private paidQueue: Array<{ claimId: number; hash: string; resolve(): void; reject(err: unknown): void }> =
    [];

  /**
   * Marks a claim paid (once), together with every other claim whose payment validated in the
   * same turn: a ledger validating 500 payments settles them in one statement (and one read back
   * for their waiters) instead of 500 updates and 500 reads.
   */
  private markPaid(claimId: number, hash: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.paidQueue.push({ claimId, hash, resolve, reject });
      if (this.paidQueue.length === 1) setImmediate(() => void this.flushPaid());
    });
  }

  private async flushPaid(): Promise<void> {
    const batch = this.paidQueue.splice(0);
    if (batch.length === 0) return;
    try {
      const values = sql.join(
        batch.map((b) => sql`(${b.claimId}::bigint, ${b.hash}::text)`),
        sql`, `,
      );
      await this.deps.db.execute(sql`
        update ${airdropClaims}
           set status = 'paid', hash = v.hash, updated_at = now()
          from (values ${values}) as v(id, hash)
         where ${airdropClaims.id} = v.id and ${airdropClaims.status} = 'pending'`);
      const ids = batch.map((b) => b.claimId).filter((id) => this.waiters.has(id));
      if (ids.length > 0) {
        const rows = await this.deps.db.select().from(airdropClaims).where(inArray(airdropClaims.id, ids));
        for (const row of rows) if (row.status !== 'pending') this.notify(row);
      }
      for (const b of batch) b.resolve();
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }

  private track(claimId: number, fn: () => Promise<void>): void {
    this.followed.add(claimId);
    this.inFlight.add(claimId);
    const p = fn()
      .then(() => this.settledNow(claimId))
      .catch((err: unknown) => {
        // The claim stays pending; its lease runs out and a later round takes it up again.
        this.deps.log.warn(
          { claimId, err: err instanceof Error ? err.message : String(err) },
          'airdrop claim not settled',
        );
      })
      .finally(() => {
        this.followed.delete(claimId);
        this.inFlight.delete(claimId);
        this.work.delete(p);
      });
    this.work.add(p);
  }

  /**
   * Releases a claim nothing was signed for, only while we hold its lease: an instance that took
   * the claim over after our lease ran out may be signing its payment.
   */
  private async releaseUnsigned(claim: AirdropClaimRow): Promise<void> {
    if (await releaseClaim(this.deps.db, claim.id, null, this.owner)) await this.settledNow(claim.id);
  }
}

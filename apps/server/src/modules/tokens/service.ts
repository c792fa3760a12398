import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  isOwnImageUrl,
  linkRefusal,
  TOKEN_MESSAGES,
  type LinkKind,
  type MetadataSource,
  type SameAsRef,
  type TokenView,
  type VerificationMethod,
} from '@ledgerpad/shared';
import { batchedRows } from '../../db/batched';
import { badRequest, notFound } from '../../lib/errors';
import type { Db } from '../../db/client';
import {
  airdropIdentityRefusal,
  logoTakenBy,
  tokenIdentityRefusal,
  type AirdropIdentityCheck,
  type IdentityRefusal,
  type TokenIdentityCheck,
} from './doors';
import { decideIdentities, sameIdentityGroups, type LedgerFacts, type RankRow } from './identity-rank';
import { tokens } from './schema';

export type TokenRow = typeof tokens.$inferSelect;
export type NewToken = typeof tokens.$inferInsert;

/**
 * A stored link as the API shows it: '' for none, and for one a row kept from before the link rule
 * that points elsewhere than its label says, or carries a user name or password (issue 35).
 */
const shownLink = (kind: LinkKind, v: string | null): string =>
  v && v !== 'N/A' && linkRefusal(kind, v) === null ? v : '';
const NULL_IF_EMPTY = (v: string) => (v === '' ? null : v);

/** The stored `same_as` (jsonb) as the view's reference, or null. */
function sameAsOf(value: unknown): SameAsRef | null {
  const v = value as Partial<SameAsRef> | null;
  if (!v || typeof v.ticker !== 'string' || typeof v.issuer_address !== 'string') return null;
  return {
    match: v.match === 'name' ? 'name' : 'ticker',
    ticker: v.ticker,
    name: String(v.name ?? ''),
    issuer_address: v.issuer_address,
    currency: String(v.currency ?? ''),
  };
}

const METHODS: ReadonlySet<string> = new Set(['deploy', 'wallet', 'challenge', 'toml', 'admin', 'platform']);

export function toTokenView(row: TokenRow): TokenView {
  // Images only from us: a logo that is not a path on our origin (a row from before the rule) is not shown.
  const logoUrl = isOwnImageUrl(row.logoUrl) ? row.logoUrl : null;
  const links = {
    Twitter: shownLink('twitter', row.twitterLink),
    Telegram: shownLink('telegram', row.telegramLink),
    Website: shownLink('website', row.websiteLink),
  };
  return {
    id: row.id,
    name: row.name,
    ticker: row.ticker,
    currency: row.currency,
    issuer_address: row.issuerAddress,
    supply: row.supply,
    description: row.description,
    liquidity_pair: row.liquidityPair === 'RLUSD' ? 'RLUSD' : 'XRP',
    local_image_path: logoUrl ? (logoUrl.split('/').pop() ?? null) : null,
    logoUrl,
    telegramFileId: row.telegramFileId,
    twitterLink: NULL_IF_EMPTY(links.Twitter),
    telegramLink: NULL_IF_EMPTY(links.Telegram),
    websiteLink: NULL_IF_EMPTY(links.Website),
    links,
    launch_type: row.launchType === 'bonding' ? 'bonding' : row.source === 'deploy' ? 'amm' : 'listing',
    is_bonding_curve: row.launchType === 'bonding',
    bonding_active: row.launchType === 'bonding' && row.bondingActive,
    // An instant launch trades in its AMM pool from the start; a curve launch once it graduated.
    has_graduated_to_amm:
      row.source === 'deploy' && (row.launchType !== 'bonding' || row.graduatedAt !== null),
    is_new: row.isNew,
    is_blackholed: row.isBlackholed,
    require_auth: row.requireAuth,
    is_market_listed: row.isMarketListed,
    is_active: row.isActive,
    total_reward: row.totalReward,
    reward_currency: row.rewardCurrency,
    total_claimed: row.totalClaimed,
    created_at: row.createdAt.toISOString(),
    verified: row.verified,
    verified_by:
      row.verifiedBy && METHODS.has(row.verifiedBy) ? (row.verifiedBy as VerificationMethod) : null,
    verified_domain: row.verifiedDomain,
    lookalike_of: row.lookalikeOf,
    same_as: sameAsOf(row.sameAs),
    metadata_by: (['issuer', 'lister', 'admin'].includes(row.metadataBy)
      ? row.metadataBy
      : 'lister') as MetadataSource,
  };
}

/** The identity a new row gets: deployed here → verified by construction (the ranking marks it after). */
function identityOnInsert(token: NewToken): Partial<NewToken> {
  if (token.verified !== undefined || token.source !== 'deploy') return {};
  return {
    verified: true,
    verifiedBy: 'deploy',
    verifiedAt: new Date(),
    controllerUserId: token.deployerUserId ?? null,
    metadataBy: 'issuer',
  };
}

/**
 * Ledger facts of these tokens (holders, trust lines, volume), read through `db` (a caller's
 * transaction, when inside one). Set by the market module, which records them.
 */
export type LedgerFactsProvider = (db: Db, tokenIds: number[]) => Promise<Map<number, LedgerFacts>>;

/** The tokens module's interface to the others (deploy writes, listing writes, dashboard reads). */
export class TokenRegistry {
  private readonly listeners = new Set<() => void>();
  constructor(
    private readonly db: Db,
    /**
     * The network's RLUSD issuer (RLUSD's code under any other issuer is flagged), read through the
     * given handle: inside a caller's transaction on PGlite's one connection, the outer handle would wait.
     */
    private readonly rlusdIssuer: (db: Db) => Promise<string | undefined> = async () => undefined,
  ) {}

  /**
   * Called after this instance lists or changes a token (the market snapshot rebuilds, so the lister
   * sees it at once; other instances see it with the next ledger).
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** For writers that insert inside their own transaction: call after it commits. */
  changed(): void {
    for (const l of this.listeners) l();
  }

  /** Inserts a token; returns undefined when (issuer, currency) or the deploy job is already listed. */
  async insert(token: NewToken, db: Db = this.db): Promise<TokenRow | undefined> {
    const identity = identityOnInsert(token);
    const [row] = await db
      .insert(tokens)
      .values({ ...token, ...identity })
      .onConflictDoNothing()
      .returning();
    // A new token may share a ticker or name with others: the ledger facts order them again — at
    // once outside a transaction; inside a caller's (a deploy's last step), when the market indexer
    // first reads the new token (its `onSynced`), so no ledger read runs in the transaction.
    if (row && db === this.db) await this.refreshLookalikes(db);
    // Inside a caller's transaction the row is not visible to others until it commits; a rebuild
    // that runs first misses it, and the next ledger's rebuild picks it up.
    if (row) queueMicrotask(() => this.changed());
    return row;
  }

  async byId(id: number, db: Db = this.db): Promise<TokenRow | undefined> {
    const [row] = await db.select().from(tokens).where(eq(tokens.id, id));
    return row;
  }

  async byDeployJob(jobId: string, db: Db = this.db): Promise<TokenRow | undefined> {
    const [row] = await db.select().from(tokens).where(eq(tokens.deployJobId, jobId));
    return row;
  }

  /** The listed token of an issuer (the first listed when it issues several). */
  async byIssuer(issuerAddress: string, currency?: string): Promise<TokenRow | undefined> {
    const rows = await this.issuedBy(issuerAddress);
    const row = currency ? rows.find((r) => r.currency === currency) : rows[0];
    return row && { ...row };
  }

  /** An issuer's tokens by id: every swap and trade record asks, so one turn's issuers share a statement. */
  private readonly issuedBy = batchedRows(
    (issuers: string[]) =>
      this.db.select().from(tokens).where(inArray(tokens.issuerAddress, issuers)).orderBy(tokens.id),
    (r) => r.issuerAddress,
  );

  /** Every listed token of an issuer, oldest listing first (one page per token: the chooser). */
  async allOfIssuer(issuerAddress: string): Promise<TokenRow[]> {
    return (await this.issuedBy(issuerAddress)).map((r) => ({ ...r }));
  }

  /**
   * The token of (issuer, currency) — one page, one risk report, one history per token (issue 35).
   * Without a currency: the issuer's only listed token; 400 when it has several (which one would be
   * a guess), 404 when none.
   */
  async resolve(issuerAddress: string, currency?: string): Promise<TokenRow> {
    const rows = await this.issuedBy(issuerAddress);
    if (rows.length === 0) throw notFound(TOKEN_MESSAGES.notFoundForIssuer);
    if (currency === undefined) {
      if (rows.length > 1) throw badRequest(TOKEN_MESSAGES.severalTokens);
      return { ...rows[0]! };
    }
    const row = rows.find((r) => r.currency === currency);
    if (!row) throw notFound(TOKEN_MESSAGES.notFoundForCurrency);
    return { ...row };
  }

  /** Tokens this user deployed here (the dashboard's list), newest first. */
  async deployedBy(userId: number): Promise<TokenRow[]> {
    return this.db.select().from(tokens).where(eq(tokens.deployerUserId, userId)).orderBy(desc(tokens.id));
  }

  async hasDeployed(userId: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: tokens.id })
      .from(tokens)
      .where(eq(tokens.deployerUserId, userId))
      .limit(1);
    return row !== undefined;
  }

  /** Active tokens for the public list, newest first. */
  async listActive(limit: number): Promise<TokenRow[]> {
    return this.db
      .select()
      .from(tokens)
      .where(and(eq(tokens.isActive, true), eq(tokens.isMarketListed, true)))
      .orderBy(desc(tokens.listedAt), desc(tokens.id))
      .limit(limit);
  }

  /** Every listed token's ledger identity (what the market indexer follows). */
  async ledgerKeys(): Promise<Array<Pick<TokenRow, 'id' | 'currency' | 'issuerAddress'>>> {
    return this.db
      .select({ id: tokens.id, currency: tokens.currency, issuerAddress: tokens.issuerAddress })
      .from(tokens);
  }

  /**
   * Adds a creator reward in one statement, so concurrent trades never lose an accrual. The reward
   * currency is the token's quote asset (its fees are paid in it). `db`: the transaction that records
   * the fee paid (trading's FeeSettlement), so the two happen together or not at all.
   */
  async accrueReward(id: number, amount: string, currency: string, db: Db = this.db): Promise<void> {
    await db
      .update(tokens)
      .set({
        totalReward: sql`${tokens.totalReward} + ${amount}::numeric`,
        rewardCurrency: currency,
      })
      .where(eq(tokens.id, id));
    this.changed();
  }

  async update(id: number, patch: Partial<NewToken>, db: Db = this.db): Promise<TokenRow | undefined> {
    const [row] = await db.update(tokens).set(patch).where(eq(tokens.id, id)).returning();
    if (row && db === this.db) this.changed();
    return row;
  }

  /** Every row, hidden ones included, newest first (the admin Tokens tab). */
  async all(): Promise<TokenRow[]> {
    return this.db.select().from(tokens).orderBy(desc(tokens.listedAt), desc(tokens.id));
  }

  private factsProvider: LedgerFactsProvider | undefined;

  /** Why a deploy's, listing's or rename's ticker and name may not be used (`doors.ts`), or null. */
  async identityRefusal(check: TokenIdentityCheck, db: Db = this.db): Promise<IdentityRefusal | null> {
    return tokenIdentityRefusal(db, await this.rlusdIssuer(db), check);
  }

  /** Why an airdrop may not run under this token, project name and tagline, or null. */
  async airdropRefusal(check: AirdropIdentityCheck): Promise<IdentityRefusal | null> {
    return airdropIdentityRefusal(this.db, await this.rlusdIssuer(this.db), check);
  }

  /** The id of another token already showing this logo (one token, one logo), if any. */
  logoTakenBy(logoUrl: string, exceptId?: number): Promise<number | undefined> {
    return logoTakenBy(this.db, logoUrl, exceptId);
  }

  /** The market module hands in how to read ledger facts (it records them); without it every fact is 0. */
  useLedgerFacts(provider: LedgerFactsProvider): void {
    this.factsProvider = provider;
  }

  /**
   * Recomputes every row's identity marks (issue 35, `decideIdentities`): a reserved identity worn
   * ('looks like RLUSD', never verified: RLUSD's code from another issuer included), and for tokens
   * sharing a ticker or a name after the lookalike fold, which one each gives way to, by ledger
   * facts. `verified` follows the proof (`verified_by`) unless the row wears a reserved identity: a
   * real issuer's proof is never downgraded by someone else's listing. Run after every listing,
   * claim, rename and admin decision, at start, and as the facts move (the market's ledgers).
   * Returns how many rows changed.
   */
  async refreshLookalikes(db: Db = this.db): Promise<number> {
    const rlusdIssuer = await this.rlusdIssuer(db);
    const rows = await db
      .select({
        id: tokens.id,
        ticker: tokens.ticker,
        name: tokens.name,
        currency: tokens.currency,
        issuerAddress: tokens.issuerAddress,
        verified: tokens.verified,
        verifiedBy: tokens.verifiedBy,
        verifiedDomain: tokens.verifiedDomain,
        createdAt: tokens.createdAt,
        isActive: tokens.isActive,
        lookalikeOf: tokens.lookalikeOf,
        sameAs: tokens.sameAs,
      })
      .from(tokens);
    const grouped = sameIdentityGroups(rows as RankRow[]).flat();
    const facts =
      grouped.length && this.factsProvider
        ? await this.factsProvider(
            db,
            grouped.map((r) => r.id),
          )
        : new Map<number, LedgerFacts>();
    const decided = decideIdentities(rows as RankRow[], facts, rlusdIssuer);
    const updates: Array<{
      id: number;
      lookalikeOf: string | null;
      sameAs: string | null;
      verified: boolean;
    }> = [];
    for (const r of rows) {
      const d = decided.get(r.id)!;
      const verified = r.verifiedBy !== null && d.mayBeVerified;
      const sameAs = d.sameAs;
      // jsonb reorders keys: compared field by field.
      const stored = r.sameAs as Record<string, unknown> | null;
      const same =
        sameAs === null
          ? stored === null
          : stored !== null &&
            (Object.keys(sameAs) as Array<keyof typeof sameAs>).every((k) => stored[k] === sameAs[k]);
      if (d.lookalikeOf === r.lookalikeOf && same && verified === r.verified) continue;
      updates.push({
        id: r.id,
        lookalikeOf: d.lookalikeOf,
        sameAs: sameAs === null ? null : JSON.stringify(sameAs),
        verified,
      });
    }
    // The changed rows in statements of a thousand, not one each: a first start on a large
    // registry (or names folding together by the thousand) re-marks thousands of rows.
    for (let i = 0; i < updates.length; i += 1000) {
      const part = updates.slice(i, i + 1000);
      await db.execute(sql`
        update ${tokens} as t
           set lookalike_of = v.lookalike_of, same_as = v.same_as::jsonb, verified = v.verified
          from (select unnest(${sql.param(part.map((u) => u.id))}::int[]) as id,
                       unnest(${sql.param(part.map((u) => u.lookalikeOf))}::text[]) as lookalike_of,
                       unnest(${sql.param(part.map((u) => u.sameAs))}::text[]) as same_as,
                       unnest(${sql.param(part.map((u) => u.verified))}::bool[]) as verified) as v
         where t.id = v.id`);
    }
    if (updates.length && db === this.db) this.changed();
    return updates.length;
  }
}

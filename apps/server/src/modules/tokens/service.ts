import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  RLUSD_CURRENCY_HEX,
  RLUSD_TICKER,
  isOwnImageUrl,
  type MetadataSource,
  type TokenView,
  type VerificationMethod,
} from '@ledgerpad/shared';
import { lookalikeOf, type IdentityCandidate } from '@ledgerpad/shared/lookalike';
import { batchedRows } from '../../db/batched';
import type { Db } from '../../db/client';
import { tokens } from './schema';

export type TokenRow = typeof tokens.$inferSelect;
export type NewToken = typeof tokens.$inferInsert;

const NO_LINK = (v: string | null): string => (v && v !== 'N/A' ? v : '');

const METHODS: ReadonlySet<string> = new Set(['deploy', 'wallet', 'challenge', 'toml', 'admin', 'platform']);

export function toTokenView(row: TokenRow): TokenView {
  // Images only from us: a logo that is not a path on our origin (a row from before the rule) is not shown.
  const logoUrl = isOwnImageUrl(row.logoUrl) ? row.logoUrl : null;
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
    twitterLink: row.twitterLink,
    telegramLink: row.telegramLink,
    websiteLink: row.websiteLink,
    links: {
      Twitter: NO_LINK(row.twitterLink),
      Telegram: NO_LINK(row.telegramLink),
      Website: NO_LINK(row.websiteLink),
    },
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
    lookalike_of: row.verified ? null : row.lookalikeOf,
    metadata_by: (['issuer', 'lister', 'admin'].includes(row.metadataBy)
      ? row.metadataBy
      : 'lister') as MetadataSource,
  };
}

/** The identity a new row gets: deployed here → verified by construction unless it looks like a verified token. */
async function identityOnInsert(db: Db, token: NewToken): Promise<Partial<NewToken>> {
  if (token.verified !== undefined || token.source !== 'deploy') return {};
  const like = lookalikeOf({ ticker: token.ticker, name: token.name }, await verifiedIdentities(db));
  return {
    verified: like === null,
    verifiedBy: 'deploy',
    verifiedAt: new Date(),
    controllerUserId: token.deployerUserId ?? null,
    metadataBy: 'issuer',
    lookalikeOf: like,
  };
}

/** Ticker and name of every verified token (what a new or unproven listing must not look like). */
export async function verifiedIdentities(db: Db): Promise<IdentityCandidate[]> {
  return db
    .select({ id: tokens.id, ticker: tokens.ticker, name: tokens.name })
    .from(tokens)
    .where(eq(tokens.verified, true));
}

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
    const identity = await identityOnInsert(db, token);
    const [row] = await db
      .insert(tokens)
      .values({ ...token, ...identity })
      .onConflictDoNothing()
      .returning();
    // A token verified on arrival may be what older unproven listings look like.
    if (row?.verified) await this.refreshLookalikes(db);
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

  /**
   * Recomputes `lookalike_of` of every unverified row after an identity changed (a token verified,
   * renamed, or listed): against the verified tokens and the reserved identities, and RLUSD's code
   * under any issuer but the network's RLUSD issuer. Returns how many rows changed.
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
        lookalikeOf: tokens.lookalikeOf,
      })
      .from(tokens);
    const verified = rows.filter((r) => r.verified);
    let changed = 0;
    for (const r of rows) {
      const fakeRlusd = r.currency === RLUSD_CURRENCY_HEX && r.issuerAddress !== rlusdIssuer;
      const like = r.verified && !fakeRlusd ? null : fakeRlusd ? RLUSD_TICKER : lookalikeOf(r, verified);
      if (like === r.lookalikeOf && !(fakeRlusd && r.verified)) continue;
      // A verified row wearing RLUSD's code from another issuer loses its badge.
      await db
        .update(tokens)
        .set(fakeRlusd ? { lookalikeOf: like, verified: false } : { lookalikeOf: like })
        .where(eq(tokens.id, r.id));
      changed++;
    }
    if (changed && db === this.db) this.changed();
    return changed;
  }
}

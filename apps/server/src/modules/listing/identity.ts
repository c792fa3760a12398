import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import {
  CLAIM_CHALLENGE_TTL_MINUTES,
  IDENTITY_MESSAGES,
  RLUSD_CURRENCY_HEX,
  claimMemo,
  type ClaimChallengeView,
  type ClaimMethod,
  type ClaimVerifyRequest,
  type ListingControlView,
  type ListingForm,
  type ListingMetadata,
} from '@ledgerpad/shared';
import { lookalikeOf } from '@ledgerpad/shared/lookalike';
import type { Db } from '../../db/client';
import { badRequest, forbidden, ledgerUnavailable, notFound } from '../../lib/errors';
import { readIssuerFacts } from '../../ledger/account-root';
import type { Platform } from '../../platform';
import { recordAdminAudit } from '../admin';
import { verifiedIdentities, type NewToken, type TokenRegistry, type TokenRow } from '../tokens';
import { findClaimTransaction } from './ledger-proofs';
import { listingChallenges, tokenIdentityEvents } from './schema';
import { metadataColumns, type ListingService } from './service';
import { checkToml, domainOf, fetchToml, tomlUrl } from './toml';

// Who may say what a listed token is (docs/token-identity.md): a user proves control of the issuer
// (own wallet, a claim code sent by the issuer, or the issuer's xrp-ledger.toml) and their name,
// description, logo and links replace the lister's; a proven controller rewrites them at any time;
// admins edit, verify or hide any listing, each with an audit row.

export interface IdentityDeps {
  tokens: TokenRegistry;
  platform: Platform;
  listing: ListingService;
}

/** The metadata columns of a row, as the history records them. */
const metadataOf = (r: TokenRow) => ({
  name: r.name,
  description: r.description,
  logoUrl: r.logoUrl,
  twitterLink: r.twitterLink,
  telegramLink: r.telegramLink,
  websiteLink: r.websiteLink,
});

const identityOf = (r: TokenRow) => ({
  verified: r.verified,
  verifiedBy: r.verifiedBy,
  controllerUserId: r.controllerUserId,
  lookalikeOf: r.lookalikeOf,
  metadataBy: r.metadataBy,
  isActive: r.isActive,
});

export class IdentityService {
  constructor(private readonly deps: IdentityDeps) {}

  private get db(): Db {
    return this.deps.platform.database.db;
  }

  private client() {
    const client = this.deps.platform.connection?.client;
    if (!client) throw ledgerUnavailable();
    return client;
  }

  async token(tokenId: number): Promise<TokenRow> {
    const row = await this.deps.tokens.byId(tokenId);
    if (!row) throw notFound(IDENTITY_MESSAGES.tokenNotFound);
    return row;
  }

  /** The metadata columns a form writes, its logo checked to be an upload of ours. */
  private async metadataPatch(m: ListingMetadata): Promise<Partial<NewToken>> {
    if (m.logoUrl) await this.deps.listing.assertStoredLogo(m.logoUrl);
    return metadataColumns(m);
  }

  /** Does the name (or the ticker) look like another verified token's? */
  private async lookalike(row: TokenRow, name: string): Promise<string | null> {
    const fakeRlusd =
      row.currency === RLUSD_CURRENCY_HEX && row.issuerAddress !== (await this.deps.listing.rlusdIssuer());
    if (fakeRlusd) return 'RLUSD';
    return lookalikeOf({ id: row.id, ticker: row.ticker, name }, await verifiedIdentities(this.db));
  }

  async control(userId: number, admin: boolean, tokenId: number): Promise<ListingControlView> {
    const row = await this.token(tokenId);
    return {
      token_id: row.id,
      controller: row.controllerUserId === userId,
      admin,
      own_wallet: await this.deps.listing.ownsWallet(userId, row.issuerAddress),
    };
  }

  /**
   * A claim code for (listing, user): random, stored, valid for CLAIM_CHALLENGE_TTL_MINUTES; the
   * answer spells out the zero-effect AccountSet that carries it, for any wallet to sign.
   */
  async challenge(userId: number, tokenId: number): Promise<ClaimChallengeView> {
    const row = await this.token(tokenId);
    const client = this.client();
    const [ownWallet, facts, ledgerIndex] = await Promise.all([
      this.deps.listing.ownsWallet(userId, row.issuerAddress),
      readIssuerFacts(client, row.issuerAddress).catch(() => undefined),
      client.getLedgerIndex(),
    ]);
    const domainHex = await client
      .request({ command: 'account_info', account: row.issuerAddress, ledger_index: 'validated' })
      .then((r) => (r.result.account_data as { Domain?: string }).Domain)
      .catch(() => undefined);
    const domain = domainOf(domainHex);
    const allowLoopback = this.deps.platform.config.TOML_FETCH_ALLOW_LOOPBACK;
    const code = `ledgerpad-claim-${randomBytes(16).toString('hex')}`;
    const expiresAt = new Date(Date.now() + CLAIM_CHALLENGE_TTL_MINUTES * 60_000);
    // An issuer that can never sign again cannot send a code; the TOML and wallet ways remain.
    if (!facts?.blackholed) {
      await this.db.insert(listingChallenges).values({
        tokenId: row.id,
        userId,
        issuerAddress: row.issuerAddress,
        code,
        ledgerIndex,
        expiresAt,
      });
    }
    return {
      token_id: row.id,
      issuer_address: row.issuerAddress,
      ticker: row.ticker,
      own_wallet: ownWallet,
      code: facts?.blackholed ? '' : code,
      expires_at: expiresAt.toISOString(),
      transaction: {
        TransactionType: 'AccountSet',
        Account: row.issuerAddress,
        Memos: facts?.blackholed ? [] : [{ Memo: claimMemo(code) }],
      },
      domain,
      toml_url: domain ? tomlUrl(domain, allowLoopback) : null,
    };
  }

  /** Checks the proof; answers what to record about it (a transaction hash or the TOML URL). */
  private async prove(
    userId: number,
    row: TokenRow,
    method: ClaimMethod,
  ): Promise<{ evidence: string | null; challengeId?: number }> {
    if (method === 'wallet') {
      if (!(await this.deps.listing.ownsWallet(userId, row.issuerAddress)))
        throw badRequest(IDENTITY_MESSAGES.notOwnWallet);
      return { evidence: null };
    }
    const client = this.client();
    if (method === 'challenge') {
      const [c] = await this.db
        .select()
        .from(listingChallenges)
        .where(
          and(
            eq(listingChallenges.tokenId, row.id),
            eq(listingChallenges.userId, userId),
            isNull(listingChallenges.usedAt),
          ),
        )
        .orderBy(desc(listingChallenges.id))
        .limit(1);
      if (!c) throw badRequest(IDENTITY_MESSAGES.challengeMissing);
      if (c.expiresAt.getTime() < Date.now()) throw badRequest(IDENTITY_MESSAGES.challengeExpired);
      const hash = await findClaimTransaction(
        client,
        row.issuerAddress,
        claimMemo(c.code).MemoData,
        c.ledgerIndex,
        c.expiresAt,
      );
      if (!hash) throw badRequest(IDENTITY_MESSAGES.challengeNotFound);
      return { evidence: hash, challengeId: c.id };
    }
    const info = await client.request({
      command: 'account_info',
      account: row.issuerAddress,
      ledger_index: 'validated',
    });
    const domainHex = (info.result.account_data as { Domain?: string }).Domain;
    if (!domainHex) throw badRequest(IDENTITY_MESSAGES.noDomain);
    const domain = domainOf(domainHex);
    if (!domain) throw badRequest(IDENTITY_MESSAGES.badDomain);
    const allowLoopback = this.deps.platform.config.TOML_FETCH_ALLOW_LOOPBACK;
    const url = tomlUrl(domain, allowLoopback);
    const text = await fetchToml(url, { allowLoopback });
    checkToml(text, url, row.issuerAddress, row.currency, row.ticker);
    return { evidence: url };
  }

  /**
   * Proves control by `method`; on success the caller becomes the listing's controller, their
   * metadata replaces the listing's, and the listing is verified unless it looks like another
   * verified token. One transaction: the row, the code's use and the history row.
   */
  async claim(userId: number, body: ClaimVerifyRequest): Promise<TokenRow> {
    const row = await this.token(body.token_id);
    const { evidence, challengeId } = await this.prove(userId, row, body.method);
    const patch = await this.metadataPatch(body);
    const like = await this.lookalike(row, body.name);
    const updated = await this.db.transaction(async (tx) => {
      const next = await this.deps.tokens.update(
        row.id,
        {
          ...patch,
          controllerUserId: userId,
          verified: like === null,
          verifiedBy: body.method,
          verifiedAt: new Date(),
          lookalikeOf: like,
          metadataBy: 'issuer',
        },
        tx as Db,
      );
      if (challengeId !== undefined) {
        await tx
          .update(listingChallenges)
          .set({ usedAt: new Date(), txHash: evidence })
          .where(eq(listingChallenges.id, challengeId));
      }
      await tx.insert(tokenIdentityEvents).values({
        tokenId: row.id,
        userId,
        action: 'claim',
        method: body.method,
        before: { ...metadataOf(row), ...identityOf(row) },
        after: { ...metadataOf(next!), ...identityOf(next!), evidence },
      });
      return next!;
    });
    this.deps.tokens.changed();
    await this.deps.tokens.refreshLookalikes();
    return updated;
  }

  /** The proven controller (or an admin, through its own route) replaces the metadata at any time. */
  async updateMetadata(userId: number, tokenId: number, m: ListingMetadata): Promise<TokenRow> {
    const row = await this.token(tokenId);
    if (row.controllerUserId !== userId) throw forbidden(IDENTITY_MESSAGES.notController);
    const patch = await this.metadataPatch(m);
    const like = await this.lookalike(row, m.name);
    // Renamed to look like another verified token: the badge goes (an admin can restore it).
    const verified = row.verifiedBy !== null && like === null;
    const updated = await this.db.transaction(async (tx) => {
      const next = await this.deps.tokens.update(
        row.id,
        { ...patch, verified, lookalikeOf: like, metadataBy: 'issuer' },
        tx as Db,
      );
      await tx.insert(tokenIdentityEvents).values({
        tokenId: row.id,
        userId,
        action: 'metadata',
        before: metadataOf(row),
        after: metadataOf(next!),
      });
      return next!;
    });
    this.deps.tokens.changed();
    await this.deps.tokens.refreshLookalikes();
    return updated;
  }

  // --- Admin Tokens tab -----------------------------------------------------------------------

  private async adminChange(
    adminId: number,
    row: TokenRow,
    action: string,
    patch: Partial<NewToken>,
    show: (r: TokenRow) => Record<string, unknown>,
  ): Promise<TokenRow> {
    const updated = await this.db.transaction(async (tx) => {
      const next = await this.deps.tokens.update(row.id, patch, tx as Db);
      await recordAdminAudit(tx as Db, {
        adminUserId: adminId,
        action,
        target: `${row.ticker} ${row.issuerAddress}`,
        before: show(row),
        after: show(next!),
      });
      await tx.insert(tokenIdentityEvents).values({
        tokenId: row.id,
        userId: adminId,
        action: `admin.${action.split('.').pop()}`,
        before: show(row),
        after: show(next!),
      });
      return next!;
    });
    this.deps.tokens.changed();
    await this.deps.tokens.refreshLookalikes();
    return updated;
  }

  /** An admin edits any listing: metadata and the created date; the lookalike mark follows the name. */
  async adminUpdate(adminId: number, tokenId: number, form: ListingForm): Promise<TokenRow> {
    const row = await this.token(tokenId);
    const patch = await this.metadataPatch(form);
    const createdAt = form.created_at
      ? new Date(form.created_at.length === 10 ? `${form.created_at}T00:00:00Z` : form.created_at)
      : row.createdAt;
    const like = row.verified ? null : await this.lookalike(row, form.name);
    return this.adminChange(
      adminId,
      row,
      'token.update',
      { ...patch, createdAt, lookalikeOf: like, metadataBy: 'admin' },
      (r) => ({ ...metadataOf(r), createdAt: r.createdAt.toISOString() }),
    );
  }

  /** An admin vouches for a listing (or withdraws the badge). RLUSD's code from another issuer stays refused. */
  async adminVerify(adminId: number, tokenId: number, verified: boolean): Promise<TokenRow> {
    const row = await this.token(tokenId);
    if (
      verified &&
      row.currency === RLUSD_CURRENCY_HEX &&
      row.issuerAddress !== (await this.deps.listing.rlusdIssuer())
    )
      throw badRequest(IDENTITY_MESSAGES.rlusdCode);
    const patch: Partial<NewToken> = verified
      ? { verified: true, verifiedBy: 'admin', verifiedAt: new Date(), lookalikeOf: null }
      : {
          verified: false,
          verifiedBy: null,
          verifiedAt: null,
          lookalikeOf: await this.lookalike(row, row.name),
        };
    return this.adminChange(adminId, row, 'token.verify', patch, (r) => ({
      verified: r.verified,
      verifiedBy: r.verifiedBy,
    }));
  }

  /** Hidden listings leave the list, search and the swap autocomplete; the row stays. */
  async adminHide(adminId: number, tokenId: number, hidden: boolean): Promise<TokenRow> {
    const row = await this.token(tokenId);
    return this.adminChange(adminId, row, 'token.hide', { isActive: !hidden }, (r) => ({
      hidden: !r.isActive,
    }));
  }
}

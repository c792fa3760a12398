import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  CLAIM_CHALLENGE_TTL_MINUTES,
  CLAIM_CODE_REUSE_MIN_MINUTES,
  CLAIM_CODES_PER_HOUR,
  IDENTITY_MESSAGES,
  RLUSD_CURRENCY_HEX,
  TOML_CLAIM_FIELD,
  claimMemo,
  claimText,
  listingMetadataSchema,
  type ClaimChallengeView,
  type ClaimMethod,
  type ClaimVerifyRequest,
  type ControlLossView,
  type IdentityEventView,
  type ListingControlView,
  type ListingForm,
  type ListingMetadata,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { badRequest, forbidden, ledgerUnavailable, notFound, rateLimited } from '../../lib/errors';
import { readIssuerFacts } from '../../ledger/account-root';
import type { Platform } from '../../platform';
import { recordAdminAudit } from '../admin';
import { type NewToken, type TokenRegistry, type TokenRow } from '../tokens';
import { claimLabel } from '../users';
import { findClaimTransaction } from './ledger-proofs';
import { listingChallenges, tokenIdentityEvents, type ListingChallengeRow } from './schema';
import { metadataColumns, type ListingService } from './service';
import { checkToml, domainOf, fetchToml, tomlUrl } from './toml';

// Who may say what a listed token is (docs/token-identity.md). A proof makes a user the listing's
// controller only when it carries something only that user could put there (issue 35): their own
// wallet holding the issuer; a claim transaction whose memo names them, the ticker and the listing
// in words the issuer reads before signing; or their claim text in the issuer's xrp-ledger.toml.
// A TOML without it verifies the listing from the TOML's own metadata and makes nobody controller.
// A controller is never displaced by a proof that does not bind the new claimer; every change of
// controller is public in the token's history and shown to the user who lost it. Admins edit,
// verify or hide any listing, each with an audit row.

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
  verifiedDomain: r.verifiedDomain,
  controllerUserId: r.controllerUserId,
  lookalikeOf: r.lookalikeOf,
  metadataBy: r.metadataBy,
  isActive: r.isActive,
});

/** What a proof showed. */
type Proof =
  | { binding: true; evidence: string | null; challengeId?: number; domain?: string }
  | { binding: false; evidence: string; domain: string; toml: ReturnType<typeof checkToml> };

const HOUR_MS = 3600_000;
/** The public history's length: the latest events. */
const HISTORY_MAX = 200;

/** How the history names a method of proof, in words. */
const METHOD_WORDS: Record<string, string> = {
  wallet: 'the issuer is the controller’s own Ledgerpad wallet',
  challenge: 'the issuer signed a claim naming the controller',
  toml: 'the issuer’s xrp-ledger.toml names the controller',
};

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

  private get allowLoopback(): boolean {
    return this.deps.platform.config.TOML_FETCH_ALLOW_LOOPBACK;
  }

  async token(tokenId: number): Promise<TokenRow> {
    const row = await this.deps.tokens.byId(tokenId);
    if (!row) throw notFound(IDENTITY_MESSAGES.tokenNotFound);
    return row;
  }

  /** The metadata columns a form writes, checked by the rename door's rules and the logo rules. */
  private async metadataPatch(row: TokenRow, m: ListingMetadata): Promise<Partial<NewToken>> {
    await this.deps.listing.assertIdentity('rename', {
      ticker: row.ticker,
      name: m.name,
      issuer: row.issuerAddress,
      currency: row.currency,
    });
    if (m.logoUrl) await this.deps.listing.assertStoredLogo(m.logoUrl, row.id);
    return metadataColumns(m);
  }

  async control(userId: number, admin: boolean, tokenId: number): Promise<ListingControlView> {
    const row = await this.token(tokenId);
    const controller = row.controllerUserId === userId;
    return {
      token_id: row.id,
      controller,
      admin,
      own_wallet: await this.deps.listing.ownsWallet(userId, row.issuerAddress),
      lost_control: controller ? null : ((await this.lostControl(userId, [row.id]))[0] ?? null),
    };
  }

  /** The user's claim codes for a listing that still count (unused, unexpired, issued with their text). */
  private async liveCodes(userId: number, tokenId: number, db: Db = this.db): Promise<ListingChallengeRow[]> {
    return db
      .select()
      .from(listingChallenges)
      .where(
        and(
          eq(listingChallenges.tokenId, tokenId),
          eq(listingChallenges.userId, userId),
          isNull(listingChallenges.usedAt),
          isNotNull(listingChallenges.claimText),
          gt(listingChallenges.expiresAt, new Date()),
        ),
      )
      .orderBy(desc(listingChallenges.id));
  }

  /**
   * A claim code for (listing, user), valid CLAIM_CHALLENGE_TTL_MINUTES, and the claim text it sits
   * in ('Ledgerpad: make alice (user #7) controller of ZETA listing #12. Code …'). A live code with
   * time left is handed out again, so reloading the page never kills a code already sent; new
   * codes are limited to CLAIM_CODES_PER_HOUR per listing and user (429 beyond).
   */
  async challenge(userId: number, tokenId: number): Promise<ClaimChallengeView> {
    const row = await this.token(tokenId);
    const client = this.client();
    const [ownWallet, facts, ledgerIndex, domainHex] = await Promise.all([
      this.deps.listing.ownsWallet(userId, row.issuerAddress),
      readIssuerFacts(client, row.issuerAddress).catch(() => undefined),
      client.getLedgerIndex(),
      client
        .request({ command: 'account_info', account: row.issuerAddress, ledger_index: 'validated' })
        .then((r) => (r.result.account_data as { Domain?: string }).Domain)
        .catch(() => undefined),
    ]);
    const domain = domainOf(domainHex);
    // An issuer that can never sign again cannot send a code; the TOML and wallet ways remain.
    const code = facts?.blackholed ? undefined : await this.issueCode(userId, row, ledgerIndex);
    const text = code?.claimText ?? '';
    return {
      token_id: row.id,
      issuer_address: row.issuerAddress,
      ticker: row.ticker,
      currency: row.currency,
      own_wallet: ownWallet,
      code: code?.code ?? '',
      claim_text: text,
      expires_at: (
        code?.expiresAt ?? new Date(Date.now() + CLAIM_CHALLENGE_TTL_MINUTES * 60_000)
      ).toISOString(),
      transaction: {
        TransactionType: 'AccountSet',
        Account: row.issuerAddress,
        Memos: code ? [{ Memo: claimMemo(text) }] : [],
      },
      domain,
      toml_url: domain ? tomlUrl(domain, this.allowLoopback) : null,
      toml_line: text ? `${TOML_CLAIM_FIELD} = "${text}"` : '',
    };
  }

  /** The live code to hand out (reused while it has time left), or a new one within the hourly limit. */
  private async issueCode(userId: number, row: TokenRow, ledgerIndex: number): Promise<ListingChallengeRow> {
    const user = await claimLabel(this.db, userId);
    return this.db.transaction(async (tx) => {
      // One user's requests for one listing queue here: a double reload issues one code.
      await tx.execute(sql`select pg_advisory_xact_lock(${row.id}::int, ${userId}::int)`);
      const [live] = await this.liveCodes(userId, row.id, tx as Db);
      if (live && live.expiresAt.getTime() - Date.now() >= CLAIM_CODE_REUSE_MIN_MINUTES * 60_000) return live;
      const recent = await tx
        .select({ createdAt: listingChallenges.createdAt })
        .from(listingChallenges)
        .where(
          and(
            eq(listingChallenges.tokenId, row.id),
            eq(listingChallenges.userId, userId),
            gt(listingChallenges.createdAt, new Date(Date.now() - HOUR_MS)),
          ),
        )
        .orderBy(asc(listingChallenges.createdAt));
      if (recent.length >= CLAIM_CODES_PER_HOUR) {
        const retryAfter = Math.max(
          1,
          Math.ceil((recent[0]!.createdAt.getTime() + HOUR_MS - Date.now()) / 1000),
        );
        throw rateLimited(IDENTITY_MESSAGES.codeLimit, { retryAfter });
      }
      const code = `ledgerpad-claim-${randomBytes(16).toString('hex')}`;
      const [created] = await tx
        .insert(listingChallenges)
        .values({
          tokenId: row.id,
          userId,
          issuerAddress: row.issuerAddress,
          code,
          claimText: claimText({ user, userId, ticker: row.ticker, tokenId: row.id, code }),
          ledgerIndex,
          expiresAt: new Date(Date.now() + CLAIM_CHALLENGE_TTL_MINUTES * 60_000),
        })
        .returning();
      return created!;
    });
  }

  /** Checks the proof; says whether it binds the caller, and what to record (a transaction hash or the TOML URL). */
  private async prove(userId: number, row: TokenRow, method: ClaimMethod): Promise<Proof> {
    if (method === 'wallet') {
      if (!(await this.deps.listing.ownsWallet(userId, row.issuerAddress)))
        throw badRequest(IDENTITY_MESSAGES.notOwnWallet);
      return { binding: true, evidence: null };
    }
    const client = this.client();
    const codes = await this.liveCodes(userId, row.id);
    if (method === 'challenge') {
      if (codes.length === 0) {
        const [any] = await this.db
          .select({ id: listingChallenges.id })
          .from(listingChallenges)
          .where(and(eq(listingChallenges.tokenId, row.id), eq(listingChallenges.userId, userId)))
          .limit(1);
        throw badRequest(any ? IDENTITY_MESSAGES.challengeExpired : IDENTITY_MESSAGES.challengeMissing);
      }
      // Every live code counts (a reload may have been handed a newer one after the older was sent).
      const byMemo = new Map(codes.map((c) => [claimMemo(c.claimText!).MemoData, c]));
      const found = await findClaimTransaction(
        client,
        row.issuerAddress,
        [...byMemo.keys()],
        Math.min(...codes.map((c) => c.ledgerIndex)),
        new Date(Math.max(...codes.map((c) => c.expiresAt.getTime()))),
      );
      if (!found) throw badRequest(IDENTITY_MESSAGES.challengeNotFound);
      return { binding: true, evidence: found.hash, challengeId: byMemo.get(found.memoDataHex)!.id };
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
    const url = tomlUrl(domain, this.allowLoopback);
    const text = await fetchToml(url, { allowLoopback: this.allowLoopback });
    const toml = checkToml(text, url, row.issuerAddress, row.currency, row.ticker);
    // The domain names a controller only with the claim text of one of the caller's live codes.
    const line = toml.currency[TOML_CLAIM_FIELD];
    const code = typeof line === 'string' ? codes.find((c) => c.claimText === line.trim()) : undefined;
    if (code) return { binding: true, evidence: url, challengeId: code.id, domain };
    return { binding: false, evidence: url, domain, toml };
  }

  /**
   * Checks a proof. Binding (own wallet, the signed claim text, the claim text in the TOML): the
   * caller becomes the listing's controller — replacing any other, publicly in the history — and
   * their metadata replaces the listing's. Not binding (a TOML without the caller's claim text): the
   * listing is verified from the TOML (its name and description, the domain as website) when it has
   * no controller, the domain's vouch is recorded, and nobody becomes controller.
   */
  async claim(userId: number, body: ClaimVerifyRequest): Promise<{ row: TokenRow; note?: string }> {
    const row = await this.token(body.token_id);
    const proof = await this.prove(userId, row, body.method);
    if (!proof.binding)
      return {
        row: await this.verifyFromToml(userId, row, proof),
        note: IDENTITY_MESSAGES.tomlVerifiedOnly(proof.domain),
      };
    const patch = await this.metadataPatch(row, body);
    const updated = await this.db.transaction(async (tx) => {
      const next = await this.deps.tokens.update(
        row.id,
        {
          ...patch,
          controllerUserId: userId,
          verified: true,
          verifiedBy: body.method,
          verifiedAt: new Date(),
          verifiedDomain: proof.domain ?? row.verifiedDomain,
          metadataBy: 'issuer',
        },
        tx as Db,
      );
      if (proof.challengeId !== undefined) {
        await tx
          .update(listingChallenges)
          .set({ usedAt: new Date(), txHash: proof.evidence })
          .where(eq(listingChallenges.id, proof.challengeId));
      }
      await tx.insert(tokenIdentityEvents).values({
        tokenId: row.id,
        userId,
        action: 'claim',
        method: body.method,
        before: { ...metadataOf(row), ...identityOf(row) },
        after: { ...metadataOf(next!), ...identityOf(next!), evidence: proof.evidence },
      });
      return next!;
    });
    this.deps.tokens.changed();
    await this.deps.tokens.refreshLookalikes();
    return { row: (await this.deps.tokens.byId(updated.id)) ?? updated };
  }

  /** The non-binding TOML proof: the domain vouches; the TOML's own metadata when nobody controls the listing. */
  private async verifyFromToml(
    userId: number,
    row: TokenRow,
    proof: Extract<Proof, { binding: false }>,
  ): Promise<TokenRow> {
    let patch: Partial<NewToken> = {
      verified: true,
      verifiedBy: row.verifiedBy ?? 'toml',
      verifiedAt: row.verifiedAt ?? new Date(),
      verifiedDomain: proof.domain,
    };
    if (row.controllerUserId === null) {
      // The caller's form is not the issuer's word: the TOML's is (and a logo the lister chose goes).
      const text = (v: unknown) => (typeof v === 'string' ? v : '');
      const fromToml = listingMetadataSchema.safeParse({
        name: text(proof.toml.currency.name) || text(proof.toml.issuer.name),
        description: text(proof.toml.currency.desc) || text(proof.toml.issuer.desc),
        websiteLink: `https://${proof.domain}/`,
      });
      const keep = listingMetadataSchema.safeParse({
        name: row.name,
        description: fromToml.success ? fromToml.data.description : '',
        websiteLink: `https://${proof.domain}/`,
      });
      const m = fromToml.success ? fromToml.data : keep.success ? keep.data : undefined;
      if (m) {
        const named = await this.deps.tokens.identityRefusal({
          door: 'rename',
          ticker: row.ticker,
          name: m.name,
          issuer: row.issuerAddress,
          currency: row.currency,
        });
        patch = {
          ...patch,
          ...metadataColumns({ ...m, name: named ? row.name : m.name }),
          logoUrl: null,
          metadataBy: 'issuer',
        };
      }
    }
    const updated = await this.db.transaction(async (tx) => {
      const next = await this.deps.tokens.update(row.id, patch, tx as Db);
      await tx.insert(tokenIdentityEvents).values({
        tokenId: row.id,
        userId,
        action: 'toml',
        method: 'toml',
        before: { ...metadataOf(row), ...identityOf(row) },
        after: { ...metadataOf(next!), ...identityOf(next!), evidence: proof.evidence },
      });
      return next!;
    });
    this.deps.tokens.changed();
    await this.deps.tokens.refreshLookalikes();
    return (await this.deps.tokens.byId(updated.id)) ?? updated;
  }

  /** The proven controller (or an admin, through its own route) replaces the metadata at any time. */
  async updateMetadata(userId: number, tokenId: number, m: ListingMetadata): Promise<TokenRow> {
    const row = await this.token(tokenId);
    if (row.controllerUserId !== userId) throw forbidden(IDENTITY_MESSAGES.notController);
    const patch = await this.metadataPatch(row, m);
    const updated = await this.db.transaction(async (tx) => {
      const next = await this.deps.tokens.update(row.id, { ...patch, metadataBy: 'issuer' }, tx as Db);
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
    return (await this.deps.tokens.byId(updated.id)) ?? updated;
  }

  // --- The public history, and who lost control ---------------------------------------------

  /** A token's identity history, oldest first, in words (no user is named). */
  async history(tokenId: number): Promise<IdentityEventView[]> {
    const latest = await this.db
      .select()
      .from(tokenIdentityEvents)
      .where(eq(tokenIdentityEvents.tokenId, tokenId))
      .orderBy(desc(tokenIdentityEvents.id))
      .limit(HISTORY_MAX);
    return latest.reverse().map((e) => {
      const before = (e.before ?? {}) as Record<string, unknown>;
      const after = (e.after ?? {}) as Record<string, unknown>;
      const changed =
        'controllerUserId' in after && (before.controllerUserId ?? null) !== (after.controllerUserId ?? null);
      const evidence = typeof after.evidence === 'string' ? after.evidence : null;
      return {
        at: e.createdAt.toISOString(),
        action: e.action,
        method: e.method,
        controller_changed: e.action !== 'list' && changed,
        evidence,
        text: eventText(e.action, e.method, before, after, changed),
      };
    });
  }

  /**
   * The listings this user controlled and lost to another user's proof (newest first), each with
   * when and how: the dashboard and the claim page show them.
   */
  async lostControl(userId: number, tokenIds?: number[]): Promise<ControlLossView[]> {
    const rows = await this.db
      .select()
      .from(tokenIdentityEvents)
      .where(
        and(
          inArray(tokenIdentityEvents.action, ['claim', 'admin.update']),
          sql`(${tokenIdentityEvents.before}->>'controllerUserId') = ${String(userId)}`,
          sql`coalesce(${tokenIdentityEvents.after}->>'controllerUserId', '') <> ${String(userId)}`,
          tokenIds ? inArray(tokenIdentityEvents.tokenId, tokenIds) : undefined,
        ),
      )
      .orderBy(desc(tokenIdentityEvents.id));
    const out: ControlLossView[] = [];
    const seen = new Set<number>();
    for (const e of rows) {
      if (seen.has(e.tokenId)) continue;
      seen.add(e.tokenId);
      const token = await this.deps.tokens.byId(e.tokenId);
      // Control won back since: nothing lost.
      if (!token || token.controllerUserId === userId) continue;
      const after = (e.after ?? {}) as Record<string, unknown>;
      const when = e.createdAt.toISOString();
      out.push({
        token_id: token.id,
        ticker: token.ticker,
        issuer_address: token.issuerAddress,
        currency: token.currency,
        at: when,
        method: e.method,
        evidence: typeof after.evidence === 'string' ? after.evidence : null,
        message: IDENTITY_MESSAGES.lostControl(
          token.ticker,
          when.slice(0, 16).replace('T', ' ') + ' UTC',
          METHOD_WORDS[e.method ?? ''] ?? 'an admin’s decision',
        ),
      });
    }
    return out;
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
    return (await this.deps.tokens.byId(updated.id)) ?? updated;
  }

  /** An admin edits any listing: metadata and the created date, under the same identity rules as anyone. */
  async adminUpdate(adminId: number, tokenId: number, form: ListingForm): Promise<TokenRow> {
    const row = await this.token(tokenId);
    const patch = await this.metadataPatch(row, form);
    const createdAt = form.created_at
      ? new Date(form.created_at.length === 10 ? `${form.created_at}T00:00:00Z` : form.created_at)
      : row.createdAt;
    return this.adminChange(
      adminId,
      row,
      'token.update',
      { ...patch, createdAt, metadataBy: 'admin' },
      (r) => ({ ...metadataOf(r), createdAt: r.createdAt.toISOString() }),
    );
  }

  /**
   * An admin vouches for a listing (or withdraws the badge). The decision ranks it first among the
   * tokens sharing its ticker or name, so it applies to both sides. RLUSD's code from another
   * issuer stays refused.
   */
  async adminVerify(adminId: number, tokenId: number, verified: boolean): Promise<TokenRow> {
    const row = await this.token(tokenId);
    if (
      verified &&
      row.currency === RLUSD_CURRENCY_HEX &&
      row.issuerAddress !== (await this.deps.listing.rlusdIssuer())
    )
      throw badRequest(IDENTITY_MESSAGES.rlusdCode);
    const patch: Partial<NewToken> = verified
      ? { verified: true, verifiedBy: 'admin', verifiedAt: new Date() }
      : { verified: false, verifiedBy: null, verifiedAt: null, verifiedDomain: null };
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

/** One history row in words. */
function eventText(
  action: string,
  method: string | null,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  controllerChanged: boolean,
): string {
  switch (action) {
    case 'list':
      return after.verified
        ? 'Listed from the issuer’s own wallet (or by Ledgerpad).'
        : 'Listed by a user who did not prove control of the issuer.';
    case 'claim':
      return controllerChanged
        ? `${before.controllerUserId ? 'The controller changed' : 'A controller was proven'}: ${METHOD_WORDS[method ?? ''] ?? 'proof of control'}.`
        : `The controller proved control again: ${METHOD_WORDS[method ?? ''] ?? 'proof of control'}.`;
    case 'toml':
      return `${String(after.verifiedDomain ?? 'The issuer’s domain')} vouches for this token in its xrp-ledger.toml; nobody became controller.`;
    case 'metadata':
      return 'The controller updated the name, description, logo or links.';
    case 'admin.update':
      return 'A Ledgerpad admin edited the listing.';
    case 'admin.verify':
      return after.verified
        ? 'A Ledgerpad admin checked the listing.'
        : 'A Ledgerpad admin withdrew its check.';
    case 'admin.hide':
      return after.hidden
        ? 'A Ledgerpad admin hid the listing.'
        : 'A Ledgerpad admin showed the listing again.';
    default:
      return action;
  }
}

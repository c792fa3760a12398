import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import { Wallet } from 'xrpl';
import {
  MAX_WALLETS_PER_USER,
  WALLET_MESSAGES,
  SELF_CUSTODY_MESSAGES,
  type CreatedWallet,
  type ImportWalletRequest,
  type ReplayedWallet,
  SECRET_MESSAGES,
  type WalletSummary,
  type WalletApp,
  type WalletKind,
} from '@ledgerpad/shared';
import { batchedRead, batchedRows, isRowId } from '../../db/batched';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import { badRequest, notFound } from '../../lib/errors';
import { withinKeyLife } from '../../lib/idempotency';
import type { XrplConnection } from '../../ledger/connection';
import type { Funds } from '../../ledger/funds';
import type { SubmissionService } from '../../ledger/submission-service';
import type { IntentService } from '../../platform/intents';
import { insertSelfCustodyWallet, insertWallet, sealWallet, type WalletRow } from '../../platform/custody';
import { pgErrorCode } from '../../db/results';
import { walletsFromImport } from './keys-import';
import { users } from '../users/schema';
import { wallets } from '../../platform/custody-schema';

// The Wallets page: custodial wallets of signed-in users. Every call takes the user id and only
// ever touches that user's rows; a wallet of someone else is "not found", never "forbidden".

export interface WalletServiceDeps {
  db: Db;
  keyring: Keyring;
  /** Absent when the app runs without a ledger: wallet records still work, ledger calls answer 503. */
  connection?: XrplConnection;
  submissions?: SubmissionService;
  /** Funds checks before signing; absent without a ledger (like `submissions`). */
  funds?: Funds;
  /** The platform's trading fee in percent (settings), for the spendable figures. */
  tradingFeePercent?: () => Promise<string>;
  /** Which network X-addresses must be made for. */
  network: 'standalone' | 'testnet' | 'mainnet';
  /** Intents for self-custody wallets (absent without a ledger). */
  intents?: IntentService;
}

/** An address's root on the ledger, as the reads (wallet-reads.ts) answer it. */
export interface AccountState {
  activated: boolean;
  balanceDrops: bigint;
  ownerCount: number;
}

/** Who signs for a wallet, as every wallet answer carries it (docs/self-custody.md). */
export function kindOf(row: WalletRow): Pick<WalletSummary, 'kind' | 'wallet_app'> {
  return {
    kind: row.kind as WalletKind,
    wallet_app: row.kind === 'external' ? ((row.walletApp as WalletApp | null) ?? null) : null,
  };
}

export function summary(row: WalletRow): WalletSummary {
  return {
    id: row.id,
    wallet_address: row.address,
    wallet_name: row.name,
    created_at: row.createdAt.toISOString(),
    ...kindOf(row),
  };
}

// The wallet records: the user's rows (create, import, adopt, list, rename, archive). The ledger
// reads (wallet-reads.ts) and the signed actions (wallet-actions.ts) build on these;
// WalletService (service.ts) is the whole.
export abstract class WalletRecords {
  protected readonly db: Db;

  constructor(protected readonly deps: WalletServiceDeps) {
    this.db = deps.db;
  }

  /** The address's state at the validated ledger (wallet-reads.ts); an import picks the activated candidate. */
  abstract accountState(address: string): Promise<AccountState>;

  /** Live user wallets by id, the ids asked for in one turn read together (db/batched.ts). */
  private readonly liveWallet = batchedRead(async (ids: number[]) => {
    const rows = await this.db
      .select()
      .from(wallets)
      .where(and(inArray(wallets.id, ids), eq(wallets.role, 'user'), isNull(wallets.archivedAt)));
    return new Map(rows.map((r) => [String(r.id), r]));
  });

  async list(userId: number): Promise<WalletRow[]> {
    const rows = isRowId(userId) ? await this.liveWalletsOf(userId) : [];
    return rows.map((r) => ({ ...r }));
  }

  /** Each user's live wallets by id: every swap and quote lists them, one turn's users together. */
  private readonly liveWalletsOf = batchedRows(
    (userIds: number[]) =>
      this.db
        .select()
        .from(wallets)
        .where(and(inArray(wallets.userId, userIds), eq(wallets.role, 'user'), isNull(wallets.archivedAt)))
        .orderBy(asc(wallets.id)),
    (r) => String(r.userId),
  );

  /** The user's live wallet, or 404 — the same answer whether it belongs to someone else or to nobody. */
  async owned(userId: number, walletId: number): Promise<WalletRow> {
    const row = isRowId(walletId) ? await this.liveWallet(walletId) : undefined;
    if (!row || row.userId !== userId) throw notFound(WALLET_MESSAGES.notFound);
    return { ...row };
  }

  private async defaultName(userId: number, db: Db = this.db): Promise<string> {
    const all = await db
      .select({ id: wallets.id })
      .from(wallets)
      .where(and(eq(wallets.userId, userId), eq(wallets.role, 'user')));
    return `Wallet ${all.length + 1}`;
  }

  /**
   * Runs `add` while the user holds fewer than MAX_WALLETS_PER_USER live wallets. The user's row is
   * locked for the check and the insert, so parallel requests can't pass the cap together.
   */
  private async withWalletSlot<T>(userId: number, add: (db: Db) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const [live] = await tx
        .select({ n: count() })
        .from(wallets)
        .where(and(eq(wallets.userId, userId), eq(wallets.role, 'user'), isNull(wallets.archivedAt)));
      if ((live?.n ?? 0) >= MAX_WALLETS_PER_USER) {
        throw badRequest(WALLET_MESSAGES.tooManyWallets, { limit: MAX_WALLETS_PER_USER });
      }
      return add(tx as unknown as Db);
    });
  }

  /**
   * The wallet the request with this Idempotency-Key made, if it made one within the key's life: a
   * retry whose first attempt was cut after the insert (kill -9, a lost answer) finds it.
   */
  private async madeBy(userId: number, requestKey: string | undefined): Promise<WalletRow | undefined> {
    if (!requestKey) return undefined;
    const [row] = await this.db
      .select()
      .from(wallets)
      .where(
        and(
          eq(wallets.userId, userId),
          eq(wallets.role, 'user'),
          eq(wallets.requestKey, requestKey),
          withinKeyLife(wallets.createdAt),
        ),
      );
    return row;
  }

  async create(userId: number, name?: string, requestKey?: string): Promise<CreatedWallet | ReplayedWallet> {
    // A retry of a create whose first attempt made the wallet: the same wallet, never its seed
    // again (the first attempt may have answered before it was cut).
    const made = await this.madeBy(userId, requestKey);
    if (made) return { ...summary(made), secret_shown_once: true, secret_notice: SECRET_MESSAGES.shownOnce };
    const wallet = Wallet.generate();
    const row = await this.withWalletSlot(userId, async (db) =>
      insertWallet(db, this.deps.keyring, {
        userId,
        name: name || (await this.defaultName(userId, db)),
        wallet,
        requestKey,
      }),
    );
    // The only response that ever carries a seed.
    return { ...summary(row), wallet_seed: wallet.seed! };
  }

  async import(userId: number, body: ImportWalletRequest, requestKey?: string): Promise<WalletSummary> {
    // A retry of an import that went through answers with it, not 'Wallet Already Exists'.
    const made = await this.madeBy(userId, requestKey);
    if (made) return summary(made);
    const candidates = walletsFromImport(body);
    const wallet = await this.pickExisting(candidates);
    const [existing] = await this.db
      .select()
      .from(wallets)
      .where(and(eq(wallets.userId, userId), eq(wallets.address, wallet.classicAddress)));
    if (existing && !existing.archivedAt) throw badRequest(WALLET_MESSAGES.alreadyExists);
    if (existing) {
      // Importing a wallet the user removed earlier brings the same record back (same id, history).
      const [row] = await this.withWalletSlot(userId, (db) =>
        db
          .update(wallets)
          .set({
            archivedAt: null,
            name: body.name || existing.name,
            requestKey: requestKey ?? null,
            // Its seed is given to the server now: a custodial wallet from here on.
            kind: 'custodial',
            walletApp: null,
            publicKey: null,
            ...sealWallet(this.deps.keyring, wallet),
          })
          .where(eq(wallets.id, existing.id))
          .returning(),
      );
      return summary(row!);
    }
    try {
      const row = await this.withWalletSlot(userId, async (db) =>
        insertWallet(db, this.deps.keyring, {
          userId,
          name: body.name || (await this.defaultName(userId, db)),
          wallet,
          requestKey,
        }),
      );
      return summary(row);
    } catch (err) {
      // A concurrent import of the same wallet won the unique index.
      if (
        String((err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code) ===
        '23505'
      ) {
        throw badRequest(WALLET_MESSAGES.alreadyExists);
      }
      throw err;
    }
  }

  /**
   * A self-custody wallet whose ownership was proven (self-custody.ts): it joins the user's list with
   * its kind, app and public key and no secret. Adding an address the user removed earlier brings
   * the same record back as self-custody (a sealed seed it had is dropped: the user holds the key).
   */
  async adoptSelfCustody(
    userId: number,
    w: {
      address: string;
      publicKey: string;
      kind: 'browser' | 'external';
      walletApp: string | null;
      name?: string;
    },
  ): Promise<WalletSummary> {
    const [existing] = await this.db
      .select()
      .from(wallets)
      .where(and(eq(wallets.userId, userId), eq(wallets.address, w.address)));
    if (existing && !existing.archivedAt)
      throw badRequest(
        existing.kind === 'custodial' ? SELF_CUSTODY_MESSAGES.custodialExists : WALLET_MESSAGES.alreadyExists,
      );
    const fields = { kind: w.kind, walletApp: w.walletApp, publicKey: w.publicKey };
    if (existing) {
      const [row] = await this.withWalletSlot(userId, (db) =>
        db
          .update(wallets)
          .set({
            ...fields,
            archivedAt: null,
            name: w.name || existing.name,
            secretKind: null,
            secretCiphertext: null,
            secretNonce: null,
            dataKeyWrapped: null,
            dataKeyNonce: null,
            keyId: null,
          })
          .where(eq(wallets.id, existing.id))
          .returning(),
      );
      return summary(row!);
    }
    try {
      const row = await this.withWalletSlot(userId, async (db) =>
        insertSelfCustodyWallet(db, {
          userId,
          address: w.address,
          publicKey: w.publicKey,
          kind: w.kind,
          walletApp: w.walletApp,
          name: w.name || (await this.defaultName(userId, db)),
        }),
      );
      return summary(row);
    } catch (err) {
      if (pgErrorCode(err) === '23505') throw badRequest(WALLET_MESSAGES.alreadyExists);
      throw err;
    }
  }

  private async pickExisting(candidates: Wallet[]): Promise<Wallet> {
    if (candidates.length === 1 || !this.deps.connection?.isConnected()) return candidates[0]!;
    for (const w of candidates) {
      if ((await this.accountState(w.classicAddress)).activated) return w;
    }
    return candidates[0]!;
  }

  /** Archives: the wallet leaves every list, its sealed key stays so nothing is ever lost. */
  async archive(userId: number, walletId: number): Promise<void> {
    const row = await this.owned(userId, walletId);
    await this.db.update(wallets).set({ archivedAt: new Date() }).where(eq(wallets.id, row.id));
  }

  async rename(userId: number, walletId: number, name: string): Promise<WalletSummary> {
    const row = await this.owned(userId, walletId);
    const [updated] = await this.db.update(wallets).set({ name }).where(eq(wallets.id, row.id)).returning();
    return summary(updated!);
  }
}

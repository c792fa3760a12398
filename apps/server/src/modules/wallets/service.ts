import { lockedByToken } from '../../ledger/escrows';
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm';
import {
  convertStringToHex,
  LedgerEntry,
  RippledError,
  TrustSetFlags,
  Wallet,
  type AccountLinesTrustline,
  type Client,
} from 'xrpl';
import {
  currencyToTicker,
  isLpCurrency,
  lpName,
  MAX_WALLETS_PER_USER,
  resolveDestination,
  RLUSD_CURRENCY_HEX,
  TRADING_FEE_PERCENT,
  availableXrp,
  ledgerResultMessage,
  tickerToCurrency,
  WALLET_MESSAGES,
  WALLET_STATUS,
  SELF_CUSTODY_MESSAGES,
  type CreatedWallet,
  type ImportWalletRequest,
  type ReplayedWallet,
  SECRET_MESSAGES,
  type RemoveTrustlineRequest,
  type TransferRequest,
  type TransferResponse,
  type Trustline,
  type WalletBalance,
  type WalletSummary,
  type WalletToken,
  type WalletApp,
  type WalletKind,
  type IntentRequired,
  serverSigns,
  Decimal,
  dropsToXrp,
  normalizeTokenValue,
  xrpToDrops,
  DEFAULT_RESERVE_BASE_DROPS,
  DEFAULT_RESERVE_INCREMENT_DROPS,
} from '@ledgerpad/shared';
import { batchedRead, batchedRows, isRowId } from '../../db/batched';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import { badRequest, fieldError, ledgerUnavailable, notFound } from '../../lib/errors';
import { withinKeyLife } from '../../lib/idempotency';
import type { XrplConnection } from '../../ledger/connection';
import { accountMissing, ledgerFailure } from '../../ledger/errors';
import type { Funds } from '../../ledger/funds';
import type {
  SubmissionOutcome,
  SubmissionService,
  SubmitRequest,
  TxRequest,
} from '../../ledger/submission-service';
import type { IntentService } from '../../platform/intents';
import { customFeePercent } from '../users';
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

/** What a transfer spends, checked before it is signed (kept in a self-custody intent for its recheck). */
export type TransferSpend =
  { xrp: string } | { token: { currency: string; issuer: string }; value: string; ownIssue: boolean };

interface AccountState {
  activated: boolean;
  balanceDrops: bigint;
  ownerCount: number;
}

function rippledError(err: unknown): string | undefined {
  return err instanceof RippledError ? (err.data as { error?: string } | undefined)?.error : undefined;
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

export class WalletService {
  private readonly db: Db;
  /** LP token issuer (AMM account) → the pool's token, which never changes for an AMM account. */
  private readonly ammTokens = new Map<string, { ticker: string; issuer: string } | null>();

  constructor(private readonly deps: WalletServiceDeps) {
    this.db = deps.db;
  }

  /** Live user wallets by id, the ids asked for in one turn read together (db/batched.ts). */
  private readonly liveWallet = batchedRead(async (ids: number[]) => {
    const rows = await this.db
      .select()
      .from(wallets)
      .where(and(inArray(wallets.id, ids), eq(wallets.role, 'user'), isNull(wallets.archivedAt)));
    return new Map(rows.map((r) => [String(r.id), r]));
  });

  get client() {
    if (!this.deps.connection) throw ledgerUnavailable();
    return this.deps.connection.client;
  }

  private get submissions(): SubmissionService {
    if (!this.deps.submissions) throw ledgerUnavailable();
    return this.deps.submissions;
  }

  private get funds(): Funds {
    if (!this.deps.funds) throw ledgerUnavailable();
    return this.deps.funds;
  }

  /** Checks and signs one transaction of `account` under its funds lease, then follows it to the end. */
  private async checkedSubmit(req: SubmitRequest, check: () => Promise<unknown>): Promise<SubmissionOutcome> {
    const done = await this.submissions.existing(req.intentKey);
    if (done) return done;
    const row = await this.funds.withAccount(req.account, async () => {
      await check();
      return this.submissions.prepare(req);
    });
    return this.submissions.follow(req, row);
  }

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

  async accountState(address: string): Promise<AccountState> {
    const root = await this.validatedRoot(address);
    return root
      ? { activated: true, balanceDrops: BigInt(root.Balance), ownerCount: root.OwnerCount }
      : { activated: false, balanceDrops: 0n, ownerCount: 0 };
  }

  private async recipientInfo(address: string): Promise<{ activated: boolean; requireTag: boolean }> {
    const root = await this.validatedRoot(address);
    return root
      ? { activated: true, requireTag: (root.Flags & LedgerEntry.AccountRootFlags.lsfRequireDestTag) !== 0 }
      : { activated: false, requireTag: false };
  }

  /** The account's root at the validated ledger; undefined when the account does not exist. */
  private async validatedRoot(address: string) {
    try {
      const info = await this.client.request({
        command: 'account_info',
        account: address,
        ledger_index: 'validated',
      });
      return info.result.account_data;
    } catch (err) {
      if (rippledError(err) === 'actNotFound') return undefined;
      throw err;
    }
  }

  /** base reserve + owner count × owner reserve, in drops. */
  async reserveDrops(ownerCount: number): Promise<{ base: bigint; increment: bigint; total: bigint }> {
    const res = await this.client.request({ command: 'server_state' });
    const v = res.result.state.validated_ledger;
    const base = BigInt(v?.reserve_base ?? DEFAULT_RESERVE_BASE_DROPS);
    const increment = BigInt(v?.reserve_inc ?? DEFAULT_RESERVE_INCREMENT_DROPS);
    return { base, increment, total: base + BigInt(ownerCount) * increment };
  }

  /** The account's trust lines at the validated ledger; `reader`: another way to ask (ledger/local-ledger.ts). */
  async lines(
    address: string,
    peer?: string,
    reader: Pick<Client, 'request'> = this.client,
  ): Promise<AccountLinesTrustline[]> {
    const out: AccountLinesTrustline[] = [];
    let marker: unknown;
    do {
      let res;
      try {
        res = await reader.request({
          command: 'account_lines',
          account: address,
          ledger_index: 'validated',
          peer,
          limit: 400,
          marker,
        });
      } catch (err) {
        if (rippledError(err) === 'actNotFound') return [];
        throw err;
      }
      out.push(...res.result.lines);
      marker = res.result.marker;
    } while (marker);
    return out;
  }

  /** For an LP token issuer (an AMM account): the pool's token ticker and issuer. */
  private async ammToken(ammAccount: string): Promise<{ ticker: string; issuer: string } | null> {
    if (this.ammTokens.has(ammAccount)) return this.ammTokens.get(ammAccount)!;
    let token: { ticker: string; issuer: string } | null = null;
    try {
      const res = await this.client.request({ command: 'amm_info', amm_account: ammAccount });
      const amm = res.result.amm;
      const assets = [amm.amount, amm.amount2].filter((a) => typeof a === 'object') as Array<{
        currency: string;
        issuer: string;
      }>;
      // An X/RLUSD pool is named after X; an XRP/RLUSD pool after RLUSD.
      const pick = assets.find((a) => a.currency !== RLUSD_CURRENCY_HEX) ?? assets[0];
      if (pick) token = { ticker: currencyToTicker(pick.currency), issuer: pick.issuer };
    } catch {
      token = null;
    }
    this.ammTokens.set(ammAccount, token);
    return token;
  }

  private async tokenOf(line: AccountLinesTrustline): Promise<WalletToken> {
    const base: WalletToken = {
      currency: currencyToTicker(line.currency),
      currencyCode: line.currency,
      issuer: line.account,
      realIssuer: line.account,
      value: line.balance,
    };
    if (!isLpCurrency(line.currency)) return base;
    const pool = await this.ammToken(line.account);
    return pool
      ? { ...base, realIssuer: pool.issuer, lpName: lpName(pool.ticker) }
      : { ...base, lpName: lpName('?') };
  }

  async balance(row: WalletRow): Promise<WalletBalance> {
    const state = await this.accountState(row.address);
    const reserves = await this.reserveDrops(state.ownerCount);
    const reserve = state.activated ? reserves.total : 0n;
    const committed = this.deps.funds ? await this.deps.funds.committedXrp(row.address) : 0n;
    const available = availableXrp(state.balanceDrops, state.ownerCount, {
      reserveBase: reserves.base,
      reserveIncrement: reserves.increment,
      baseFee: 0n,
    });
    // Lines with a negative balance are this account's own issues (it is the issuer), not holdings.
    const lines = (await this.lines(row.address)).filter((l) => !l.balance.startsWith('-'));
    const [tokens, locked] = await Promise.all([
      Promise.all(lines.map((l) => this.tokenOf(l))),
      state.activated ? lockedByToken(this.client, row.address) : new Map<string, Decimal>(),
    ]);
    for (const tok of tokens) {
      const l = locked.get(`${tok.currencyCode}|${tok.issuer}`);
      if (l?.gt(0)) tok.locked = l.toFixed();
    }
    return {
      id: row.id,
      wallet_address: row.address,
      wallet_name: row.name,
      ...kindOf(row),
      balance: dropsToXrp(state.balanceDrops),
      status: state.balanceDrops > 0n ? WALLET_STATUS.active : WALLET_STATUS.inactive,
      ledgerReserve: dropsToXrp(reserve),
      tokens,
      trustlines: tokens.map((t) => ({
        currency: t.currency,
        currencyCode: t.currencyCode,
        issuer: t.issuer,
      })),
      spendable: {
        ownerCount: state.ownerCount,
        available: dropsToXrp(state.activated && available > committed ? available - committed : 0n),
        committed: dropsToXrp(committed),
        baseReserve: dropsToXrp(reserves.base),
        ownerReserve: dropsToXrp(reserves.increment),
        networkFee: dropsToXrp(this.deps.submissions?.reserves.baseFee ?? 10n),
        tradingFeePercent: await this.tradingFeePercent(row.userId),
      },
    };
  }

  private async tradingFeePercent(userId: number | null): Promise<string> {
    const custom = userId === null ? null : await customFeePercent(this.db, userId);
    return custom ?? (await this.deps.tradingFeePercent?.()) ?? TRADING_FEE_PERCENT;
  }

  async balances(
    userId: number,
    selection?: Array<number | string | { id: number }>,
  ): Promise<WalletBalance[]> {
    let rows = await this.list(userId);
    if (selection?.length) {
      const wanted = new Set(selection.map((s) => (typeof s === 'object' ? String(s.id) : String(s))));
      rows = rows.filter((r) => wanted.has(String(r.id)) || wanted.has(r.address));
    }
    return Promise.all(rows.map((r) => this.balance(r)));
  }

  async ledgerObjects(userId: number, walletId: number) {
    const row = await this.owned(userId, walletId);
    const state = await this.accountState(row.address);
    const r = await this.reserveDrops(state.ownerCount);
    const objects: Array<{ type: string; index: string }> = [];
    if (state.activated) {
      let marker: unknown;
      do {
        const res = await this.client.request({
          command: 'account_objects',
          account: row.address,
          ledger_index: 'validated',
          limit: 400,
          marker,
        });
        for (const o of res.result.account_objects) objects.push({ type: o.LedgerEntryType, index: o.index });
        marker = res.result.marker;
      } while (marker);
    }
    return {
      reserve: dropsToXrp(state.activated ? r.total : 0n),
      baseReserve: dropsToXrp(r.base),
      ownerReserve: dropsToXrp(r.increment),
      ownerCount: state.ownerCount,
      objects,
    };
  }

  async trustlines(userId: number, walletId: number): Promise<{ trustlines: Trustline[] }> {
    const row = await this.owned(userId, walletId);
    const lines = await this.lines(row.address);
    const trustlines = await Promise.all(
      lines.map(async (l) => {
        const t = await this.tokenOf(l);
        return {
          currency: t.currency,
          currencyCode: l.currency,
          issuer: l.account,
          balance: l.balance,
          limit: l.limit,
          ...(t.lpName ? { lpName: t.lpName } : {}),
        };
      }),
    );
    return { trustlines };
  }

  async transfer(
    userId: number,
    body: TransferRequest,
    idempotencyKey?: string,
  ): Promise<TransferResponse | IntentRequired> {
    // A bot filled the hidden field: refuse like any failed transfer, without telling it why.
    if (body.honeypot) throw badRequest(WALLET_MESSAGES.transferFailed);
    const row = await this.owned(userId, body.walletId);
    const intentKey = `transfer:${userId}:${idempotencyKey ?? randomUUID()}`;
    // A retried request (same Idempotency-Key) gets the first attempt's result, never a second payment.
    if (idempotencyKey && !serverSigns(row.kind as WalletKind)) {
      const known = await this.intentService.known(intentKey);
      if (known) return { status: 'sign', intent: known };
    }
    const previous =
      idempotencyKey && serverSigns(row.kind as WalletKind)
        ? await this.submissions.existing(intentKey)
        : undefined;
    if (previous) return this.transferResult(previous);

    const resolved = resolveDestination(body.recipient, this.deps.network, 'recipient');
    if ('error' in resolved) {
      throw fieldError('recipient', resolved.error);
    }
    const destination = resolved.address;
    let tag = body.destinationTag ?? undefined;
    if (resolved.tag !== undefined) {
      if (tag !== undefined && tag !== resolved.tag) {
        throw badRequest('The destination tag does not match the X-address.');
      }
      tag = resolved.tag;
    }
    if (destination === row.address) throw badRequest('You cannot send to the same wallet.');

    const state = await this.accountState(row.address);
    if (!state.activated) throw badRequest(WALLET_MESSAGES.exceedsAvailable);
    const recipient = await this.recipientInfo(destination);
    // Checked here so the user reads why, instead of a failed transaction (tecDST_TAG_NEEDED).
    if (recipient.requireTag && tag === undefined) {
      throw badRequest('The recipient requires a destination tag.');
    }
    let amount: string | { currency: string; issuer: string; value: string };
    // Checked before signing (and again under the wallet's funds lease): the amount and the network
    // fee from what is left after the reserve, the transactions in flight and the fees owed.
    let spend: TransferSpend;
    if (!body.token) {
      let drops: bigint;
      try {
        drops = xrpToDrops(body.amount);
      } catch {
        throw badRequest('Enter an XRP amount with at most 6 decimals.');
      }
      if (drops <= 0n) throw badRequest('Amount must be greater than zero.');
      spend = { xrp: drops.toString() };
      await this.checkTransfer(row.address, spend);
      if (!recipient.activated) {
        const base = (await this.reserveDrops(0)).base;
        if (drops < base) {
          throw badRequest(
            `The recipient account is not activated yet: send at least ${dropsToXrp(base)} XRP to activate it.`,
          );
        }
      }
      amount = drops.toString();
    } else {
      let value: string;
      try {
        value = normalizeTokenValue(body.amount);
      } catch {
        throw badRequest('Enter a valid token amount.');
      }
      if (new Decimal(value).lte(0)) throw badRequest('Amount must be greater than zero.');
      const currency = tickerToCurrency(body.token.currency);
      const token = { currency, issuer: body.token.issuer };
      // The issuer sends its own token out of nothing; anyone else needs the tokens.
      spend = { token, value, ownIssue: body.token.issuer === row.address };
      await this.checkTransfer(row.address, spend);
      // Tokens can only go to an account: a recipient that does not exist is named (issue 34).
      if (!recipient.activated) throw accountMissing('recipient', destination, 'recipient');
      if (destination !== body.token.issuer) {
        const theirs = (await this.lines(destination, body.token.issuer)).find(
          (l) => tickerToCurrency(l.currency) === currency,
        );
        if (!theirs) throw badRequest('The recipient has no trust line for this token.');
      }
      amount = { currency, issuer: body.token.issuer, value };
    }

    const tx: Record<string, unknown> & { TransactionType: string } = {
      TransactionType: 'Payment',
      Destination: destination,
      Amount: amount,
    };
    if (tag !== undefined) tx.DestinationTag = tag;
    if (body.memo) {
      tx.Memos = [
        { Memo: { MemoType: convertStringToHex('text/plain'), MemoData: convertStringToHex(body.memo) } },
      ];
    }
    if (!serverSigns(row.kind as WalletKind)) {
      // The key is in the user's browser or wallet app: the exact payment, recorded, to be signed
      // there (docs/self-custody.md); the intent's finisher answers as below once it is submitted.
      const intent = await this.intentService.prepare({
        userId,
        wallet: row,
        purpose: 'transfer',
        intentKey,
        txs: [{ tx: tx as TxRequest, purpose: 'transfer' }],
        context: { spend },
      });
      return { status: 'sign', intent };
    }
    const outcome = await this.checkedSubmit(
      { intentKey, account: row.address, tx: tx as TxRequest, purpose: 'transfer', userId, walletId: row.id },
      () => this.checkTransfer(row.address, spend),
    );
    return this.transferResult(outcome);
  }

  /** The funds a transfer needs: the amount (or the tokens) and the network fee. */
  async checkTransfer(address: string, spend: TransferSpend): Promise<void> {
    if ('xrp' in spend) {
      await this.funds.requireXrp(address, { amount: BigInt(spend.xrp), transactions: 1 });
      return;
    }
    if (!spend.ownIssue)
      await this.funds.requireToken(
        address,
        spend.token,
        spend.value,
        currencyToTicker(spend.token.currency),
      );
    await this.funds.requireXrp(address, { transactions: 1 });
  }

  private get intentService(): IntentService {
    if (!this.deps.intents) throw ledgerUnavailable();
    return this.deps.intents;
  }

  transferResult(outcome: SubmissionOutcome): TransferResponse {
    if (outcome.status !== 'success') throw ledgerFailure(outcome);
    const d = outcome.deliveredAmount;
    return {
      success: true,
      hash: outcome.hash,
      ledger_index: outcome.ledgerIndex,
      delivered_amount: d === undefined ? '' : typeof d === 'string' ? dropsToXrp(d) : d.value,
    };
  }

  async removeTrustline(
    userId: number,
    body: RemoveTrustlineRequest,
    idempotencyKey?: string,
  ): Promise<{ success: true; hash: string } | IntentRequired> {
    const row = await this.owned(userId, body.walletId);
    const intentKey = `remove-trustline:${row.id}:${idempotencyKey ?? randomUUID()}`;
    const selfCustody = !serverSigns(row.kind as WalletKind);
    if (selfCustody && idempotencyKey) {
      const known = await this.intentService.known(intentKey);
      if (known) return { status: 'sign', intent: known };
    }
    // A retried request answers from the first one's transaction (the line is gone by then).
    const previous = idempotencyKey && !selfCustody ? await this.submissions.existing(intentKey) : undefined;
    if (previous) return this.removedResult(previous);
    const currency = tickerToCurrency(body.currency);
    const line = (await this.lines(row.address, body.issuer)).find(
      (l) => tickerToCurrency(l.currency) === currency,
    );
    if (!line) throw badRequest('This wallet has no trust line for that token.');
    if (new Decimal(line.balance).abs().gt(0)) {
      throw badRequest(
        `This trust line still holds ${line.balance} ${currencyToTicker(line.currency)}. Send or burn the tokens first: only an empty trust line can be removed.`,
      );
    }
    // Back to the default state (limit 0, no-ripple, not frozen) so the ledger deletes the line
    // and returns its owner reserve.
    const tx: TxRequest = {
      TransactionType: 'TrustSet',
      LimitAmount: { currency: line.currency, issuer: body.issuer, value: '0' },
      QualityIn: 0,
      QualityOut: 0,
      Flags: TrustSetFlags.tfSetNoRipple | TrustSetFlags.tfClearFreeze,
    };
    if (selfCustody) {
      // Signed in the browser or wallet app (docs/self-custody.md); the 'remove-trustline'
      // finisher answers as below.
      const intent = await this.intentService.prepare({
        userId,
        wallet: row,
        purpose: 'remove-trustline',
        intentKey,
        txs: [{ tx, purpose: 'remove-trustline' }],
        context: {},
      });
      return { status: 'sign', intent };
    }
    const outcome = await this.checkedSubmit(
      { intentKey, account: row.address, tx, purpose: 'remove-trustline', userId, walletId: row.id },
      () => this.funds.requireXrp(row.address, { transactions: 1 }),
    );
    return this.removedResult(outcome);
  }

  /** The answer of a trust line's removal from its TrustSet's outcome (both kinds of wallet). */
  removedResult(outcome: SubmissionOutcome): { success: true; hash: string } {
    if (outcome.status !== 'success')
      throw ledgerFailure(
        outcome,
        `${WALLET_MESSAGES.removeTrustlineFailed} ${ledgerResultMessage(outcome.result)}`,
      );
    return { success: true, hash: outcome.hash };
  }
}

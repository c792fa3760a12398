import type { z } from 'zod';
import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type {
  adminUserSchema,
  feeConfigUpdateSchema,
  feeOverrideUpdateSchema,
  platformConfigUpdateSchema,
} from '@ledgerpad/shared';
import {
  ADMIN_WALLETS_PAGE,
  ADMIN_MESSAGES,
  AUDIT_PAGE_SIZE,
  BONDING_CURVE_SUPPLY,
  OWNER_USER_ID,
  PLATFORM_CONFIG_KEYS,
  REFERRAL_MONTHS_MAX,
  REFERRAL_MONTHS_MIN,
  REFERRAL_SHARE_MAX_PERCENT,
  RLUSD_CURRENCY_HEX,
  isValidStepCount,
  parseId,
  type AdminView,
  type AdminWalletRow,
  type AuditPage,
  type FeeConfigView,
  type FeeOverrideView,
  type PlatformConfigEntry,
  type PlatformConfigKey,
  type RewardsOverviewRow,
  type WalletOverview,
  Decimal,
  dropsToXrp,
  ADMIN_FEE_OVERRIDE_LIST_CAP,
  groupDigits,
} from '@ledgerpad/shared';
import { isValidClassicAddress, type Client } from 'xrpl';
import type { Db } from '../../db/client';
import { platformSettings } from '../../db/schema';
import { badRequest, forbidden } from '../../lib/errors';
import { PLATFORM_ROLES, rlusdIssuer } from '../../platform/accounts';
import { wallets } from '../../platform/custody-schema';
import { platformWallet } from '../../platform/custody';
import { applyShare, type PlatformSettings, type SettingKey } from '../../platform/settings';
import type { Config } from '../../config';
import { tokens } from '../tokens/schema';
import { users } from '../users/schema';
import { adminAudit, admins } from './schema';
import { addAdmin, recordAdminAudit, removeAdmin } from './service';

/** The curve supply, grouped as the setting refusals write it. */
const CURVE_SUPPLY_TEXT = groupDigits(BONDING_CURVE_SUPPLY.toString());

// The admin panel's server side (spec 001 §7): every write is validated, applied and written to the
// append-only audit trail in one database transaction, with the value before and after.

export interface AdminPanelDeps {
  db: Db;
  settings: PlatformSettings;
  client: Client | undefined;
  network: Config['XRPL_NETWORK'];
}

const XRP_SETTINGS: PlatformConfigKey[] = [
  'service_fee',
  'issuer_reserve',
  'hot_wallet_reserve',
  'airdrop_fee_xrp',
];
const RESERVE_SETTINGS: PlatformConfigKey[] = ['issuer_reserve', 'hot_wallet_reserve'];
/** Sane upper bounds (XRP): a typo of a few zeros must not price every deploy out of reach. */
const XRP_SETTING_MAX: Partial<Record<PlatformConfigKey, string>> = {
  service_fee: '10000',
  issuer_reserve: '1000',
  hot_wallet_reserve: '1000',
  airdrop_fee_xrp: '1000',
};

export class AdminPanel {
  constructor(private readonly deps: AdminPanelDeps) {}

  private audit(
    tx: Db,
    adminUserId: number,
    action: string,
    target: string | null,
    before: unknown,
    after: unknown,
    txHash: string | null = null,
  ) {
    return recordAdminAudit(tx, { adminUserId, action, target, before, after, txHash });
  }

  async feeConfig(): Promise<FeeConfigView> {
    const s = await this.deps.settings.all();
    return {
      fee_percentage: s.trading_fee_percent,
      fee_receiver_wallet: (await platformWallet(this.deps.db, PLATFORM_ROLES.fee))?.address ?? null,
    };
  }

  async updateFeeConfig(adminId: number, b: z.output<typeof feeConfigUpdateSchema>): Promise<FeeConfigView> {
    const before = await this.feeConfig();
    // The receiver is the custodial fee wallet: rewards are paid from what it receives.
    if (b.fee_receiver_wallet !== undefined && b.fee_receiver_wallet !== before.fee_receiver_wallet)
      throw badRequest(ADMIN_MESSAGES.feeReceiverFixed);
    await this.deps.db.transaction(async (tx) => {
      await this.setting(tx as Db, 'trading_fee_percent', b.fee_percentage);
      await this.audit(
        tx as Db,
        adminId,
        'fee-config.update',
        'trading_fee_percent',
        before.fee_percentage,
        b.fee_percentage,
      );
    });
    return this.feeConfig();
  }

  private async setting(tx: Db, key: SettingKey, value: string) {
    await tx
      .insert(platformSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: platformSettings.key, set: { value, updatedAt: new Date() } });
  }

  async platformConfig(): Promise<PlatformConfigEntry[]> {
    const s = await this.deps.settings.all();
    return PLATFORM_CONFIG_KEYS.map((key) => ({ key, value: s[key] }));
  }

  /** The ledger's base reserve in XRP (a reserve setting below it would strand every deploy). */
  private async baseReserveXrp(): Promise<Decimal> {
    if (!this.deps.client) return new Decimal(0);
    const r = await this.deps.client.request({ command: 'server_info' });
    const v = r.result.info.validated_ledger?.reserve_base_xrp;
    return new Decimal(v ?? 0);
  }

  private async checkSetting(key: PlatformConfigKey, value: string): Promise<string> {
    const v = value.trim();
    if (XRP_SETTINGS.includes(key)) {
      if (!/^\d+(\.\d{1,6})?$/.test(v))
        throw badRequest(`${key} must be an XRP amount with at most 6 decimals.`);
      const max = XRP_SETTING_MAX[key];
      if (max && new Decimal(v).gt(max)) throw badRequest(`${key} must be at most ${max} XRP.`);
      if (RESERVE_SETTINGS.includes(key)) {
        const base = await this.baseReserveXrp();
        if (new Decimal(v).lt(base))
          throw badRequest(`${key} must be at least the ledger's reserve of ${base.toFixed()} XRP.`);
      }
      return v;
    }
    if (key === 'service_fee_destination') {
      if (v !== '' && !isValidClassicAddress(v))
        throw badRequest(
          'service_fee_destination must be an XRP Ledger address, or empty for the fee wallet.',
        );
      return v;
    }
    const bonding = checkBondingSetting(key, v);
    if (bonding !== undefined) return bonding;
    if (key === 'referral_share_percent') {
      if (!/^\d{1,3}(\.\d{1,2})?$/.test(v) || new Decimal(v).gt(REFERRAL_SHARE_MAX_PERCENT))
        throw badRequest(
          `referral_share_percent must be a percent from 0 to ${REFERRAL_SHARE_MAX_PERCENT} with at most 2 decimals.`,
        );
      return v;
    }
    if (key === 'referral_months') {
      if (!/^\d{1,3}$/.test(v) || Number(v) < REFERRAL_MONTHS_MIN || Number(v) > REFERRAL_MONTHS_MAX)
        throw badRequest(
          `referral_months must be a whole number from ${REFERRAL_MONTHS_MIN} to ${REFERRAL_MONTHS_MAX}.`,
        );
      return v;
    }
    // creator_reward_share: 'a/b' or a decimal, between 0 and 1.
    const m = /^(\d+)\/(\d+)$/.exec(v);
    const share = m
      ? m[2] === '0'
        ? null
        : new Decimal(m[1]!).div(m[2]!)
      : /^\d+(\.\d+)?$/.test(v)
        ? new Decimal(v)
        : null;
    if (!share || share.gt(1))
      throw badRequest("creator_reward_share must be a fraction 'a/b' or a decimal from 0 to 1.");
    return v;
  }

  async updatePlatformConfig(
    adminId: number,
    b: z.output<typeof platformConfigUpdateSchema>,
  ): Promise<PlatformConfigEntry[]> {
    const entries =
      'key' in b
        ? [[b.key, b.value] as const]
        : (Object.entries(b.settings) as Array<[PlatformConfigKey, string]>);
    if (entries.length === 0) throw badRequest('Nothing to save.');
    const checked: Array<[PlatformConfigKey, string]> = [];
    for (const [key, value] of entries) checked.push([key, await this.checkSetting(key, value)]);
    const before = await this.deps.settings.all();
    // The creator's and the referrer's shares both come out of the same fee: together at most all of it.
    const after = { ...before, ...Object.fromEntries(checked) };
    const shares = applyShare(1, after.creator_reward_share).plus(
      new Decimal(after.referral_share_percent).div(100),
    );
    if (shares.gt(1))
      throw badRequest(
        'creator_reward_share and referral_share_percent together must not exceed 100% of the trading fee.',
      );
    await this.deps.db.transaction(async (tx) => {
      for (const [key, value] of checked) {
        await this.setting(tx as Db, key, value);
        await this.audit(tx as Db, adminId, 'platform-config.update', key, before[key], value);
      }
    });
    return this.platformConfig();
  }

  async admins(): Promise<AdminView[]> {
    const rows = await this.deps.db
      .select({
        userId: admins.userId,
        username: users.username,
        email: users.email,
        createdAt: admins.createdAt,
      })
      .from(admins)
      .leftJoin(users, eq(users.id, admins.userId))
      .orderBy(asc(admins.userId));
    return rows.map((r) => ({
      user_id: r.userId,
      username: r.username,
      email: r.email,
      created_at: r.createdAt.toISOString(),
    }));
  }

  async addAdmin(adminId: number, { userId }: z.output<typeof adminUserSchema>): Promise<AdminView[]> {
    const [user] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!user) throw badRequest(ADMIN_MESSAGES.validUserId);
    return this.setAdmin(adminId, userId, true);
  }

  async removeAdmin(adminId: number, { userId }: z.output<typeof adminUserSchema>): Promise<AdminView[]> {
    if (userId === OWNER_USER_ID) throw forbidden(ADMIN_MESSAGES.ownerLocked);
    return this.setAdmin(adminId, userId, false);
  }

  /** Makes `userId` an admin or not, with its audit row (was / is) in the same transaction. */
  private async setAdmin(adminId: number, userId: number, admin: boolean): Promise<AdminView[]> {
    await this.deps.db.transaction(async (tx) => {
      const [was] = await tx.select().from(admins).where(eq(admins.userId, userId));
      if (admin) await addAdmin(tx as Db, userId, adminId);
      else await removeAdmin(tx as Db, userId);
      const action = admin ? 'admins.add' : 'admins.remove';
      await this.audit(tx as Db, adminId, action, String(userId), { admin: Boolean(was) }, { admin });
    });
    return this.admins();
  }

  /** Users by name, email, messenger id or user id (at most 100), with their fee override. */
  async feeOverrides(search: string | undefined): Promise<FeeOverrideView[]> {
    const q = (search ?? '').trim();
    const asUserId = parseId(q);
    const where = q
      ? or(
          ilike(users.username, `%${q.replace(/[%_\\]/g, '\\$&')}%`),
          ilike(users.email, `%${q.replace(/[%_\\]/g, '\\$&')}%`),
          // A number is also a user id (when it can be one: users.id is an int4, and a number past
          // it made PostgreSQL fail the whole search) or a messenger id (int8; 15 digits fit).
          ...(asUserId !== undefined ? [eq(users.id, asUserId)] : []),
          ...(/^[1-9]\d{0,14}$/.test(q) ? [eq(users.telegramId, Number(q))] : []),
        )
      : undefined;
    const rows = await this.deps.db
      .select()
      .from(users)
      .where(where)
      .orderBy(sql`${users.customFeePercentage} is null`, asc(users.id))
      .limit(ADMIN_FEE_OVERRIDE_LIST_CAP);
    return rows.map((u) => ({
      id: u.id,
      username: u.username ?? u.demoUsername,
      email: u.email,
      telegram_id: u.telegramId,
      custom_fee_percentage: u.customFeePercentage,
    }));
  }

  async updateFeeOverride(
    adminId: number,
    b: z.output<typeof feeOverrideUpdateSchema>,
  ): Promise<FeeOverrideView> {
    const [user] = await this.deps.db.select().from(users).where(eq(users.id, b.userId));
    if (!user) throw badRequest(ADMIN_MESSAGES.validUserId);
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ customFeePercentage: b.custom_fee_percentage })
        .where(eq(users.id, b.userId));
      await this.audit(
        tx as Db,
        adminId,
        'fee-overrides.update',
        String(b.userId),
        user.customFeePercentage,
        b.custom_fee_percentage,
      );
    });
    return (await this.feeOverrides(String(b.userId))).find((u) => u.id === b.userId)!;
  }

  async rewardsOverview(): Promise<RewardsOverviewRow[]> {
    const rows = await this.deps.db
      .select()
      .from(tokens)
      .orderBy(desc(sql`${tokens.totalReward}::numeric`), asc(tokens.id));
    return rows.map((t) => ({
      token_id: t.id,
      ticker: t.ticker,
      issuer_address: t.issuerAddress,
      total_reward: t.totalReward,
      total_claimed: t.totalClaimed,
      reward_currency: t.rewardCurrency,
    }));
  }

  private async xrpBalance(address: string | undefined): Promise<string> {
    if (!address || !this.deps.client) return '0';
    try {
      const r = await this.deps.client.request({
        command: 'account_info',
        account: address,
        ledger_index: 'validated',
      });
      return dropsToXrp(r.result.account_data.Balance);
    } catch {
      return '0';
    }
  }

  async walletOverview(): Promise<WalletOverview> {
    const fee = await platformWallet(this.deps.db, PLATFORM_ROLES.fee);
    const service = await platformWallet(this.deps.db, PLATFORM_ROLES.service);
    const unclaimed = async (currency: string) => {
      const [r] = await this.deps.db
        .select({
          sum: sql<string>`coalesce(sum(${tokens.totalReward}::numeric - ${tokens.totalClaimed}::numeric), 0)::text`,
        })
        .from(tokens)
        .where(eq(tokens.rewardCurrency, currency));
      return new Decimal(r?.sum ?? 0).toFixed();
    };
    let rlusdBalance = '0';
    const rlusd = await rlusdIssuer(this.deps.db, this.deps.network);
    if (fee && rlusd && this.deps.client) {
      try {
        const r = await this.deps.client.request({
          command: 'account_lines',
          account: fee.address,
          peer: rlusd,
          ledger_index: 'validated',
        });
        rlusdBalance = r.result.lines.find((l) => l.currency === RLUSD_CURRENCY_HEX)?.balance ?? '0';
      } catch {
        rlusdBalance = '0';
      }
    }
    return {
      fee_wallet: {
        address: fee?.address ?? null,
        balance: await this.xrpBalance(fee?.address),
        unclaimed_reserves: await unclaimed('XRP'),
        rlusd_balance: rlusdBalance,
        unclaimed_rlusd: await unclaimed('RLUSD'),
      },
      service_wallet: { address: service?.address ?? null, balance: await this.xrpBalance(service?.address) },
    };
  }

  /**
   * The custodial wallets, users' (one page: they grow with the users) and the platform's (a
   * handful, always whole): addresses and roles, never secrets; and how many users' wallets in all.
   */
  async allWallets(
    page: { limit: number; offset: number } = { limit: ADMIN_WALLETS_PAGE.default, offset: 0 },
  ): Promise<{ user_wallets: AdminWalletRow[]; platform_wallets: AdminWalletRow[]; total: number }> {
    const columns = {
      id: wallets.id,
      userId: wallets.userId,
      role: wallets.role,
      address: wallets.address,
      name: wallets.name,
      createdAt: wallets.createdAt,
    };
    const live = isNull(wallets.archivedAt);
    const [users, platform, [counted]] = await Promise.all([
      this.deps.db
        .select(columns)
        .from(wallets)
        .where(and(live, isNotNull(wallets.userId)))
        .orderBy(asc(wallets.id))
        .limit(page.limit)
        .offset(page.offset),
      this.deps.db
        .select(columns)
        .from(wallets)
        .where(and(live, isNull(wallets.userId)))
        .orderBy(asc(wallets.id)),
      this.deps.db
        .select({ n: count() })
        .from(wallets)
        .where(and(live, isNotNull(wallets.userId))),
    ]);
    const view = (r: (typeof users)[number]): AdminWalletRow => ({
      id: r.id,
      user_id: r.userId,
      role: r.role,
      address: r.address,
      name: r.name,
      created_at: r.createdAt.toISOString(),
    });
    return {
      user_wallets: users.map(view),
      platform_wallets: platform.map(view),
      total: Number(counted?.n ?? 0),
    };
  }

  async auditPage(pageParam: unknown): Promise<AuditPage> {
    const page = /^\d{1,6}$/.test(String(pageParam ?? '1')) ? Math.max(1, Number(pageParam ?? 1)) : 1;
    const [total] = await this.deps.db.select({ n: count() }).from(adminAudit);
    const rows = await this.deps.db
      .select()
      .from(adminAudit)
      .orderBy(desc(adminAudit.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((page - 1) * AUDIT_PAGE_SIZE);
    return {
      page,
      pageCount: Math.max(1, Math.ceil((total?.n ?? 0) / AUDIT_PAGE_SIZE)),
      entries: rows.map((r) => ({
        id: r.id,
        admin_user_id: r.adminUserId,
        action: r.action,
        target: r.target,
        before: r.before,
        after: r.after,
        tx_hash: r.txHash,
        created_at: r.createdAt.toISOString(),
      })),
    };
  }
}

/** The curve-launch settings (undefined for any other key): a clear 400 for a value the curve can't use. */
function checkBondingSetting(key: PlatformConfigKey, v: string): string | undefined {
  const whole = (min: number, max: number) => {
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
      throw badRequest(`${key} must be a whole number from ${min} to ${max}.`);
    return v;
  };
  switch (key) {
    case 'bonding_virtual_xrp':
    case 'bonding_virtual_rlusd':
      if (!/^\d+(\.\d{1,6})?$/.test(v) || new Decimal(v).lt(1) || new Decimal(v).gt(1e9))
        throw badRequest(`${key} must be an amount from 1 to 1,000,000,000 with at most 6 decimals.`);
      return v;
    case 'bonding_steps':
      if (!/^\d+$/.test(v) || !isValidStepCount(Number(v)))
        throw badRequest(
          `bonding_steps must divide ${CURVE_SUPPLY_TEXT} and be from 10 to 10,000 (e.g. 100, 200, 500, 1000).`,
        );
      return v;
    case 'bonding_fine_steps':
      return whole(1, 64);
    case 'bonding_snipe_ledgers':
      return whole(0, 1000);
    case 'bonding_snipe_tokens':
      if (
        !/^\d+(\.\d{1,6})?$/.test(v) ||
        new Decimal(v).lte(0) ||
        new Decimal(v).gt(BONDING_CURVE_SUPPLY.toString())
      )
        throw badRequest(
          `bonding_snipe_tokens must be a positive amount of at most ${CURVE_SUPPLY_TEXT} tokens.`,
        );
      return v;
    case 'anti_sniper_start_percent':
      if (!/^\d+(\.\d{1,2})?$/.test(v) || new Decimal(v).gt(50))
        throw badRequest('anti_sniper_start_percent must be a percent from 0 to 50 with at most 2 decimals.');
      return v;
    case 'anti_sniper_window_seconds':
      if (!/^\d+$/.test(v) || Number(v) > 600)
        throw badRequest(
          'anti_sniper_window_seconds must be a whole number of seconds from 0 to 600 (10 minutes).',
        );
      return v;
    default:
      return undefined;
  }
}

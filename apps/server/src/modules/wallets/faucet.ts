import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
import { RLUSD_CURRENCY_HEX, Decimal, dropsToXrp, xrpToDrops } from '@ledgerpad/shared';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import { badRequest, notFound, rateLimited, serviceDisabled } from '../../lib/errors';
import type { XrplConnection } from '../../ledger/connection';
import type { SubmissionService } from '../../ledger/submission-service';
import { PLATFORM_ROLES, recordGenesis } from '../../platform/accounts';
import type { Quotas } from '../../platform/quotas';
import { users } from '../users/schema';
import { platformWallet, type WalletRow } from '../../platform/custody';
import type { Wallet } from 'xrpl';
import { faucetGrants } from './schema';
import type { WalletService } from './service';

// Test money. Stand-alone: XRP from the genesis account and RLUSD from the bootstrapped issuer, both
// as ordinary recorded transactions. Testnet: the public faucet. Mainnet: no route at all.

export interface FaucetDeps {
  db: Db;
  keyring: Keyring;
  connection: XrplConnection;
  submissions: SubmissionService;
  wallets: WalletService;
  config: Config;
  /** Resolves when the stand-alone platform accounts (RLUSD issuer) exist. */
  bootstrapped: () => Promise<unknown>;
  /** The per-address limit (a visitor making new users must not multiply the payouts). */
  quotas: Quotas;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

type Asset = 'xrp' | 'rlusd';

const tooSoon = (retryAfterMs: number, why: string) => {
  const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return rateLimited(`Too Many Requests: ${why} Try again in ${retryAfter} s.`, {
    retryAfter,
  });
};

export class Faucet {
  constructor(private readonly deps: FaucetDeps) {}

  /**
   * Records a payout before it is made, within the limits: each wallet once a minute per asset, each
   * user FAUCET_PER_USER_PER_HOUR times an hour per asset. The user's row is locked for the check,
   * so parallel requests can't slip past together; the limits hold across instances.
   */
  private async grant(userId: number, walletId: number, asset: Asset): Promise<number> {
    const now = Date.now();
    const perHour = this.deps.config.FAUCET_PER_USER_PER_HOUR;
    return this.deps.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      const recent = await tx
        .select({ walletId: faucetGrants.walletId, createdAt: faucetGrants.createdAt })
        .from(faucetGrants)
        .where(
          and(
            eq(faucetGrants.userId, userId),
            eq(faucetGrants.asset, asset),
            gt(faucetGrants.createdAt, new Date(now - HOUR_MS)),
          ),
        )
        .orderBy(asc(faucetGrants.createdAt));
      const lastForWallet = recent.filter((g) => g.walletId === walletId).at(-1);
      if (lastForWallet && now - lastForWallet.createdAt.getTime() < MINUTE_MS) {
        throw tooSoon(
          lastForWallet.createdAt.getTime() + MINUTE_MS - now,
          'this wallet was funded less than a minute ago.',
        );
      }
      if (recent.length >= perHour) {
        const oldest = recent[recent.length - perHour]!.createdAt.getTime();
        throw tooSoon(oldest + HOUR_MS - now, `the faucet pays at most ${perHour} times an hour per user.`);
      }
      const [row] = await tx
        .insert(faucetGrants)
        .values({ userId, walletId, asset, createdAt: new Date(now) })
        .returning({ id: faucetGrants.id });
      return row!.id;
    });
  }

  /**
   * A payout that did not happen does not count against the limits. The client address has its
   * own hourly limit, so new users made from one address don't multiply the payouts.
   */
  private async withGrant<T>(
    userId: number,
    walletId: number,
    asset: Asset,
    ip: string,
    pay: () => Promise<T>,
  ): Promise<T> {
    const perIp = this.deps.config.FAUCET_PER_IP_PER_HOUR;
    const ipRule = {
      bucket: `faucet_ip:${asset}`,
      limit: perIp,
      windowMs: HOUR_MS,
      message: `the faucet pays at most ${perIp} times an hour per address.`,
    };
    return this.deps.quotas.within(ipRule, ip, 1, async () => {
      const id = await this.grant(userId, walletId, asset);
      try {
        return await pay();
      } catch (err) {
        await this.deps.db.delete(faucetGrants).where(eq(faucetGrants.id, id));
        throw err;
      }
    });
  }

  fundXrp(
    userId: number,
    row: WalletRow,
    ip: string,
  ): Promise<{ success: true; amount: string; hash?: string }> {
    return this.withGrant(userId, row.id, 'xrp', ip, () => this.payXrp(userId, row));
  }

  fundRlusd(
    userId: number,
    row: WalletRow,
    ip: string,
  ): Promise<{ success: true; amount: string; hash: string }> {
    return this.withGrant(userId, row.id, 'rlusd', ip, () => this.payRlusd(userId, row));
  }

  private async payXrp(
    userId: number,
    row: WalletRow,
  ): Promise<{ success: true; amount: string; hash?: string }> {
    const { config } = this.deps;
    if (config.XRPL_NETWORK === 'testnet') {
      // The public faucet pays to the address; fundWallet reads nothing else of the wallet (a
      // self-custody wallet has no key here to open at all).
      const res = await this.deps.connection.client.fundWallet({ classicAddress: row.address } as Wallet);
      return { success: true, amount: String(res.balance) };
    }
    if (config.XRPL_NETWORK !== 'standalone') throw notFound('No faucet on this network');
    const genesis =
      (await platformWallet(this.deps.db, PLATFORM_ROLES.genesis)) ??
      (await recordGenesis(this.deps.db, this.deps.keyring));
    const drops = xrpToDrops(config.FAUCET_XRP);
    const out = await this.deps.submissions.submit({
      intentKey: `faucet:xrp:${row.id}:${randomUUID()}`,
      account: genesis.address,
      tx: { TransactionType: 'Payment', Destination: row.address, Amount: drops.toString() },
      purpose: 'faucet',
      userId,
      walletId: row.id,
    });
    if (out.status !== 'success') throw badRequest(`Faucet payment failed (${out.result})`);
    return { success: true, amount: dropsToXrp(drops), hash: out.hash };
  }

  private async payRlusd(
    userId: number,
    row: WalletRow,
  ): Promise<{ success: true; amount: string; hash: string }> {
    await this.deps.bootstrapped();
    const issuer = await platformWallet(this.deps.db, PLATFORM_ROLES.rlusdIssuer);
    if (!issuer) throw serviceDisabled('RLUSD is not set up on this network yet');
    const amount = new Decimal(this.deps.config.FAUCET_RLUSD).toFixed();
    const lines = await this.deps.wallets.lines(row.address, issuer.address);
    if (!lines.some((l) => l.currency === RLUSD_CURRENCY_HEX)) {
      const trust = await this.deps.submissions.submit({
        intentKey: `faucet:rlusd-trust:${row.id}:${randomUUID()}`,
        account: row.address,
        tx: {
          TransactionType: 'TrustSet',
          LimitAmount: { currency: RLUSD_CURRENCY_HEX, issuer: issuer.address, value: '1000000000' },
        },
        purpose: 'faucet',
        userId,
        walletId: row.id,
      });
      if (trust.status !== 'success') {
        throw badRequest(`Could not open an RLUSD trust line (${trust.result})`);
      }
    }
    const out = await this.deps.submissions.submit({
      intentKey: `faucet:rlusd:${row.id}:${randomUUID()}`,
      account: issuer.address,
      tx: {
        TransactionType: 'Payment',
        Destination: row.address,
        Amount: { currency: RLUSD_CURRENCY_HEX, issuer: issuer.address, value: amount },
      },
      purpose: 'faucet',
      userId,
      walletId: row.id,
    });
    if (out.status !== 'success') throw badRequest(`RLUSD faucet payment failed (${out.result})`);
    return { success: true, amount, hash: out.hash };
  }
}

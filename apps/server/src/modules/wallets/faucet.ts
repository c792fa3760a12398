import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
import { RLUSD_CURRENCY_HEX, Decimal, dropsToXrp, xrpToDrops, type FaucetResult } from '@ledgerpad/shared';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Keyring } from '../../keys/envelope';
import { badRequest, notFound, rateLimited, serviceDisabled } from '../../lib/errors';
import type { XrplConnection } from '../../ledger/connection';
import type { SubmissionOutcome, SubmissionService } from '../../ledger/submission-service';
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
  private async grant(
    userId: number,
    walletId: number,
    asset: Asset,
    requestKey: string | undefined,
  ): Promise<number> {
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
        .values({ userId, walletId, asset, requestKey: requestKey ?? null, createdAt: new Date(now) })
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
    requestKey: string | undefined,
    pay: () => Promise<T>,
  ): Promise<T> {
    // A retry of a payout whose first attempt took its grant (then was cut before it paid): pays
    // under that grant. Checked again, the first attempt's grant would read as "funded less than a
    // minute ago".
    const [granted] = requestKey
      ? await this.deps.db
          .select({ id: faucetGrants.id })
          .from(faucetGrants)
          .where(
            and(
              eq(faucetGrants.userId, userId),
              eq(faucetGrants.walletId, walletId),
              eq(faucetGrants.asset, asset),
              eq(faucetGrants.requestKey, requestKey),
              gt(faucetGrants.createdAt, new Date(Date.now() - HOUR_MS)),
            ),
          )
      : [];
    if (granted) return pay();
    const perIp = this.deps.config.FAUCET_PER_IP_PER_HOUR;
    const ipRule = {
      bucket: `faucet_ip:${asset}`,
      limit: perIp,
      windowMs: HOUR_MS,
      message: `the faucet pays at most ${perIp} times an hour per address.`,
    };
    return this.deps.quotas.within(ipRule, ip, 1, async () => {
      const id = await this.grant(userId, walletId, asset, requestKey);
      try {
        return await pay();
      } catch (err) {
        await this.deps.db.delete(faucetGrants).where(eq(faucetGrants.id, id));
        throw err;
      }
    });
  }

  /**
   * Pays the faucet's XRP. With an Idempotency-Key the payment's intent is named by it: a retry
   * answers with the payment its first attempt made, before any limit is counted again.
   */
  async fundXrp(userId: number, row: WalletRow, ip: string, requestKey?: string): Promise<FaucetResult> {
    const intent = `faucet:xrp:${row.id}:${requestKey ?? randomUUID()}`;
    const done = requestKey ? await this.deps.submissions.existing(intent) : undefined;
    if (done)
      return this.paid(done, dropsToXrp(xrpToDrops(this.deps.config.FAUCET_XRP)), 'Faucet payment failed');
    return this.withGrant(userId, row.id, 'xrp', ip, requestKey, () => this.payXrp(userId, row, intent));
  }

  async fundRlusd(
    userId: number,
    row: WalletRow,
    ip: string,
    requestKey?: string,
  ): Promise<FaucetResult & { hash: string }> {
    const key = requestKey ?? randomUUID();
    const done = requestKey
      ? await this.deps.submissions.existing(`faucet:rlusd:${row.id}:${key}`)
      : undefined;
    if (done)
      return this.paid(
        done,
        new Decimal(this.deps.config.FAUCET_RLUSD).toFixed(),
        'RLUSD faucet payment failed',
      );
    return this.withGrant(userId, row.id, 'rlusd', ip, requestKey, () => this.payRlusd(userId, row, key));
  }

  private paid(
    out: SubmissionOutcome,
    amount: string,
    failed: string,
  ): { success: true; amount: string; hash: string } {
    if (out.status !== 'success') throw badRequest(`${failed} (${out.result})`);
    return { success: true, amount, hash: out.hash };
  }

  private async payXrp(userId: number, row: WalletRow, intentKey: string): Promise<FaucetResult> {
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
      intentKey,
      account: genesis.address,
      tx: { TransactionType: 'Payment', Destination: row.address, Amount: drops.toString() },
      purpose: 'faucet',
      userId,
      walletId: row.id,
    });
    return this.paid(out, dropsToXrp(drops), 'Faucet payment failed');
  }

  private async payRlusd(
    userId: number,
    row: WalletRow,
    key: string,
  ): Promise<FaucetResult & { hash: string }> {
    await this.deps.bootstrapped();
    const issuer = await platformWallet(this.deps.db, PLATFORM_ROLES.rlusdIssuer);
    if (!issuer) throw serviceDisabled('RLUSD is not set up on this network yet');
    const amount = new Decimal(this.deps.config.FAUCET_RLUSD).toFixed();
    const lines = await this.deps.wallets.lines(row.address, issuer.address);
    if (!lines.some((l) => l.currency === RLUSD_CURRENCY_HEX)) {
      const trust = await this.deps.submissions.submit({
        intentKey: `faucet:rlusd-trust:${row.id}:${key}`,
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
      intentKey: `faucet:rlusd:${row.id}:${key}`,
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
    return this.paid(out, amount, 'RLUSD faucet payment failed');
  }
}

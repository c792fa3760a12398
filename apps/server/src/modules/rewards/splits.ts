import type { z } from 'zod';
import { asc, desc, eq } from 'drizzle-orm';
import {
  Decimal,
  REWARD_SPLIT_MESSAGES,
  type RewardSplitChange,
  type RewardSplitRecipient,
  type rewardSplitUpdateSchema,
  type RewardSplitView,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import type { TokenRegistry, TokenRow } from '../tokens';
import { tokens } from '../tokens/schema';
import type { WalletsApi } from '../wallets';
import type { FeeWalletPayments, RewardCurrency } from './fee-wallet-payment';
import { rewardSplitEvents, rewardSplits } from './schema';

// A creator's reward split (issue 37): up to 5 addresses, each with its share in basis points, set
// as a whole by the token's creator. Every change is one row of the token's public, append-only split
// history. The split decides how each later claim is paid (docs/rewards.md "Splits").

/** The creator of a token, the one user who earns, claims and splits its rewards: its deployer here. */
export function isCreator(token: Pick<TokenRow, 'source' | 'deployerUserId'>, userId: number): boolean {
  return token.source === 'deploy' && token.deployerUserId !== null && token.deployerUserId === userId;
}

/** What a token's rewards are paid in (before the first accrual the pair says it). */
export function rewardCurrencyOf(
  token: Pick<TokenRow, 'rewardCurrency' | 'liquidityPair' | 'totalReward'>,
): RewardCurrency {
  return (new Decimal(token.totalReward).gt(0) ? token.rewardCurrency : token.liquidityPair) === 'RLUSD'
    ? 'RLUSD'
    : 'XRP';
}

/** The split's recipients, in order (position 0 first); empty when the token has none. */
export async function splitOf(db: Db, tokenId: number): Promise<RewardSplitRecipient[]> {
  const rows = await db
    .select({ address: rewardSplits.address, bps: rewardSplits.bps })
    .from(rewardSplits)
    .where(eq(rewardSplits.tokenId, tokenId))
    .orderBy(asc(rewardSplits.position));
  return rows;
}

/** The public history shows the last this many changes of a split. */
const HISTORY_SHOWN = 100;

export class RewardSplits {
  constructor(
    private readonly deps: {
      db: Db;
      tokens: TokenRegistry;
      wallets: WalletsApi;
      payments: FeeWalletPayments;
    },
  ) {}

  /** GET /api/rewards/splits/:tokenId: public, like the ledger payments it leads to. */
  async view(tokenId: number): Promise<RewardSplitView> {
    const token = await this.deps.tokens.byId(tokenId);
    if (!token || !token.isActive) throw notFound('Token not found');
    const events = await this.deps.db
      .select()
      .from(rewardSplitEvents)
      .where(eq(rewardSplitEvents.tokenId, tokenId))
      .orderBy(desc(rewardSplitEvents.id))
      .limit(HISTORY_SHOWN);
    const history: RewardSplitChange[] = events.map((e) => ({
      at: e.createdAt.toISOString(),
      before: e.before as RewardSplitRecipient[],
      after: e.after as RewardSplitRecipient[],
    }));
    return { token_id: tokenId, recipients: await splitOf(this.deps.db, tokenId), history };
  }

  /**
   * POST /api/rewards/splits/:tokenId: replaces the split (an empty list removes it). Only the
   * creator; every address one of the creator's own wallets or an account on the validated ledger,
   * and able to receive the token's reward currency. The rows and the history row are written in one
   * transaction that holds the token's row, so a claim reserving at the same time sees either the
   * old split or the new one, never a mix.
   */
  async set(userId: number, tokenId: number, body: z.output<typeof rewardSplitUpdateSchema>) {
    const token = await this.deps.tokens.byId(tokenId);
    if (!token) throw notFound('Token not found');
    if (!isCreator(token, userId)) throw forbidden(REWARD_SPLIT_MESSAGES.notCreator);
    const currency = rewardCurrencyOf(token);
    const own = new Set((await this.deps.wallets.list(userId)).map((w) => w.address));
    for (const r of body.recipients) {
      const check = await this.deps.payments.receiveCheck(r.address, currency, { accountFlags: true });
      if (!check.activated && !own.has(r.address))
        throw badRequest(REWARD_SPLIT_MESSAGES.unknownAccount(r.address), { address: r.address });
      if (check.problem)
        throw badRequest(REWARD_SPLIT_MESSAGES.cannotReceive(r.address, check.problem.sentence), {
          address: r.address,
        });
    }
    const after = body.recipients.map((r) => ({ address: r.address, bps: r.bps }));
    await this.deps.db.transaction(async (tx) => {
      await tx.select({ id: tokens.id }).from(tokens).where(eq(tokens.id, tokenId)).for('update');
      const before = await splitOf(tx as unknown as Db, tokenId);
      if (JSON.stringify(before) === JSON.stringify(after)) return;
      await tx.delete(rewardSplits).where(eq(rewardSplits.tokenId, tokenId));
      if (after.length > 0)
        await tx
          .insert(rewardSplits)
          .values(after.map((r, position) => ({ tokenId, position, address: r.address, bps: r.bps })));
      await tx.insert(rewardSplitEvents).values({ tokenId, userId, before, after });
    });
    return this.view(tokenId);
  }
}

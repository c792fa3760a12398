import { z } from 'zod';
import {
  claimRewardsResultSchema,
  claimRewardsSchema,
  idSchema,
  rewardClaimTotalSchema,
  rewardPayoutViewSchema,
  rewardSplitUpdateSchema,
  rewardSplitViewSchema,
  rewardSummaryRowSchema,
} from '@ledgerpad/shared';
import type { FastifyInstance } from 'fastify';
import {
  USER_LIST_PAGE,
  type ClaimRewardsResult,
  type RewardClaimTotal,
  type RewardPayoutView,
  type RewardSplitView,
  type RewardSummaryRow,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { declared } from '../../plugins/access';
import { idParam, idempotencyKey } from '../../plugins/edge';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { FeeWalletPayments } from './fee-wallet-payment';
import { registerRewardClaimJob } from './job';
import { RewardsService } from './service';
import { RewardSplits } from './splits';
import { parseInput } from '../../lib/validation';

/**
 * Creator rewards (spec 001 §7 "Dashboard and rewards"): GET /api/rewards/summary,
 * GET /api/rewards/claim-totals and POST /api/claim-rewards, all for the signed-in user's own tokens;
 * the reward split (issue 37): GET (public) and POST /api/rewards/splits/:tokenId, and the payout
 * history GET /api/rewards/payouts?token_id=.
 */
export function registerRewards(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; wallets: WalletsApi; payments: FeeWalletPayments },
): RewardsService {
  const { platform, payments } = deps;
  platform.logWrites({ 'reward-claim': 'reward claim' });
  const db = platform.database.db;
  if (payments.canPay) registerRewardClaimJob({ db, jobs: platform.jobs, payments });
  const service = new RewardsService({
    db,
    jobs: platform.jobs,
    tokens: deps.tokens,
    wallets: deps.wallets,
    payments,
  });
  const splits = new RewardSplits({ db, tokens: deps.tokens, wallets: deps.wallets, payments });
  const noStore = { 'cache-control': 'private, no-store' };

  app.get(
    '/api/rewards/summary',
    declared('user', {
      summary: 'What you earn on each token you created.',
      response: z.array(rewardSummaryRowSchema),
      paged: true,
    }),
    async (request, reply): Promise<RewardSummaryRow[]> => {
      reply.headers(noStore);
      // Paged like every list (docs/paging.md): one row per token the user earns on.
      const page = pageOf(request, USER_LIST_PAGE);
      return pageSlice(request, reply, page, await service.summary(request.user!.id));
    },
  );
  app.get(
    '/api/rewards/claim-totals',
    declared('user', {
      summary: 'What you have claimed of each of your tokens.',
      response: z.array(rewardClaimTotalSchema),
      paged: true,
    }),
    async (request, reply): Promise<RewardClaimTotal[]> => {
      reply.headers(noStore);
      const page = pageOf(request, USER_LIST_PAGE);
      return pageSlice(request, reply, page, await service.claimTotals(request.user!.id));
    },
  );
  app.post(
    '/api/claim-rewards',
    declared('user', {
      summary: "Claim a share of a token's unclaimed reward (to a wallet of yours, or to its split).",
      body: claimRewardsSchema,
      response: claimRewardsResultSchema,
    }),
    (request): Promise<ClaimRewardsResult> =>
      service.claim(request.user!.id, parseInput(claimRewardsSchema, request.body), idempotencyKey(request)),
  );

  // A token's reward split: public (where its rewards go is as public as the payments on the ledger),
  // changed only by its creator.
  app.get(
    '/api/rewards/splits/:tokenId',
    declared('public', {
      summary: "A token's reward split and its history.",
      response: rewardSplitViewSchema,
    }),
    async (request): Promise<RewardSplitView> => splits.view(idParam(request, 'tokenId')),
  );
  app.post(
    '/api/rewards/splits/:tokenId',
    declared('user', {
      summary: "Set (or, with no recipients, remove) your token's reward split.",
      body: rewardSplitUpdateSchema,
      response: rewardSplitViewSchema,
    }),
    async (request): Promise<RewardSplitView> =>
      splits.set(
        request.user!.id,
        idParam(request, 'tokenId'),
        parseInput(rewardSplitUpdateSchema, request.body),
      ),
  );
  app.get(
    '/api/rewards/payouts',
    declared('user', {
      summary: "The payments of your claims of a token's rewards.",
      response: z.array(rewardPayoutViewSchema),
      query: [{ name: 'token_id', required: true }],
      paged: true,
    }),
    async (request, reply): Promise<RewardPayoutView[]> => {
      reply.headers(noStore);
      // The one id rule (issue 34): digits as written, 1 to ID_MAX, else a 400 naming token_id.
      const tokenId = parseInput(idSchema('token_id'), (request.query as Record<string, unknown>).token_id);
      const page = pageOf(request, USER_LIST_PAGE);
      return pageSlice(request, reply, page, await service.payouts(request.user!.id, tokenId));
    },
  );
  return service;
}

/** The fee wallet's payments, built once at the composition root for rewards and referrals alike. */
export function createFeeWalletPayments(platform: Platform): FeeWalletPayments {
  const db = platform.database.db;
  return new FeeWalletPayments({
    db,
    client: platform.connection?.client,
    submissions: platform.submissions,
    funds: platform.funds,
    rlusdIssuer: () => rlusdIssuer(db, platform.config.XRPL_NETWORK),
  });
}

import { claimRewardsSchema } from '@ledgerpad/shared';
import type { FastifyInstance } from 'fastify';
import {
  USER_LIST_PAGE,
  type ClaimRewardsResult,
  type RewardClaimTotal,
  type RewardSummaryRow,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import type { Platform } from '../../platform';
import { PLATFORM_ROLES, rlusdIssuer } from '../../platform/accounts';
import { platformWallet } from '../../platform/custody';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { registerRewardClaimJob } from './job';
import { RewardsService } from './service';
import { parseInput } from '../../lib/validation';
import { idempotencyKey } from '../../plugins/edge';

/**
 * Creator rewards (spec 001 §7 "Dashboard and rewards"): GET /api/rewards/summary,
 * GET /api/rewards/claim-totals and POST /api/claim-rewards, all for the signed-in user's own tokens.
 */
export function registerRewards(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; wallets: WalletsApi },
): RewardsService {
  const { platform } = deps;
  const db = platform.database.db;
  const submissions = platform.submissions;
  if (submissions) {
    registerRewardClaimJob({
      db,
      jobs: platform.jobs,
      submissions,
      rlusdIssuer: () => rlusdIssuer(db, platform.config.XRPL_NETWORK),
    });
  }
  const service = new RewardsService({
    db,
    jobs: platform.jobs,
    tokens: deps.tokens,
    wallets: deps.wallets,
    canPay: submissions !== undefined,
    funds: platform.funds,
    feeWallet: async () => (await platformWallet(db, PLATFORM_ROLES.fee))?.address,
    rlusdIssuer: () => rlusdIssuer(db, platform.config.XRPL_NETWORK),
  });
  const user = { config: { access: 'user' as const } };

  app.get('/api/rewards/summary', user, async (request, reply): Promise<RewardSummaryRow[]> => {
    reply.header('cache-control', 'private, no-store');
    // Paged like every list (docs/paging.md): one row per token the user earns on.
    const page = pageOf(request, USER_LIST_PAGE);
    return pageSlice(request, reply, page, await service.summary(request.user!.id));
  });
  app.get('/api/rewards/claim-totals', user, async (request, reply): Promise<RewardClaimTotal[]> => {
    reply.header('cache-control', 'private, no-store');
    const page = pageOf(request, USER_LIST_PAGE);
    return pageSlice(request, reply, page, await service.claimTotals(request.user!.id));
  });
  app.post('/api/claim-rewards', user, (request): Promise<ClaimRewardsResult> =>
    service.claim(request.user!.id, parseInput(claimRewardsSchema, request.body), idempotencyKey(request)),
  );
  return service;
}

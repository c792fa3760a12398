import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  USER_LIST_PAGE,
  referralClaimSchema,
  referralClaimResultSchema,
  referralClaimViewSchema,
  referralEarningViewSchema,
  referralsOverviewSchema,
  referralSummarySchema,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import { declared } from '../../plugins/access';
import { idempotencyKey } from '../../plugins/edge';
import type { FeeWalletPayments } from '../rewards';
import type { WalletsApi } from '../wallets';
import { registerReferralClaimJob } from './job';
import { ReferralBinding, ReferralsService } from './service';

/** The referral binding of a new user's first sign-in, for the auth routes (built before them). */
export function createReferralBinding(platform: Platform): ReferralBinding {
  return new ReferralBinding(platform.settings);
}

/**
 * GET /api/referrals/me (code, link, referred users, earnings), GET /api/referrals/claims and
 * /earnings (history), POST /api/referrals/claim, and the admin's GET /api/admin/referrals. The
 * service's `accrue` is what trading's fee settlement runs for every paid fee.
 */
export function registerReferrals(
  app: FastifyInstance,
  deps: { platform: Platform; wallets: WalletsApi; payments: FeeWalletPayments },
): ReferralsService {
  const { platform, payments } = deps;
  const service = new ReferralsService({
    db: platform.database.db,
    jobs: platform.jobs,
    settings: platform.settings,
    wallets: deps.wallets,
    payments,
  });
  if (payments.canPay)
    registerReferralClaimJob({ db: deps.platform.database.db, jobs: deps.platform.jobs, payments });
  const noStore = { 'cache-control': 'private, no-store' };

  app.get(
    '/api/referrals/me',
    declared('user', {
      summary: 'Your referral code, link, referred users and earnings.',
      response: referralSummarySchema,
    }),
    async (request, reply) => {
      reply.headers(noStore);
      return service.summary(request.user!.id);
    },
  );
  app.get(
    '/api/referrals/claims',
    declared('user', {
      summary: 'Your claims of referral earnings, newest first.',
      response: z.array(referralClaimViewSchema),
      paged: true,
    }),
    async (request, reply) => {
      reply.headers(noStore);
      const page = pageOf(request, USER_LIST_PAGE);
      return pageSlice(request, reply, page, await service.claims(request.user!.id));
    },
  );
  app.get(
    '/api/referrals/earnings',
    declared('user', {
      summary: 'Your share of each referred trade, newest first.',
      response: z.array(referralEarningViewSchema),
      paged: true,
    }),
    async (request, reply) => {
      reply.headers(noStore);
      const page = pageOf(request, USER_LIST_PAGE);
      return pageSlice(request, reply, page, await service.earnings(request.user!.id));
    },
  );
  app.post(
    '/api/referrals/claim',
    declared('user', {
      summary: 'Claim every unclaimed referral earning in one currency to one of your wallets.',
      body: referralClaimSchema,
      response: referralClaimResultSchema,
    }),
    (request) =>
      service.claim(request.user!.id, parseInput(referralClaimSchema, request.body), idempotencyKey(request)),
  );
  app.get(
    '/api/admin/referrals',
    declared('admin', {
      summary: "The referral programme's totals and referrers.",
      response: referralsOverviewSchema,
    }),
    async (_request, reply) => {
      reply.headers(noStore);
      return service.overview();
    },
  );
  return service;
}

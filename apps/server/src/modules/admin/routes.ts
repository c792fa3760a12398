import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  ADMIN_LIST_PAGE,
  ADMIN_WALLETS_PAGE,
  OWNER_USER_ID,
  adminCheckSchema,
  adminUserSchema,
  adminViewSchema,
  adminWalletsSchema,
  auditPageSchema,
  feeConfigUpdateSchema,
  feeConfigViewSchema,
  feeOverrideUpdateSchema,
  feeOverrideViewSchema,
  platformConfigEntrySchema,
  platformConfigUpdateSchema,
  refundRequestSchema,
  refundResultSchema,
  rewardsOverviewRowSchema,
  stagedWalletBalancesSchema,
  stagedWalletViewSchema,
  walletOverviewSchema,
  type AdminCheck,
  type AdminWallets,
} from '@ledgerpad/shared';
import { pageOf, pageSlice, sendPageHeaders } from '../../lib/paging';
import type { Platform } from '../../platform';
import { declared } from '../../plugins/access';
import { idempotencyKey } from '../../plugins/edge';
import { AdminPanel } from './panel';
import { StagedWalletRefunds } from './refunds';
import { parseInput } from '../../lib/validation';

/** The admin panel's routes: every one `access: 'admin'` (401 anonymous, 403 non-admins), CSRF on writes. */
export function registerAdmin(app: FastifyInstance, deps: { platform: Platform }): void {
  const { platform } = deps;
  platform.logWrites({ 'admin-refund': 'refund' });
  const panel = new AdminPanel({
    db: platform.database.db,
    settings: platform.settings,
    client: platform.connection?.client,
    network: platform.config.XRPL_NETWORK,
  });
  const refunds = new StagedWalletRefunds({
    db: platform.database.db,
    client: platform.connection?.client,
    submissions: platform.submissions,
    network: platform.config.XRPL_NETWORK,
  });
  // A fee or setting changed here: the per-ledger reads (a quote's fee rate among them) start anew
  // now rather than at the next ledger.
  const changed = <T>(answer: T): T => {
    platform.readCache.invalidate();
    return answer;
  };
  const noStore = <T>(reply: { header(k: string, v: string): unknown }, value: T) => {
    reply.header('cache-control', 'private, no-store');
    return value;
  };

  // The admin page's credential check: 401 anonymous, 403 signed-in non-admin, 200 for admins.
  app.get(
    '/api/admin/check',
    declared('admin', {
      summary: "The admin page's credential check: 200 for admins only, and whether you are the owner.",
      response: adminCheckSchema,
    }),
    async (request): Promise<AdminCheck> => ({
      isAdmin: true,
      isOwner: request.user!.id === OWNER_USER_ID,
    }),
  );
  app.get(
    '/api/admin/fee-config',
    declared('admin', {
      summary: 'The platform trading fee and its receiver.',
      response: feeConfigViewSchema,
    }),
    async (_r, reply) => noStore(reply, await panel.feeConfig()),
  );
  app.post(
    '/api/admin/fee-config/update',
    declared('admin', {
      summary: 'Set the platform trading fee (the receiver is shown, not edited).',
      body: feeConfigUpdateSchema,
      response: feeConfigViewSchema,
    }),
    async (request) =>
      changed(await panel.updateFeeConfig(request.user!.id, parseInput(feeConfigUpdateSchema, request.body))),
  );
  app.get(
    '/api/admin/platform-config',
    declared('admin', {
      summary: 'Every platform setting an admin edits.',
      response: z.array(platformConfigEntrySchema),
    }),
    async (_r, reply) => noStore(reply, await panel.platformConfig()),
  );
  app.post(
    '/api/admin/platform-config/update',
    declared('admin', {
      summary: 'Change one platform setting or several; answers every setting.',
      body: platformConfigUpdateSchema,
      response: z.array(platformConfigEntrySchema),
    }),
    async (request) =>
      changed(
        await panel.updatePlatformConfig(
          request.user!.id,
          parseInput(platformConfigUpdateSchema, request.body),
        ),
      ),
  );
  app.get(
    '/api/admin/admins',
    declared('admin', { summary: 'The admins.', response: z.array(adminViewSchema) }),
    async (_r, reply) => noStore(reply, await panel.admins()),
  );
  app.post(
    '/api/admin/admins/add',
    declared('admin', {
      summary: 'Make a user an admin; answers the admins.',
      body: adminUserSchema,
      response: z.array(adminViewSchema),
    }),
    async (request) => panel.addAdmin(request.user!.id, parseInput(adminUserSchema, request.body)),
  );
  app.post(
    '/api/admin/admins/remove',
    declared('admin', {
      summary: 'Take a user off the admins (never the owner); answers the admins.',
      body: adminUserSchema,
      response: z.array(adminViewSchema),
    }),
    async (request) => panel.removeAdmin(request.user!.id, parseInput(adminUserSchema, request.body)),
  );
  app.get<{ Querystring: { search?: string } }>(
    '/api/admin/fee-overrides',
    declared('admin', {
      summary: 'Users (by name, email, messenger id or user id; at most 100) with their fee override.',
      response: z.array(feeOverrideViewSchema),
      query: [{ name: 'search', required: false }],
    }),
    async (request, reply) => noStore(reply, await panel.feeOverrides(request.query.search)),
  );
  app.post(
    '/api/admin/fee-overrides/update',
    declared('admin', {
      summary: "Set or clear (null) a user's own trading fee.",
      body: feeOverrideUpdateSchema,
      response: feeOverrideViewSchema,
    }),
    async (request) =>
      changed(
        await panel.updateFeeOverride(request.user!.id, parseInput(feeOverrideUpdateSchema, request.body)),
      ),
  );
  app.get(
    '/api/admin/rewards-overview',
    declared('admin', {
      summary: "Every token's creator reward and what has been claimed of it.",
      response: z.array(rewardsOverviewRowSchema),
    }),
    async (_r, reply) => noStore(reply, await panel.rewardsOverview()),
  );
  app.get(
    '/api/admin/wallet-overview',
    declared('admin', {
      summary: "The fee and service wallets' balances and the unclaimed rewards.",
      response: walletOverviewSchema,
    }),
    async (_r, reply) => noStore(reply, await panel.walletOverview()),
  );
  app.get(
    '/api/admin/all-wallets',
    declared('admin', {
      summary: "One page of users' custodial wallets (total in X-Total-Count) and all the platform's.",
      response: adminWalletsSchema,
      paged: true,
    }),
    async (request, reply): Promise<AdminWallets> => {
      // Users' wallets grow with the users: one page (`?limit=&offset=`), the total in X-Total-Count.
      const page = pageOf(request, ADMIN_WALLETS_PAGE);
      const { total, ...lists } = await panel.allWallets(page);
      sendPageHeaders(request, reply, page, total);
      return noStore(reply, lists);
    },
  );
  app.get<{ Querystring: { page?: string } }>(
    '/api/admin/audit',
    declared('admin', {
      summary: 'One page of the audit trail of admin actions, newest first.',
      response: auditPageSchema,
      query: [{ name: 'page', required: false }],
    }),
    async (request, reply) => noStore(reply, await panel.auditPage(request.query.page)),
  );
  // Staged wallets grow with deploys: paged like every list (docs/paging.md).
  app.get<{ Querystring: { all?: string } }>(
    '/api/admin/staged-wallets',
    declared('admin', {
      summary:
        'Staged issuer and hot wallets of deploys that failed or never finished (every one with all=true).',
      response: z.array(stagedWalletViewSchema),
      query: [{ name: 'all', required: false }],
      paged: true,
    }),
    async (request, reply) => {
      const page = pageOf(request, ADMIN_LIST_PAGE);
      const rows = await refunds.list(request.query.all === 'true');
      return noStore(reply, pageSlice(request, reply, page, rows));
    },
  );
  app.get(
    '/api/admin/staged-wallets/balances',
    declared('admin', {
      summary: "The staged wallets' balances on the ledger, keyed by wallet id.",
      response: stagedWalletBalancesSchema,
    }),
    async (_r, reply) => noStore(reply, await refunds.balances()),
  );
  app.post(
    '/api/admin/refund',
    declared('admin', {
      summary: "Return a staged wallet's XRP, token or RLUSD to an address.",
      body: refundRequestSchema,
      response: refundResultSchema,
    }),
    async (request) => {
      return await refunds.refund(
        request.user!.id,
        parseInput(refundRequestSchema, request.body),
        idempotencyKey(request),
      );
    },
  );
}

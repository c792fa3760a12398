import type { FastifyInstance } from 'fastify';
import {
  ADMIN_LIST_PAGE,
  ADMIN_WALLETS_PAGE,
  OWNER_USER_ID,
  adminUserSchema,
  feeConfigUpdateSchema,
  feeOverrideUpdateSchema,
  platformConfigUpdateSchema,
  refundRequestSchema,
} from '@ledgerpad/shared';
import { pageOf, pageSlice, sendPageHeaders } from '../../lib/paging';
import type { Platform } from '../../platform';
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
  const admin = { config: { access: 'admin' as const } };
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
  app.get('/api/admin/check', admin, async (request) => ({
    isAdmin: true,
    isOwner: request.user!.id === OWNER_USER_ID,
  }));
  app.get('/api/admin/fee-config', admin, async (_r, reply) => noStore(reply, await panel.feeConfig()));
  app.post('/api/admin/fee-config/update', admin, async (request) =>
    changed(await panel.updateFeeConfig(request.user!.id, parseInput(feeConfigUpdateSchema, request.body))),
  );
  app.get('/api/admin/platform-config', admin, async (_r, reply) =>
    noStore(reply, await panel.platformConfig()),
  );
  app.post('/api/admin/platform-config/update', admin, async (request) =>
    changed(
      await panel.updatePlatformConfig(
        request.user!.id,
        parseInput(platformConfigUpdateSchema, request.body),
      ),
    ),
  );
  app.get('/api/admin/admins', admin, async (_r, reply) => noStore(reply, await panel.admins()));
  app.post('/api/admin/admins/add', admin, async (request) =>
    panel.addAdmin(request.user!.id, parseInput(adminUserSchema, request.body)),
  );
  app.post('/api/admin/admins/remove', admin, async (request) =>
    panel.removeAdmin(request.user!.id, parseInput(adminUserSchema, request.body)),
  );
  app.get<{ Querystring: { search?: string } }>('/api/admin/fee-overrides', admin, async (request, reply) =>
    noStore(reply, await panel.feeOverrides(request.query.search)),
  );
  app.post('/api/admin/fee-overrides/update', admin, async (request) =>
    changed(
      await panel.updateFeeOverride(request.user!.id, parseInput(feeOverrideUpdateSchema, request.body)),
    ),
  );
  app.get('/api/admin/rewards-overview', admin, async (_r, reply) =>
    noStore(reply, await panel.rewardsOverview()),
  );
  app.get('/api/admin/wallet-overview', admin, async (_r, reply) =>
    noStore(reply, await panel.walletOverview()),
  );
  app.get('/api/admin/all-wallets', admin, async (request, reply) => {
    // Users' wallets grow with the users: one page (`?limit=&offset=`), the total in X-Total-Count.
    const page = pageOf(request, ADMIN_WALLETS_PAGE);
    const { total, ...lists } = await panel.allWallets(page);
    sendPageHeaders(request, reply, page, total);
    return noStore(reply, lists);
  });
  app.get<{ Querystring: { page?: string } }>('/api/admin/audit', admin, async (request, reply) =>
    noStore(reply, await panel.auditPage(request.query.page)),
  );
  // Staged wallets grow with deploys: paged like every list (docs/paging.md).
  app.get<{ Querystring: { all?: string } }>('/api/admin/staged-wallets', admin, async (request, reply) => {
    const page = pageOf(request, ADMIN_LIST_PAGE);
    const rows = await refunds.list(request.query.all === 'true');
    return noStore(reply, pageSlice(request, reply, page, rows));
  });
  app.get('/api/admin/staged-wallets/balances', admin, async (_r, reply) =>
    noStore(reply, await refunds.balances()),
  );
  app.post('/api/admin/refund', admin, async (request) => {
    return await refunds.refund(
      request.user!.id,
      parseInput(refundRequestSchema, request.body),
      idempotencyKey(request),
    );
  });
}

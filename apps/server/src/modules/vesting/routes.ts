import type { FastifyInstance } from 'fastify';
import {
  USER_LIST_PAGE,
  vestingAutoReleaseResultSchema,
  vestingAutoReleaseSchema,
  vestingReleaseResultSchema,
  vestingReleaseSchema,
  vestingScheduleViewSchema,
  type VestingAutoReleaseResult,
  type VestingReleaseResult,
  type VestingScheduleView,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { validatedClose } from '../../ledger/escrows';
import { declared } from '../../plugins/access';
import { AutoReleaseKeeper } from './keeper';
import { VestingService } from './service';

export interface VestingApi {
  service: VestingService;
  /** The automatic release's keeper; undefined without a ledger connection. */
  keeper?: AutoReleaseKeeper;
}

/** The dashboard's vesting schedule, its 'Release' and the automatic release (docs/vesting.md). */
export function registerVesting(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; wallets: WalletsApi },
): VestingApi {
  const { platform } = deps;
  const service = new VestingService({
    db: platform.database.db,
    client: platform.connection?.client,
    submissions: platform.submissions,
    funds: platform.funds,
    tokens: deps.tokens,
    wallets: deps.wallets,
  });
  // Paged like every list (docs/paging.md); the shape stays `{ tokens }`.
  app.get(
    '/api/dashboard/vesting',
    declared('user', {
      summary: "Your locked dev allocations: each token's tranches and when they unlock.",
      response: vestingScheduleViewSchema,
      paged: true,
    }),
    async (request, reply): Promise<VestingScheduleView> => {
      const page = pageOf(request, USER_LIST_PAGE);
      const view = await service.schedule(request.user!.id);
      return { ...view, tokens: pageSlice(request, reply, page, view.tokens) };
    },
  );
  app.post(
    '/api/dashboard/vesting/release',
    declared('user', {
      summary: 'Release a due tranche of your dev allocation (finish its escrow).',
      body: vestingReleaseSchema,
      response: vestingReleaseResultSchema,
    }),
    async (request): Promise<VestingReleaseResult> => {
      return service.release(request.user!.id, parseInput(vestingReleaseSchema, request.body));
    },
  );
  // 'Release automatically when due' (CSRF like every write; the deployer's own schedules only).
  app.put(
    '/api/dashboard/vesting/auto-release',
    declared('user', {
      summary: "Turn 'release automatically when due' on or off for one of your tokens.",
      body: vestingAutoReleaseSchema,
      response: vestingAutoReleaseResultSchema,
    }),
    async (request): Promise<VestingAutoReleaseResult> =>
      service.setAutoRelease(request.user!.id, parseInput(vestingAutoReleaseSchema, request.body)),
  );

  const connection = platform.connection;
  if (!connection || !platform.submissions) return { service };
  const client = connection.client;
  const keeper = new AutoReleaseKeeper({
    db: platform.database.db,
    service,
    closeTime: async () => (await validatedClose(client)).closeTime,
    // The ledger stream the submission tracker subscribes to: one event per validated ledger.
    onLedger: (listener) => {
      const onClosed = (ev: { ledger_time?: number }) =>
        listener(typeof ev.ledger_time === 'number' ? ev.ledger_time : undefined);
      client.on('ledgerClosed', onClosed);
      return () => void client.off('ledgerClosed', onClosed);
    },
    log: app.log.child({ component: 'vesting-keeper' }),
  });
  app.addHook('onReady', async () => keeper.start());
  // Before the database closes: a running round finishes (its release is recorded either way).
  app.addHook('onClose', () => keeper.stop());
  return { service, keeper };
}

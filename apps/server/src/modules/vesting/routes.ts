import type { FastifyInstance } from 'fastify';
import {
  USER_LIST_PAGE,
  vestingReleaseSchema,
  type VestingReleaseResult,
  type VestingScheduleView,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { VestingService } from './service';

/** The dashboard's vesting schedule and its 'Release' (docs/vesting.md). */
export function registerVesting(
  app: FastifyInstance,
  deps: { platform: Platform; tokens: TokenRegistry; wallets: WalletsApi },
): VestingService {
  const { platform } = deps;
  const service = new VestingService({
    db: platform.database.db,
    client: platform.connection?.client,
    submissions: platform.submissions,
    funds: platform.funds,
    tokens: deps.tokens,
    wallets: deps.wallets,
  });
  const auth = { config: { access: 'user' as const } };
  // Paged like every list (docs/paging.md); the shape stays `{ tokens }`.
  app.get('/api/dashboard/vesting', auth, async (request, reply): Promise<VestingScheduleView> => {
    const page = pageOf(request, USER_LIST_PAGE);
    const view = await service.schedule(request.user!.id);
    return { ...view, tokens: pageSlice(request, reply, page, view.tokens) };
  });
  app.post('/api/dashboard/vesting/release', auth, async (request): Promise<VestingReleaseResult> => {
    return service.release(request.user!.id, parseInput(vestingReleaseSchema, request.body));
  });
  return service;
}

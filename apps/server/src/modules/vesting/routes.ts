import type { FastifyInstance } from 'fastify';
import { vestingReleaseSchema, type VestingReleaseResult, type VestingScheduleView } from '@ledgerpad/shared';
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
  app.get('/api/dashboard/vesting', auth, async (request): Promise<VestingScheduleView> => {
    return service.schedule(request.user!.id);
  });
  app.post('/api/dashboard/vesting/release', auth, async (request): Promise<VestingReleaseResult> => {
    return service.release(request.user!.id, parseInput(vestingReleaseSchema, request.body));
  });
  return service;
}

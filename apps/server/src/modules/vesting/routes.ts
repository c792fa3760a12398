import type { FastifyInstance } from 'fastify';
import type { VestingReleaseResult, VestingScheduleView } from '@ledgerpad/shared';
import { toLedgerAppError } from '../../ledger/errors';
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
    try {
      return await service.schedule(request.user!.id);
    } catch (err) {
      throw toLedgerAppError(err);
    }
  });
  app.post('/api/dashboard/vesting/release', auth, async (request): Promise<VestingReleaseResult> => {
    try {
      return await service.release(request.user!.id, request.body);
    } catch (err) {
      throw toLedgerAppError(err);
    }
  });
  return service;
}

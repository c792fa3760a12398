import type { FastifyInstance } from 'fastify';
import type { FeesConfig } from '@ledgerpad/shared';
import type { Platform } from '../../platform';

/** The ledger's owner reserve before the first ledger is seen (0.2 XRP on every public network). */
const DEFAULT_OWNER_RESERVE_DROPS = 200_000n;

/** GET /api/config/fees: what a deploy costs, read from platform config and the ledger's reserves. */
export function configRoutes(
  app: FastifyInstance,
  platform: Pick<Platform, 'settings' | 'submissions'>,
): void {
  app.get('/api/config/fees', { config: { access: 'public' } }, async (): Promise<FeesConfig> =>
    platform.settings.fees(platform.submissions?.reserves.reserveIncrement ?? DEFAULT_OWNER_RESERVE_DROPS),
  );
}

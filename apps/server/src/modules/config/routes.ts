import type { FastifyInstance } from 'fastify';
import { DEFAULT_RESERVE_INCREMENT_DROPS, RLUSD_CURRENCY_HEX, type FeesConfig } from '@ledgerpad/shared';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { documented } from '../../plugins/access';

/** GET /api/config/fees (what a deploy costs, from platform config and the ledger's reserves) and /rlusd. */
export function registerConfig(
  app: FastifyInstance,
  deps: { platform: Pick<Platform, 'settings' | 'submissions' | 'database' | 'config'> },
): void {
  const { platform } = deps;
  app.get('/api/config/fees', documented('/api/config/fees'), async (): Promise<FeesConfig> =>
    platform.settings.fees(
      platform.submissions?.reserves.reserveIncrement ?? DEFAULT_RESERVE_INCREMENT_DROPS,
      platform.submissions?.reserves.reserveBase,
      platform.submissions?.reserves.baseFee,
    ),
  );
  // GET /api/config/rlusd: the stablecoin of this network (the swap screen's XRP ⇄ RLUSD mode).
  app.get('/api/config/rlusd', documented('/api/config/rlusd'), async () => ({
    currency: RLUSD_CURRENCY_HEX,
    issuer: (await rlusdIssuer(platform.database.db, platform.config.XRPL_NETWORK)) ?? null,
  }));
}

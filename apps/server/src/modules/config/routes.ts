import type { FastifyInstance } from 'fastify';
import Decimal from 'decimal.js';
import type { FeesConfig } from '@ledgerpad/shared';
import type { Platform } from '../../platform';
import { DEPLOY_NETWORK_FEE_ALLOWANCE_XRP } from '../../platform/settings';

const DROPS_PER_XRP = 1_000_000;

/** GET /api/config/fees: what a deploy costs, read from platform config and the ledger's reserves. */
export function configRoutes(app: FastifyInstance, platform: Pick<Platform, 'settings' | 'submissions'>): void {
  app.get('/api/config/fees', { config: { access: 'public' } }, async (): Promise<FeesConfig> => {
    const s = await platform.settings.all();
    const ownerReserveDrops = platform.submissions?.reserves.reserveIncrement ?? 200_000n;
    return {
      service_fee: s.service_fee,
      issuer_reserve: s.issuer_reserve,
      hot_wallet_reserve: s.hot_wallet_reserve,
      airdrop_fee_xrp: s.airdrop_fee_xrp,
      owner_reserve: new Decimal(ownerReserveDrops.toString()).div(DROPS_PER_XRP).toFixed(),
      network_fee_allowance: DEPLOY_NETWORK_FEE_ALLOWANCE_XRP,
    };
  });
}

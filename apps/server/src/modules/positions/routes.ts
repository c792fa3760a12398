import type { FastifyInstance } from 'fastify';
import { USER_LIST_PAGE, positionsResponseSchema, type PositionsResponse } from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import type { Platform } from '../../platform';
import { declared } from '../../plugins/access';
import { rlusdIssuer } from '../../platform/accounts';
import type { MarketSnapshot } from '../market';
import { userFeePercent } from '../trading';
import type { WalletsApi } from '../wallets';
import { positionFillsHandler } from './fills';
import { PositionsService } from './service';

/** GET /api/positions/{userId}: the signed-in user's own positions only. */
export function registerPositions(
  app: FastifyInstance,
  deps: {
    platform: Platform;
    wallets: WalletsApi;
    snapshot: MarketSnapshot;
    /** The bonding module's registry: a curve token's sale goes into its ladder (fee inside its prices). */
    curves?: { activeCurveAccount(issuer: string, currency: string): Promise<string | undefined> };
  },
): PositionsService {
  const db = deps.platform.database.db;
  const rlusd = () => rlusdIssuer(db, deps.platform.config.XRPL_NETWORK);
  const service = new PositionsService({
    db,
    wallets: deps.wallets,
    snapshot: deps.snapshot,
    rlusdIssuer: rlusd,
    client: deps.platform.connection?.client,
    curves: deps.curves,
    feePercent: (userId) => userFeePercent(db, deps.platform.settings, userId),
  });
  // Fills of custodial wallets' resting offers and their XRP ⇄ RLUSD trades, ledger by ledger.
  deps.platform.indexer?.register(positionFillsHandler(rlusd));
  // `:userId` is the caller's own: the access plugin checks it (plugins/access.ts).
  app.get(
    '/api/positions/:userId',
    declared('user', {
      summary: 'Your wallets with their XRP, tokens and LP shares, valued in XRP with profit and loss.',
      response: positionsResponseSchema,
      paged: true,
    }),
    async (request, reply): Promise<PositionsResponse> => {
      // Paged like every list (docs/paging.md); the shape stays the spec's.
      const page = pageOf(request, USER_LIST_PAGE);
      return { positions: pageSlice(request, reply, page, await service.positions(request.user!.id)) };
    },
  );
  return service;
}

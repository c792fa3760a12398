import type { FastifyInstance } from 'fastify';
import {
  gatewayBalancesRequestSchema,
  listTokenRequestSchema,
  type GatewayBalancesResponse,
  type ListTokenResponse,
} from '@ledgerpad/shared';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import { toTokenView, type TokenRegistry } from '../tokens';
import { ListingService } from './service';

/**
 * Listing an existing token (spec 001 §2 /list-token, §7): what an account issues, read from the
 * ledger, and the listing itself. Both need a signed-in user (the access default).
 */
export function registerListing(
  app: FastifyInstance,
  deps: { tokens: TokenRegistry; platform: Platform },
): void {
  const service = new ListingService(deps);

  app.post(
    '/api/gateway-balances',
    { config: { access: 'user' } },
    async (request): Promise<GatewayBalancesResponse> => {
      const { account } = parseInput(gatewayBalancesRequestSchema, request.body);
      const [tokens, state] = await Promise.all([
        service.issuedTokens(account),
        service.issuerState(account),
      ]);
      return { account, tokens, is_blackholed: state.blackholed, require_auth: state.requireAuth };
    },
  );

  // Under /api/admin for the spec's path, but any signed-in user may list; the admin-only fields
  // count only for admins.
  app.post(
    '/api/admin/tokens/add',
    { config: { access: 'user' } },
    async (request): Promise<ListTokenResponse> => {
      const body = parseInput(listTokenRequestSchema, request.body);
      const row = await service.list(request.user!.id, await request.isAdmin(), body);
      return { success: true, token: toTokenView(row) };
    },
  );
}

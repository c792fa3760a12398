import type { FastifyInstance } from 'fastify';
import {
  BURN_MESSAGES,
  USER_LIST_PAGE,
  type BurnResult,
  type IntentRequired,
  type BurnWalletsResponse,
  burnRequestSchema,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import type { Platform } from '../../platform';
import { idempotencyKey, ownUserParam } from '../../plugins/edge';
import type { WalletsApi } from '../wallets';
import { BurnService } from './service';
import { parseInput } from '../../lib/validation';

/** GET /api/burn/wallets/{userId} (the signed-in user's own only) and POST /api/burn/burn. */
export function registerBurn(
  app: FastifyInstance,
  deps: { platform: Platform; wallets: WalletsApi },
): BurnService {
  const { platform } = deps;
  const service = new BurnService({
    wallets: deps.wallets,
    client: platform.connection?.client,
    submissions: platform.submissions,
    funds: platform.funds,
    intents: platform.intents,
  });
  // A self-custody wallet's burn, once signed in the browser or its wallet app (docs/self-custody.md).
  platform.intents?.register('burn', service.finisher());
  const user = { config: { access: 'user' as const } };
  app.get<{ Params: { userId: string } }>(
    '/api/burn/wallets/:userId',
    user,
    async (request, reply): Promise<BurnWalletsResponse> => {
      ownUserParam(request, { bad: BURN_MESSAGES.badUserId, notOwn: BURN_MESSAGES.notOwnUser });
      reply.header('cache-control', 'private, no-store');
      const page = pageOf(request, USER_LIST_PAGE);
      return { wallets: pageSlice(request, reply, page, await service.wallets(request.user!.id)) };
    },
  );
  app.post('/api/burn/burn', user, async (request): Promise<BurnResult | IntentRequired> => {
    return await service.burn(
      request.user!.id,
      parseInput(burnRequestSchema, request.body),
      idempotencyKey(request),
    );
  });
  return service;
}

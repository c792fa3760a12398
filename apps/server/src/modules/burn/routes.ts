import type { FastifyInstance } from 'fastify';
import {
  USER_LIST_PAGE,
  type BurnResult,
  type IntentRequired,
  type BurnWalletsResponse,
  burnRequestSchema,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import type { Platform } from '../../platform';
import { idempotencyKey } from '../../plugins/edge';
import type { WalletsApi } from '../wallets';
import { BurnService } from './service';
import { parseInput } from '../../lib/validation';

/** GET /api/burn/wallets/{userId} (the signed-in user's own only) and POST /api/burn/burn. */
export function registerBurn(
  app: FastifyInstance,
  deps: { platform: Platform; wallets: WalletsApi },
): BurnService {
  const { platform } = deps;
  platform.logWrites({ burn: 'burn' });
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
  // `:userId` is the caller's own: the access plugin checks it (plugins/access.ts).
  app.get('/api/burn/wallets/:userId', user, async (request, reply): Promise<BurnWalletsResponse> => {
    reply.header('cache-control', 'private, no-store');
    const page = pageOf(request, USER_LIST_PAGE);
    return { wallets: pageSlice(request, reply, page, await service.wallets(request.user!.id)) };
  });
  app.post('/api/burn/burn', user, async (request): Promise<BurnResult | IntentRequired> => {
    return await service.burn(
      request.user!.id,
      parseInput(burnRequestSchema, request.body),
      idempotencyKey(request),
    );
  });
  return service;
}

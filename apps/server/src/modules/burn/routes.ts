import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  USER_LIST_PAGE,
  burnResultSchema,
  burnWalletsResponseSchema,
  intentRequiredSchema,
  type BurnResult,
  type IntentRequired,
  type BurnWalletsResponse,
  burnRequestSchema,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import type { Platform } from '../../platform';
import { declared } from '../../plugins/access';
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
  // `:userId` is the caller's own: the access plugin checks it (plugins/access.ts).
  app.get(
    '/api/burn/wallets/:userId',
    declared('user', {
      summary: 'Your wallets with the tokens each holds (what can be burned).',
      response: burnWalletsResponseSchema,
      paged: true,
    }),
    async (request, reply): Promise<BurnWalletsResponse> => {
      reply.header('cache-control', 'private, no-store');
      const page = pageOf(request, USER_LIST_PAGE);
      return { wallets: pageSlice(request, reply, page, await service.wallets(request.user!.id)) };
    },
  );
  app.post(
    '/api/burn/burn',
    declared('user', {
      summary:
        "Burn an amount of a token (send it back to its issuer); a self-custody wallet's answer is the transaction to sign.",
      body: burnRequestSchema,
      response: z.union([burnResultSchema, intentRequiredSchema]),
    }),
    async (request): Promise<BurnResult | IntentRequired> => {
      return await service.burn(
        request.user!.id,
        parseInput(burnRequestSchema, request.body),
        idempotencyKey(request),
      );
    },
  );
  return service;
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  ADMIN_LIST_PAGE,
  authorizeTrustLineSchema,
  dashboardSetLimitSchema,
  freezeTrustLineSchema,
  syncTrustLinesSchema,
  type HasDeployedResponse,
  USER_LIST_PAGE,
  type UserTokensResponse,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import { parseInput, type Parsed } from '../../lib/validation';
import type { Platform } from '../../platform';
import { idempotencyKey, idParam } from '../../plugins/edge';
import type { TokenRegistry } from '../tokens';
import type { WalletsApi } from '../wallets';
import { DashboardService } from './service';

/**
 * The issuer's dashboard (spec 001 §7 "Dashboard and rewards"). Every route needs a signed-in user;
 * a token id that is not the caller's deployed token answers 404 "Token not found", whoever owns it.
 */
export function registerDashboard(
  app: FastifyInstance,
  deps: { tokens: TokenRegistry; platform: Platform; wallets: WalletsApi },
): void {
  const service = new DashboardService(deps);
  const auth = { config: { access: 'user' as const } };
  const userId = (request: FastifyRequest) => request.user!.id;
  const tokenId = (request: FastifyRequest) => idParam(request, 'tokenId');

  app.get('/api/dashboard/has-deployed-token', auth, async (request): Promise<HasDeployedResponse> => ({
    hasDeployed: await service.hasDeployed(userId(request)),
  }));

  // Lists are paged (`?limit=&offset=`, X-Total-Count; docs/paging.md); the shapes stay the spec's.
  // `:userId` is the caller's own: the access plugin checks it (plugins/access.ts).
  app.get('/api/dashboard/user-tokens/:userId', auth, async (request, reply): Promise<UserTokensResponse> => {
    const page = pageOf(request, USER_LIST_PAGE);
    const tokens = await service.userTokens(userId(request));
    return { tokens: pageSlice(request, reply, page, tokens) };
  });

  app.get('/api/dashboard/issuer-wallet/:tokenId', auth, (request) =>
    service.issuerWallet(userId(request), tokenId(request)),
  );

  // A token's holders grow with its success: the web reads every page (features/dashboard/api.ts).
  app.get('/api/dashboard/trust-lines/:tokenId', auth, async (request, reply) => {
    const page = pageOf(request, ADMIN_LIST_PAGE);
    const view = await service.trustLines(userId(request), tokenId(request));
    return { ...view, trustLines: pageSlice(request, reply, page, view.trustLines) };
  });

  /** A signed-in POST on one of the caller's tokens: its id from the path, the body parsed at the edge. */
  const tokenPost = <S extends z.ZodType, T>(
    path: string,
    schema: S,
    handle: (userId: number, tokenId: number, body: Parsed<S>, key: string | undefined) => Promise<T>,
  ) =>
    app.post(path, auth, (request) =>
      handle(userId(request), tokenId(request), parseInput(schema, request.body), idempotencyKey(request)),
    );

  tokenPost('/api/dashboard/trust-lines/:tokenId/freeze', freezeTrustLineSchema, (user, token, body, key) =>
    service.freeze(user, token, body, key),
  );
  tokenPost(
    '/api/dashboard/trust-lines/:tokenId/authorize',
    authorizeTrustLineSchema,
    (user, token, body, key) => service.authorize(user, token, body, key),
  );

  app.post('/api/dashboard/sync-trust-lines/:tokenId', auth, (request) =>
    service.sync(userId(request), tokenId(request), parseInput(syncTrustLinesSchema, request.body ?? {})),
  );

  app.post('/api/dashboard/set-trust-line-limit', auth, (request) =>
    service.setLimit(
      userId(request),
      parseInput(dashboardSetLimitSchema, request.body),
      idempotencyKey(request),
    ),
  );

  app.post('/api/dashboard/blackhole-issuer/:tokenId', auth, (request) =>
    service.blackhole(userId(request), tokenId(request), idempotencyKey(request)),
  );

  app.post('/api/dashboard/disable-require-auth/:tokenId', auth, (request) =>
    service.disableRequireAuth(userId(request), tokenId(request), idempotencyKey(request)),
  );
}

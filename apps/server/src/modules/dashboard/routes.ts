import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ADMIN_LIST_PAGE,
  authorizeTrustLineSchema,
  dashboardSetLimitSchema,
  dashboardWriteResponseSchema,
  deployClaimViewSchema,
  freezeTrustLineSchema,
  hasDeployedResponseSchema,
  intentRequiredSchema,
  issuerWalletResponseSchema,
  syncTrustLinesResponseSchema,
  syncTrustLinesSchema,
  trustLinesResponseSchema,
  type HasDeployedResponse,
  type TrustLinesResponse,
  USER_LIST_PAGE,
  userTokensResponseSchema,
  type UserTokensResponse,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import { parseInput, type Parsed } from '../../lib/validation';
import type { Platform } from '../../platform';
import { declared } from '../../plugins/access';
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
  const userId = (request: FastifyRequest) => request.user!.id;
  const tokenId = (request: FastifyRequest) => idParam(request, 'tokenId');

  app.get(
    '/api/dashboard/has-deployed-token',
    declared('user', { summary: 'Whether you deployed a token here.', response: hasDeployedResponseSchema }),
    async (request): Promise<HasDeployedResponse> => ({
      hasDeployed: await service.hasDeployed(userId(request)),
    }),
  );

  // Lists are paged (`?limit=&offset=`, X-Total-Count; docs/paging.md); the shapes stay the spec's.
  // `:userId` is the caller's own: the access plugin checks it (plugins/access.ts).
  app.get(
    '/api/dashboard/user-tokens/:userId',
    declared('user', {
      summary: 'The tokens you deployed here, newest first.',
      response: userTokensResponseSchema,
      paged: true,
    }),
    async (request, reply): Promise<UserTokensResponse> => {
      const page = pageOf(request, USER_LIST_PAGE);
      const tokens = await service.userTokens(userId(request));
      return { tokens: pageSlice(request, reply, page, tokens) };
    },
  );

  app.get(
    '/api/dashboard/issuer-wallet/:tokenId',
    declared('user', {
      summary: "Your token's issuer account as the ledger holds it (RequireAuth, blackholed).",
      response: issuerWalletResponseSchema,
    }),
    (request) => service.issuerWallet(userId(request), tokenId(request)),
  );

  app.get(
    '/api/dashboard/deploy-claim/:tokenId',
    declared('user', {
      summary:
        'What your self-custody deploy of this token still leaves for your wallet in Checks (dev allocation, first buy), read from the ledger.',
      response: deployClaimViewSchema,
    }),
    (request) => service.deployClaim(userId(request), tokenId(request)),
  );

  // A token's holders grow with its success: the web reads every page (features/dashboard/api.ts).
  app.get(
    '/api/dashboard/trust-lines/:tokenId',
    declared('user', {
      summary: "One page of your token's holders' trust lines, read from the ledger.",
      response: trustLinesResponseSchema,
      paged: true,
    }),
    async (request, reply): Promise<TrustLinesResponse> => {
      const page = pageOf(request, ADMIN_LIST_PAGE);
      const view = await service.trustLines(userId(request), tokenId(request));
      return { ...view, trustLines: pageSlice(request, reply, page, view.trustLines) };
    },
  );

  /** A signed-in POST on one of the caller's tokens: its id from the path, the body parsed at the edge. */
  const tokenPost = <S extends z.ZodType, T>(
    path: string,
    summary: string,
    schema: S,
    handle: (userId: number, tokenId: number, body: Parsed<S>, key: string | undefined) => Promise<T>,
  ) =>
    app.post(
      path,
      declared('user', { summary, body: schema, response: dashboardWriteResponseSchema }),
      (request) =>
        handle(userId(request), tokenId(request), parseInput(schema, request.body), idempotencyKey(request)),
    );

  tokenPost(
    '/api/dashboard/trust-lines/:tokenId/freeze',
    "Freeze or unfreeze a holder's trust line to your token's issuer.",
    freezeTrustLineSchema,
    (user, token, body, key) => service.freeze(user, token, body, key),
  );
  tokenPost(
    '/api/dashboard/trust-lines/:tokenId/authorize',
    "Authorize a holder's trust line (your issuer has RequireAuth).",
    authorizeTrustLineSchema,
    (user, token, body, key) => service.authorize(user, token, body, key),
  );

  app.post(
    '/api/dashboard/sync-trust-lines/:tokenId',
    declared('user', {
      summary: "Re-read your token's issuer and trust lines from the ledger.",
      body: syncTrustLinesSchema,
      response: syncTrustLinesResponseSchema,
    }),
    (request) =>
      service.sync(userId(request), tokenId(request), parseInput(syncTrustLinesSchema, request.body ?? {})),
  );

  app.post(
    '/api/dashboard/set-trust-line-limit',
    declared('user', {
      summary:
        "Set the limit of one of your wallets' trust lines to your token; a self-custody wallet's answer is the transaction to sign.",
      body: dashboardSetLimitSchema,
      response: z.union([dashboardWriteResponseSchema, intentRequiredSchema]),
    }),
    (request) =>
      service.setLimit(
        userId(request),
        parseInput(dashboardSetLimitSchema, request.body),
        idempotencyKey(request),
      ),
  );

  app.post(
    '/api/dashboard/blackhole-issuer/:tokenId',
    declared('user', {
      summary: "Blackhole your token's issuer (irreversible: no key can sign for it again).",
      response: dashboardWriteResponseSchema,
    }),
    (request) => service.blackhole(userId(request), tokenId(request), idempotencyKey(request)),
  );

  app.post(
    '/api/dashboard/disable-require-auth/:tokenId',
    declared('user', {
      summary: "Turn your token issuer's RequireAuth off (irreversible).",
      response: dashboardWriteResponseSchema,
    }),
    (request) => service.disableRequireAuth(userId(request), tokenId(request), idempotencyKey(request)),
  );
}

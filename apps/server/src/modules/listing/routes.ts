import type { FastifyInstance } from 'fastify';
import {
  ADMIN_LIST_PAGE,
  adminHideTokenSchema,
  adminUpdateTokenSchema,
  adminVerifyTokenSchema,
  claimChallengeRequestSchema,
  claimVerifyRequestSchema,
  tokenRefSchema,
  gatewayBalancesRequestSchema,
  idSchema,
  listTokenRequestSchema,
  metadataUpdateRequestSchema,
  type ClaimChallengeView,
  type ControlLossView,
  type GatewayBalancesResponse,
  type IdentityEventView,
  type ListingControlView,
  type ListTokenResponse,
  type TokenView,
} from '@ledgerpad/shared';
import { pageOf, pageSlice } from '../../lib/paging';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import { toTokenView, type TokenRegistry } from '../tokens';
import { IdentityService } from './identity';
import { ListingService } from './service';
import { documented } from '../../plugins/access';

/**
 * Listing an existing token (spec 001 §2 /list-token, §7): what an account issues, read from the
 * ledger, and the listing itself; proof of control of the issuer (claims) and the controller's
 * metadata (docs/token-identity.md); the admin Tokens tab's edit, verify and hide.
 */
export function registerListing(
  app: FastifyInstance,
  deps: { tokens: TokenRegistry; platform: Platform },
): void {
  const service = new ListingService(deps);
  const identity = new IdentityService({ ...deps, listing: service });
  const user = { config: { access: 'user' as const } };
  const admin = { config: { access: 'admin' as const } };
  const tokenId = (params: unknown) => parseInput(idSchema('id'), (params as { id?: unknown }).id);

  // Unproven listings made before a token got verified are re-marked once at start.
  app.addHook('onReady', async () => {
    await deps.tokens
      .refreshLookalikes()
      .catch((err: unknown) => app.log.warn({ err }, 'lookalike refresh failed'));
  });

  app.post('/api/gateway-balances', user, async (request): Promise<GatewayBalancesResponse> => {
    const { account } = parseInput(gatewayBalancesRequestSchema, request.body);
    const [tokens, state] = await Promise.all([service.issuedTokens(account), service.issuerState(account)]);
    return { account, tokens, is_blackholed: state.blackholed, require_auth: state.requireAuth };
  });

  // Under /api/admin for the spec's path, but any signed-in user may list; the admin-only fields
  // count only for admins.
  app.post('/api/admin/tokens/add', user, async (request): Promise<ListTokenResponse> => {
    const body = parseInput(listTokenRequestSchema, request.body);
    const row = await service.list(request.user!.id, await request.isAdmin(), body);
    return { success: true, token: toTokenView(row) };
  });

  // --- Proof of control ---

  // What the caller may do with a listing (about the caller, so the id is a query, not a resource path).
  app.get('/api/listing/control', user, async (request, reply): Promise<ListingControlView> => {
    reply.header('cache-control', 'private, no-store');
    const { token_id } = parseInput(claimChallengeRequestSchema, request.query);
    return identity.control(request.user!.id, await request.isAdmin(), token_id);
  });

  app.post('/api/listing/claims', user, async (request): Promise<ClaimChallengeView> => {
    const { token_id } = parseInput(claimChallengeRequestSchema, request.body);
    return identity.challenge(request.user!.id, token_id);
  });

  app.post('/api/listing/claims/verify', user, async (request): Promise<ListTokenResponse> => {
    const body = parseInput(claimVerifyRequestSchema, request.body);
    const { row, note } = await identity.claim(request.user!.id, body);
    return { success: true, token: toTokenView(row), ...(note ? { note } : {}) };
  });

  // The listings the caller controlled and lost to another user's proof (the dashboard shows them).
  app.get('/api/listing/lost-control', user, async (request, reply): Promise<ControlLossView[]> => {
    reply.header('cache-control', 'private, no-store');
    return identity.lostControl(request.user!.id);
  });

  // Every listing, claim, TOML vouch, rewrite and admin decision of a token, public (issue 35): a
  // change of controller is never silent. Names no user.
  app.get<{ Params: { issuer: string }; Querystring: { currency?: string } }>(
    '/api/tokens/:issuer/identity-history',
    documented('/api/tokens/{issuer}/identity-history'),
    async (request): Promise<IdentityEventView[]> => {
      const { issuer, currency } = parseInput(tokenRefSchema, {
        issuer: request.params.issuer,
        currency: request.query.currency,
      });
      const row = await deps.tokens.resolve(issuer, currency);
      return identity.history(row.id);
    },
  );

  app.post('/api/listing/tokens/:id/metadata', user, async (request): Promise<ListTokenResponse> => {
    const body = parseInput(metadataUpdateRequestSchema, request.body);
    const row = await identity.updateMetadata(request.user!.id, tokenId(request.params), body);
    return { success: true, token: toTokenView(row) };
  });

  // --- Admin Tokens tab (every listing, hidden ones included) ---

  // Every listing grows with the platform: paged (docs/paging.md); the admin page reads every page.
  app.get('/api/admin/tokens', admin, async (request, reply): Promise<TokenView[]> => {
    reply.header('cache-control', 'private, no-store');
    const page = pageOf(request, ADMIN_LIST_PAGE);
    return pageSlice(request, reply, page, (await deps.tokens.all()).map(toTokenView));
  });

  app.post('/api/admin/tokens/:id/update', admin, async (request): Promise<ListTokenResponse> => {
    const body = parseInput(adminUpdateTokenSchema, request.body);
    const row = await identity.adminUpdate(request.user!.id, tokenId(request.params), body);
    return { success: true, token: toTokenView(row) };
  });

  app.post('/api/admin/tokens/:id/verify', admin, async (request): Promise<ListTokenResponse> => {
    const { verified } = parseInput(adminVerifyTokenSchema, request.body);
    const row = await identity.adminVerify(request.user!.id, tokenId(request.params), verified);
    return { success: true, token: toTokenView(row) };
  });

  app.post('/api/admin/tokens/:id/hide', admin, async (request): Promise<ListTokenResponse> => {
    const { hidden } = parseInput(adminHideTokenSchema, request.body);
    const row = await identity.adminHide(request.user!.id, tokenId(request.params), hidden);
    return { success: true, token: toTokenView(row) };
  });
}

import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  ADMIN_LIST_PAGE,
  adminHideTokenSchema,
  adminUpdateTokenSchema,
  adminVerifyTokenSchema,
  claimChallengeRequestSchema,
  claimChallengeViewSchema,
  claimVerifyRequestSchema,
  controlLossViewSchema,
  gatewayBalancesResponseSchema,
  listingControlViewSchema,
  listTokenResponseSchema,
  tokenViewDocumentSchema,
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
import { declared, documented } from '../../plugins/access';

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
  const tokenId = (params: unknown) => parseInput(idSchema('id'), (params as { id?: unknown }).id);

  // Unproven listings made before a token got verified are re-marked once at start.
  app.addHook('onReady', async () => {
    await deps.tokens
      .refreshLookalikes()
      .catch((err: unknown) => app.log.warn({ err }, 'lookalike refresh failed'));
  });

  app.post(
    '/api/gateway-balances',
    declared('user', {
      summary: 'What an account issues (read from the ledger), and its blackhole and RequireAuth state.',
      body: gatewayBalancesRequestSchema,
      response: gatewayBalancesResponseSchema,
    }),
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
    declared('user', {
      summary:
        'List an existing token by its issuer (any signed-in user; the admin-only fields count for admins).',
      body: listTokenRequestSchema,
      response: listTokenResponseSchema,
    }),
    async (request): Promise<ListTokenResponse> => {
      const body = parseInput(listTokenRequestSchema, request.body);
      const row = await service.list(request.user!.id, await request.isAdmin(), body);
      return { success: true, token: toTokenView(row) };
    },
  );

  // --- Proof of control ---

  // What the caller may do with a listing (about the caller, so the id is a query, not a resource path).
  app.get(
    '/api/listing/control',
    declared('user', {
      summary: 'May you edit this listing (controller, admin, own issuer wallet, control lost)?',
      response: listingControlViewSchema,
      query: [{ name: 'token_id', required: true }],
    }),
    async (request, reply): Promise<ListingControlView> => {
      reply.header('cache-control', 'private, no-store');
      const { token_id } = parseInput(claimChallengeRequestSchema, request.query);
      return identity.control(request.user!.id, await request.isAdmin(), token_id);
    },
  );

  app.post(
    '/api/listing/claims',
    declared('user', {
      summary: 'A claim code for a listing, bound to you: what the issuer must send to prove you control it.',
      body: claimChallengeRequestSchema,
      response: claimChallengeViewSchema,
    }),
    async (request): Promise<ClaimChallengeView> => {
      const { token_id } = parseInput(claimChallengeRequestSchema, request.body);
      return identity.challenge(request.user!.id, token_id);
    },
  );

  app.post(
    '/api/listing/claims/verify',
    declared('user', {
      summary:
        "Prove control of a listing's issuer (wallet, claim transaction or TOML) and set its metadata.",
      body: claimVerifyRequestSchema,
      response: listTokenResponseSchema,
    }),
    async (request): Promise<ListTokenResponse> => {
      const body = parseInput(claimVerifyRequestSchema, request.body);
      const { row, note } = await identity.claim(request.user!.id, body);
      return { success: true, token: toTokenView(row), ...(note ? { note } : {}) };
    },
  );

  // The listings the caller controlled and lost to another user's proof (the dashboard shows them).
  app.get(
    '/api/listing/lost-control',
    declared('user', {
      summary: "The listings you controlled and lost to another user's proof.",
      response: z.array(controlLossViewSchema),
    }),
    async (request, reply): Promise<ControlLossView[]> => {
      reply.header('cache-control', 'private, no-store');
      return identity.lostControl(request.user!.id);
    },
  );

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

  app.post(
    '/api/listing/tokens/:id/metadata',
    declared('user', {
      summary: 'Change the name, description, logo and links of a listing you control.',
      body: metadataUpdateRequestSchema,
      response: listTokenResponseSchema,
    }),
    async (request): Promise<ListTokenResponse> => {
      const body = parseInput(metadataUpdateRequestSchema, request.body);
      const row = await identity.updateMetadata(request.user!.id, tokenId(request.params), body);
      return { success: true, token: toTokenView(row) };
    },
  );

  // --- Admin Tokens tab (every listing, hidden ones included) ---

  // Every listing grows with the platform: paged (docs/paging.md); the admin page reads every page.
  app.get(
    '/api/admin/tokens',
    declared('admin', {
      summary: 'Every listing, hidden ones included.',
      response: z.array(tokenViewDocumentSchema),
      paged: true,
    }),
    async (request, reply): Promise<TokenView[]> => {
      reply.header('cache-control', 'private, no-store');
      const page = pageOf(request, ADMIN_LIST_PAGE);
      return pageSlice(request, reply, page, (await deps.tokens.all()).map(toTokenView));
    },
  );

  app.post(
    '/api/admin/tokens/:id/update',
    declared('admin', {
      summary: "Change a listing's name, description, logo and links.",
      body: adminUpdateTokenSchema,
      response: listTokenResponseSchema,
    }),
    async (request): Promise<ListTokenResponse> => {
      const body = parseInput(adminUpdateTokenSchema, request.body);
      const row = await identity.adminUpdate(request.user!.id, tokenId(request.params), body);
      return { success: true, token: toTokenView(row) };
    },
  );

  app.post(
    '/api/admin/tokens/:id/verify',
    declared('admin', {
      summary: 'Mark a listing as checked by an admin, or take the mark away.',
      body: adminVerifyTokenSchema,
      response: listTokenResponseSchema,
    }),
    async (request): Promise<ListTokenResponse> => {
      const { verified } = parseInput(adminVerifyTokenSchema, request.body);
      const row = await identity.adminVerify(request.user!.id, tokenId(request.params), verified);
      return { success: true, token: toTokenView(row) };
    },
  );

  app.post(
    '/api/admin/tokens/:id/hide',
    declared('admin', {
      summary: 'Hide a listing from every list, or show it again.',
      body: adminHideTokenSchema,
      response: listTokenResponseSchema,
    }),
    async (request): Promise<ListTokenResponse> => {
      const { hidden } = parseInput(adminHideTokenSchema, request.body);
      const row = await identity.adminHide(request.user!.id, tokenId(request.params), hidden);
      return { success: true, token: toTokenView(row) };
    },
  );
}

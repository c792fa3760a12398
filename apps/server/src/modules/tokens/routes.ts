import type { FastifyInstance } from 'fastify';
import { classicAddressSchema, TOKEN_MESSAGES } from '@ledgerpad/shared';
import { badRequest, notFound } from '../../lib/errors';
import type { LedgerReadCache } from '../../platform/read-cache';
import { toTokenView, type TokenRegistry } from './service';

// The public list (`GET /api/tokens`) is served by the market module from its per-ledger snapshot.
export function tokenRoutes(
  app: FastifyInstance,
  deps: { tokens: TokenRegistry; cache: Pick<LedgerReadCache, 'get' | 'invalidate'> },
): void {
  // A listing or an edit here changes what the cached public reads answer (a 404 becomes a token).
  deps.tokens.onChange(() => deps.cache.invalidate());
  app.get<{ Params: { issuerAddress: string } }>(
    '/api/tokens/issuer/:issuerAddress',
    { config: { access: 'public' } },
    async (request) => {
      const issuer = classicAddressSchema('issuerAddress').safeParse(request.params.issuerAddress);
      if (!issuer.success) throw badRequest(issuer.error.issues[0]!.message);
      return deps.cache.get(`token:${issuer.data}`, async () => {
        const row = await deps.tokens.byIssuer(issuer.data);
        if (!row) throw notFound(TOKEN_MESSAGES.notFoundForIssuer);
        return toTokenView(row);
      });
    },
  );
}

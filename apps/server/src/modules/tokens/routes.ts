import type { FastifyInstance } from 'fastify';
import { classicAddressSchema, TOKEN_MESSAGES } from '@ledgerpad/shared';
import { badRequest, notFound } from '../../lib/errors';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { toTokenView, TokenRegistry } from './service';

/**
 * The token registry and its one route. Returns the registry: the other modules read and list
 * tokens through it. The public list (`GET /api/tokens`) is served by the market module from its
 * per-ledger snapshot.
 */
export function registerTokens(
  app: FastifyInstance,
  deps: { platform: Pick<Platform, 'database' | 'config' | 'readCache'> },
): TokenRegistry {
  const { platform } = deps;
  const tokens = new TokenRegistry(platform.database.db, (d) => rlusdIssuer(d, platform.config.XRPL_NETWORK));
  const cache = platform.readCache;
  // A listing or an edit here changes what the cached public reads answer (a 404 becomes a token).
  tokens.onChange(() => cache.invalidate());
  app.get<{ Params: { issuerAddress: string } }>(
    '/api/tokens/issuer/:issuerAddress',
    { config: { access: 'public' } },
    async (request) => {
      const issuer = classicAddressSchema('issuerAddress').safeParse(request.params.issuerAddress);
      if (!issuer.success) throw badRequest(issuer.error.issues[0]!.message);
      return cache.get(`token:${issuer.data}`, async () => {
        const row = await tokens.byIssuer(issuer.data);
        if (!row) throw notFound(TOKEN_MESSAGES.notFoundForIssuer);
        return toTokenView(row);
      });
    },
  );
  return tokens;
}

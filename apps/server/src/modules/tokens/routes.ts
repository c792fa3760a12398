import type { FastifyInstance } from 'fastify';
import { classicAddressSchema, TOKEN_MESSAGES, tokenRefSchema } from '@ledgerpad/shared';
import { parseInput } from '../../lib/validation';
import { badRequest, notFound } from '../../lib/errors';
import type { Platform } from '../../platform';
import { rlusdIssuer } from '../../platform/accounts';
import { toTokenView, TokenRegistry } from './service';
import { documented } from '../../plugins/access';

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
  const issuerParam = (value: string) => {
    const issuer = classicAddressSchema('issuerAddress').safeParse(value);
    if (!issuer.success) throw badRequest(issuer.error.issues[0]!.message);
    return issuer.data;
  };
  // The spec's read: the issuer's listed token (its first listed when it has several, as before);
  // `?currency=` names one (issue 35: one page per token).
  app.get<{ Params: { issuerAddress: string }; Querystring: { currency?: string } }>(
    '/api/tokens/issuer/:issuerAddress',
    documented('/api/tokens/issuer/{issuerAddress}'),
    async (request) => {
      const issuer = issuerParam(request.params.issuerAddress);
      if (request.query.currency !== undefined) {
        const { currency } = parseInput(tokenRefSchema, { issuer, currency: request.query.currency });
        return cache.get(`token:${issuer}:${currency}`, async () =>
          toTokenView(await tokens.resolve(issuer, currency)),
        );
      }
      return cache.get(`token:${issuer}`, async () => {
        const row = await tokens.byIssuer(issuer);
        if (!row) throw notFound(TOKEN_MESSAGES.notFoundForIssuer);
        return toTokenView(row);
      });
    },
  );
  // Every listed token of an issuer: `/token/{issuer}` asks which one when there are several.
  app.get<{ Params: { issuerAddress: string } }>(
    '/api/tokens/issuer/:issuerAddress/tokens',
    documented('/api/tokens/issuer/{issuerAddress}/tokens'),
    async (request) => {
      const issuer = issuerParam(request.params.issuerAddress);
      return cache.get(`tokens-of:${issuer}`, async () => {
        const rows = await tokens.allOfIssuer(issuer);
        if (rows.length === 0) throw notFound(TOKEN_MESSAGES.notFoundForIssuer);
        return rows.map(toTokenView);
      });
    },
  );
  return tokens;
}

import type { FastifyInstance } from 'fastify';
import { classicAddressSchema, isHexCurrency, tickerToCurrency, type BondingView } from '@ledgerpad/shared';
import { badRequest, notFound } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import type { LedgerReadCache } from '../../platform/read-cache';
import { idParam } from '../../plugins/edge';
import { curveView, type BondingRegistry } from './service';
import { documented } from '../../plugins/access';

const NO_CURVE = 'This token has no bonding curve.';

/**
 * GET /api/pump/bonding/marketcap/{id} (spec 000 §7: the token list's market cap of a bonding
 * token) and GET /api/bonding/{issuer} (the token page's curve and its progress to graduation).
 */
export function bondingRoutes(
  app: FastifyInstance,
  deps: {
    registry: BondingRegistry;
    xrpUsd: () => Promise<string | null>;
    cache: Pick<LedgerReadCache, 'get' | 'invalidate'>;
  },
): void {
  // Both reads are kept per indexed ledger (platform/read-cache.ts); a curve changed here (launched,
  // graduating) is read again at once.
  deps.registry.onChange(() => deps.cache.invalidate());

  app.get(
    '/api/pump/bonding/marketcap/:id',
    documented('/api/pump/bonding/marketcap/{id}'),
    async (request) => {
      const id = idParam(request, 'id');
      return deps.cache.get(`bonding-cap:${id}`, async () => {
        const curve = await deps.registry.byToken(id);
        if (!curve) throw notFound(NO_CURVE);
        const view = curveView(curve, await deps.xrpUsd());
        return { market_cap_usd: view.market_cap_usd ?? '0' };
      });
    },
  );

  app.get<{ Params: { issuer: string }; Querystring: { currency?: string } }>(
    '/api/bonding/:issuer',
    documented('/api/bonding/{issuer}'),
    async (request, reply): Promise<BondingView> => {
      const issuer = parseInput(classicAddressSchema('issuer'), request.params.issuer);
      const code = request.query.currency?.trim();
      let currency: string | undefined;
      try {
        currency = code ? (isHexCurrency(code) ? code.toUpperCase() : tickerToCurrency(code)) : undefined;
      } catch {
        throw badRequest('currency must be a ticker or a 40-character currency code.');
      }
      reply.header('cache-control', 'public, no-cache');
      return deps.cache.get(`bonding:${issuer}:${currency ?? ''}`, async () => {
        const curve = await deps.registry.byIssuer(issuer, currency);
        if (!curve) throw notFound(NO_CURVE);
        const opensIn = await deps.registry.poolOpensIn(curve);
        return {
          ...curveView(curve, await deps.xrpUsd()),
          ...(opensIn !== undefined ? { pool_opens_in_seconds: opensIn } : {}),
        };
      });
    },
  );
}

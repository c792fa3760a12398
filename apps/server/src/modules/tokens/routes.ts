import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { classicAddressSchema, TOKEN_FETCH_LIMIT, TOKEN_MESSAGES } from '@ledgerpad/shared';
import { AppError } from '../../lib/errors';
import { toTokenView, type TokenRegistry } from './service';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(TOKEN_FETCH_LIMIT).default(TOKEN_FETCH_LIMIT),
});

export function tokenRoutes(app: FastifyInstance, deps: { tokens: TokenRegistry }): void {
  app.get('/api/tokens', { config: { access: 'public' } }, async (request) => {
    const parsed = listQuery.safeParse(request.query);
    if (!parsed.success) throw new AppError('BAD_REQUEST', 'limit must be a whole number from 1 to 10000.');
    const rows = await deps.tokens.listActive(parsed.data.limit);
    return rows.map(toTokenView);
  });

  app.get<{ Params: { issuerAddress: string } }>(
    '/api/tokens/issuer/:issuerAddress',
    { config: { access: 'public' } },
    async (request) => {
      const issuer = classicAddressSchema('issuerAddress').safeParse(request.params.issuerAddress);
      if (!issuer.success) throw new AppError('BAD_REQUEST', issuer.error.issues[0]!.message);
      const row = await deps.tokens.byIssuer(issuer.data);
      if (!row) throw new AppError('NOT_FOUND', TOKEN_MESSAGES.notFoundForIssuer);
      return toTokenView(row);
    },
  );
}

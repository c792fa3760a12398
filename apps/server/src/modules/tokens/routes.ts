import type { FastifyInstance } from 'fastify';
import { classicAddressSchema, TOKEN_MESSAGES } from '@ledgerpad/shared';
import { AppError } from '../../lib/errors';
import { toTokenView, type TokenRegistry } from './service';

// The public list (`GET /api/tokens`) is served by the market module from its per-ledger snapshot.
export function tokenRoutes(app: FastifyInstance, deps: { tokens: TokenRegistry }): void {
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

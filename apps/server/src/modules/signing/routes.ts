import type { FastifyInstance, FastifyRequest } from 'fastify';
import { submitSignedSchema } from '@ledgerpad/shared';
import { withLedger } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';

// Signed intents of self-custody wallets come back here (docs/self-custody.md): the blob is
// checked against exactly what was prepared, submitted through the one submission service, and
// answered with the action's own answer (the same shape the custodial route gives). The user's own
// intents only: another user's id answers 404, like a missing one.

const intentId = (request: FastifyRequest): string => String((request.params as { id?: unknown }).id ?? '');

export function registerSigning(app: FastifyInstance, platform: Platform): void {
  const auth = { config: { access: 'user' as const } };
  const intents = () => withLedger(platform.intents);

  app.get('/api/intents/:id', auth, async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return intents().status(request.user!.id, intentId(request));
  });

  app.post('/api/intents/:id/submit', auth, async (request) => {
    const body = parseInput(submitSignedSchema, request.body);
    return intents().submit(request.user!.id, intentId(request), body.blobs);
  });
}

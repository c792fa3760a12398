import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  intentRequiredSchema,
  intentStatusSchema,
  intentSubmitResultSchema,
  sequenceFallbackSchema,
  submitSignedSchema,
} from '@ledgerpad/shared';
import { withLedger } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import type { Platform } from '../../platform';
import { declared } from '../../plugins/access';

// Signed intents of self-custody wallets come back here (docs/self-custody.md): the blob is
// checked against exactly what was prepared, submitted through the one submission service, and
// answered with the action's own answer (the same shape the custodial route gives). The user's own
// intents only: another user's id answers 404, like a missing one.

const intentId = (request: FastifyRequest): string => String((request.params as { id?: unknown }).id ?? '');

export function registerSigning(app: FastifyInstance, platform: Platform): void {
  const intents = () => withLedger(platform.intents);

  app.get(
    '/api/intents/:id',
    declared('user', { summary: 'Where one of your signing requests is.', response: intentStatusSchema }),
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return intents().status(request.user!.id, intentId(request));
    },
  );

  app.post(
    '/api/intents/:id/submit',
    declared('user', {
      summary: "Submit a signing request's signed transactions: the answer of the action it was for.",
      body: submitSignedSchema,
      response: intentSubmitResultSchema,
    }),
    async (request) => {
      const body = parseInput(submitSignedSchema, request.body);
      return intents().submit(request.user!.id, intentId(request), body.blobs);
    },
  );

  // A wallet app that cannot sign a Batch intent asks for the same transactions one by one
  // (docs/self-custody.md "Swaps and the platform fee"): the Batch is voided first, the answer is
  // the sequence intent to sign instead (the same one on a retry).
  app.post(
    '/api/intents/:id/sequence',
    declared('user', {
      summary: 'Replace a Batch your wallet app cannot sign by the same transactions signed one by one.',
      body: sequenceFallbackSchema,
      response: intentRequiredSchema,
    }),
    async (request) => {
      const body = parseInput(sequenceFallbackSchema, request.body);
      const intent = await intents().fallbackToSequence(request.user!.id, intentId(request), body.reason);
      return { status: 'sign' as const, intent };
    },
  );
}

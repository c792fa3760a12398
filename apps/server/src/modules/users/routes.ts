import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_SLIPPAGE_PERCENT,
  slippagePreferenceSchema,
  userResponseSchema,
  type SlippagePreference,
  wholeNumberSchema,
  EDGE_MESSAGES,
} from '@ledgerpad/shared';
import type { Db } from '../../db/client';
import { forbidden } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import { users } from './schema';
import { toPublicUser } from './service';
import { declared, documented } from '../../plugins/access';

const slippageIdSchema = wholeNumberSchema('id', { min: 1, message: 'The id must be a number.' });

export function registerUsers(app: FastifyInstance, deps: { db: Db }): void {
  const { db } = deps;
  // The web client pings this every 5 minutes to keep the session alive and learn who is signed in
  // (and whether they are an admin, so no screen has to probe an admin route to find out).
  app.get(
    '/api/user',
    declared('user', { summary: 'The signed-in user (the keep-alive ping).', response: userResponseSchema }),
    async (request, reply) => {
      // Personal data: never stored by a shared cache.
      reply.header('cache-control', 'private, no-store');
      return { user: { ...toPublicUser(request.user!), isAdmin: await request.isAdmin() } };
    },
  );

  // Who is signed in, 200 either way (`user: null` for a visitor): the web app asks this on load, as
  // GET /api/user answers a visitor 401 — a failed request in every visitor's console for an
  // expected state. The spec's keep-alive ping still goes to /api/user, for signed-in users.
  app.get('/api/session', documented('/api/session'), async (request, reply) => {
    reply.header('cache-control', 'private, no-store');
    const user = request.user;
    return { user: user ? { ...toPublicUser(user), isAdmin: await request.isAdmin() } : null };
  });

  // GET /api/user/slippage/{telegramId} (spec 001 §7): the saved slippage, 0.50 by default. The id
  // must be the session's own messenger id — or, for a user signed in without the messenger
  // (Google, demo), their user id: a path id is never a way to read someone else's settings.
  app.get<{ Params: { id: string } }>(
    '/api/user/slippage/:id',
    declared('user', {
      summary: 'Your saved slippage (the id is your messenger id, or your user id).',
      response: slippagePreferenceSchema,
    }),
    async (request, reply): Promise<SlippagePreference> => {
      const user = request.user!;
      // A messenger id is not a row id (Telegram's run past ID_MAX): the same digits-as-written
      // rule with its own range.
      const id = parseInput(slippageIdSchema, request.params.id);
      if (id !== (user.telegramId ?? user.id)) throw forbidden(EDGE_MESSAGES.notOwnUser);
      reply.header('cache-control', 'private, no-store');
      return { slippage: user.slippage ?? DEFAULT_SLIPPAGE_PERCENT };
    },
  );

  // Saves it (the spec shows no save call; the swap screen saves what the user types).
  app.put(
    '/api/user/slippage',
    declared('user', {
      summary: 'Save your slippage.',
      body: slippagePreferenceSchema,
      response: slippagePreferenceSchema,
    }),
    async (request): Promise<SlippagePreference> => {
      const { slippage } = parseInput(slippagePreferenceSchema, request.body);
      await db.update(users).set({ slippage, updatedAt: new Date() }).where(eq(users.id, request.user!.id));
      return { slippage };
    },
  );
}

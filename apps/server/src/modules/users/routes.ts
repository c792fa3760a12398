import type { FastifyInstance } from 'fastify';
import { toPublicUser } from './service';

export function userRoutes(app: FastifyInstance): void {
  // The web client pings this every 5 minutes to keep the session alive and learn who is signed in.
  app.get('/api/user', { config: { access: 'user' } }, async (request, reply) => {
    // Personal data: never stored by a shared cache.
    reply.header('cache-control', 'private, no-store');
    return { user: toPublicUser(request.user!) };
  });
}

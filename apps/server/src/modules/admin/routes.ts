import type { FastifyInstance } from 'fastify';
import { OWNER_USER_ID } from '@ledgerpad/shared';

export function adminRoutes(app: FastifyInstance): void {
  // The admin page's credential check: 401 anonymous, 403 signed-in non-admin, 200 for admins.
  app.get('/api/admin/check', { config: { access: 'admin' } }, async (request) => ({
    isAdmin: true,
    isOwner: request.user!.id === OWNER_USER_ID,
  }));
}

import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../lib/errors';

/**
 * Which browser origins may sign in and open the socket: the app's own origin (as the request
 * reaches it), PUBLIC_ORIGIN and ALLOWED_ORIGINS. A browser can't forge Origin or Host, so
 * "Origin equals our own origin" is a same-origin check.
 */
export interface OriginPolicy {
  isAllowed(origin: string, request: FastifyRequest): boolean;
  /** preHandler for sign-in routes: Origin must be present and allowed. */
  requireAllowedOrigin(request: FastifyRequest): Promise<void>;
}

export function createOriginPolicy(config: Pick<Config, 'PUBLIC_ORIGIN' | 'ALLOWED_ORIGINS'>): OriginPolicy {
  const configured = new Set<string>();
  for (const o of [config.PUBLIC_ORIGIN, ...config.ALLOWED_ORIGINS]) {
    if (o) configured.add(new URL(o).origin);
  }
  const isAllowed = (origin: string, request: FastifyRequest): boolean => {
    if (configured.has(origin)) return true;
    return origin === `${request.protocol}://${request.host}`;
  };
  return {
    isAllowed,
    async requireAllowedOrigin(request) {
      const origin = request.headers.origin;
      if (!origin || !isAllowed(origin, request)) {
        throw new AppError(
          'FORBIDDEN',
          'Sign-in is only accepted from the Ledgerpad web app (Origin not allowed)',
        );
      }
    },
  };
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { demoAuthSchema, googleAuthSchema, type AuthMethods } from '@ledgerpad/shared';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import type { SessionManager } from '../../plugins/auth';
import type { OriginPolicy } from '../../plugins/origin';
import type { RateLimits } from '../../plugins/rate-limit';
import { toPublicUser, upsertUser } from '../users/service';
import type { UserRow } from '../users/schema';
import { verifyGoogleAccessToken } from './google';
import { signSocketToken } from './socket-token';
import { verifyTelegramAuth } from './telegram';

export interface AuthRouteDeps {
  config: Config;
  db: Db;
  sessions: SessionManager;
  origins: OriginPolicy;
  limits: RateLimits;
  socketSecret: Buffer;
}

/** Demo sign-in exists only on the embedded ledger outside production. */
export const demoSignInEnabled = (config: Pick<Config, 'XRPL_NETWORK' | 'NODE_ENV'>): boolean =>
  config.XRPL_NETWORK === 'standalone' && config.NODE_ENV !== 'production';

export function authRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  const { config, db, sessions, origins, limits } = deps;
  const telegramEnabled = Boolean(config.TELEGRAM_BOT_TOKEN);
  const googleEnabled = Boolean(config.GOOGLE_CLIENT_ID);
  const demoEnabled = demoSignInEnabled(config);

  // Sign-in has no session yet, so no CSRF token: the Origin check stops cross-site login forgery.
  const signInRoute = (rateLimit: RateLimits['auth']) => ({
    config: { csrf: false, rateLimit },
    preHandler: origins.requireAllowedOrigin,
  });

  const finishSignIn = async (request: FastifyRequest, reply: FastifyReply, user: UserRow) => {
    await sessions.signIn(request, reply, user.id);
    request.user = user;
    return { user: toPublicUser(user) };
  };

  app.get('/api/auth/methods', async (): Promise<AuthMethods> => ({
    telegram: { enabled: telegramEnabled, botUsername: config.TELEGRAM_BOT_USERNAME ?? null },
    google: { enabled: googleEnabled, clientId: config.GOOGLE_CLIENT_ID ?? null },
    demo: { enabled: demoEnabled },
  }));

  app.post('/api/auth/telegram', signInRoute(limits.auth), async (request, reply) => {
    if (!config.TELEGRAM_BOT_TOKEN) {
      throw new AppError(
        'SERVICE_DISABLED',
        'Telegram sign-in is not configured on this server (TELEGRAM_BOT_TOKEN)',
      );
    }
    const auth = verifyTelegramAuth(request.body, config.TELEGRAM_BOT_TOKEN, Math.floor(Date.now() / 1000));
    // first_name as Telegram has it: the header greets 'Welcome, ' + first_name (spec 000 §2).
    const user = await upsertUser(
      db,
      { telegramId: auth.id },
      {
        username: auth.username ?? null,
        firstName: auth.first_name ?? null,
        photoUrl: auth.photo_url ?? null,
      },
    );
    return finishSignIn(request, reply, user);
  });

  app.post('/api/auth/google', signInRoute(limits.auth), async (request, reply) => {
    if (!config.GOOGLE_CLIENT_ID) {
      throw new AppError(
        'SERVICE_DISABLED',
        'Google sign-in is not configured on this server (GOOGLE_CLIENT_ID)',
      );
    }
    const { token } = parseInput(googleAuthSchema, request.body);
    const identity = await verifyGoogleAccessToken(token, {
      clientId: config.GOOGLE_CLIENT_ID,
      tokenInfoUrl: config.GOOGLE_TOKENINFO_URL,
      userInfoUrl: config.GOOGLE_USERINFO_URL,
    });
    const user = await upsertUser(
      db,
      { googleId: identity.googleId },
      { email: identity.email, firstName: identity.firstName, photoUrl: identity.photoUrl },
    );
    return finishSignIn(request, reply, user);
  });

  if (demoEnabled) {
    app.post('/api/auth/demo', signInRoute(limits.demo), async (request, reply) => {
      const { username } = parseInput(demoAuthSchema, request.body);
      const user = await upsertUser(
        db,
        { demoUsername: username.toLowerCase() },
        { username, firstName: username },
      );
      return finishSignIn(request, reply, user);
    });
  }

  app.post('/api/auth/logout', async (request, reply) => {
    await sessions.signOut(request, reply);
    return { ok: true };
  });

  app.get('/api/csrf-token', async (request, reply) => {
    if (!request.session) throw new AppError('UNAUTHORIZED', 'Sign in required');
    // Per-session token; never cache it in a shared cache.
    reply.header('cache-control', 'no-store');
    return { token: request.session.csrfToken };
  });

  app.get('/api/auth/socket-token', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { token: signSocketToken(deps.socketSecret, request.user?.id ?? null) };
  });
}

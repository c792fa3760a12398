import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  REFERRAL_QUERY_PARAM,
  demoAuthSchema,
  googleAuthSchema,
  okResponseSchema,
  parseReferralCode,
  telegramAuthSchema,
  tokenResponseSchema,
  userResponseSchema,
  type AuthMethods,
  type RouteSchemas,
} from '@ledgerpad/shared';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { serviceDisabled } from '../../lib/errors';
import { parseInput } from '../../lib/validation';
import type { SessionManager } from '../../plugins/auth';
import type { OriginPolicy } from '../../plugins/origin';
import type { RateLimits } from '../../plugins/rate-limit';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { demoSignIn, demoUserExists, toPublicUser, upsertUser, type SignedInUser } from '../users';
import { DAY_MS, type Quotas } from '../../platform/quotas';
import type { UserRow } from '../users/schema';
import { verifyGoogleAccessToken } from './google';
import { OWNER_LINK_PATH, redeemSignInLink, signInLinkRefusedPage } from './sign-in-links';
import { signSocketToken } from './socket-token';
import { verifyTelegramAuth } from './telegram';
import { declared, documented } from '../../plugins/access';

export interface AuthRouteDeps {
  config: Config;
  db: Db;
  sessions: SessionManager;
  origins: OriginPolicy;
  limits: RateLimits;
  socketSecret: Buffer;
  quotas: Quotas;
  /** Binds a new user to the referrer whose code the sign-in carries (`?ref=`), at the first sign-in. */
  referrals?: {
    bindFirstSignIn(
      tx: Db,
      input: { userId: number; code: string | undefined; sessionUserId?: number; deviceHash?: string },
    ): Promise<boolean>;
  };
}

const DEVICE_COOKIE = 'ledgerpad_device';
/** Chromium caps cookie lifetimes at 400 days. */
const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/** Demo sign-in exists only on the embedded ledger outside production. */
const demoSignInEnabled = (config: Pick<Config, 'XRPL_NETWORK' | 'NODE_ENV'>): boolean =>
  config.XRPL_NETWORK === 'standalone' && config.NODE_ENV !== 'production';

export function registerAuth(app: FastifyInstance, deps: AuthRouteDeps): void {
  const { config, db, sessions, origins, limits } = deps;
  const telegramEnabled = Boolean(config.TELEGRAM_BOT_TOKEN);
  const googleEnabled = Boolean(config.GOOGLE_CLIENT_ID);
  const demoEnabled = demoSignInEnabled(config);
  const demoUsersRule = {
    bucket: 'demo_users_ip',
    limit: config.DEMO_USERS_PER_IP_PER_DAY,
    windowMs: DAY_MS,
    message: `this address has created the ${config.DEMO_USERS_PER_IP_PER_DAY} demo accounts it may create in a day.`,
  };

  // Sign-in has no session yet, so no CSRF token: the Origin check stops cross-site login forgery.
  const signInRoute = (rateLimit: RateLimits['auth'], how: string, body: RouteSchemas['body']) => ({
    ...declared(
      'public',
      { summary: `Sign in ${how}; sets the session cookie.`, body, response: userResponseSchema },
      { csrf: false, rateLimit },
    ),
    preHandler: origins.requireAllowedOrigin,
  });

  /**
   * Creates or finds the user and, when this sign-in created them, binds their referral in the same
   * transaction: the code in the request's `?ref=` (a bad or missing code binds nothing and never
   * blocks the sign-in), unless the browser is signed in as that referrer right now, or (demo) is the
   * device the referrer signed up with. A returning user's `?ref=` is ignored: the referral binds at
   * the first sign-in only, and never changes (docs/referrals.md).
   */
  const signUp = (
    request: FastifyRequest,
    find: (tx: Db) => Promise<SignedInUser>,
    deviceHash?: string,
  ): Promise<SignedInUser> =>
    db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const user = await find(tx);
      if (user.created && deps.referrals) {
        const bound = await deps.referrals.bindFirstSignIn(tx, {
          userId: user.id,
          code: parseReferralCode(
            (request.query as Record<string, unknown> | undefined)?.[REFERRAL_QUERY_PARAM],
          ),
          sessionUserId: request.user?.id,
          deviceHash,
        });
        if (bound) request.log.info({ userId: user.id }, 'referral bound at first sign-in');
      }
      return user;
    });

  const finishSignIn = async (request: FastifyRequest, reply: FastifyReply, user: UserRow) => {
    await sessions.signIn(request, reply, user.id);
    request.user = user;
    request.log.info({ userId: user.id, via: request.routeOptions.url }, 'signed in');
    return { user: toPublicUser(user) };
  };

  app.get('/api/auth/methods', documented('/api/auth/methods'), async (): Promise<AuthMethods> => ({
    telegram: { enabled: telegramEnabled, botUsername: config.TELEGRAM_BOT_USERNAME ?? null },
    google: { enabled: googleEnabled, clientId: config.GOOGLE_CLIENT_ID ?? null },
    demo: { enabled: demoEnabled },
    network: config.XRPL_NETWORK,
    onramp: config.ONRAMP_API_KEY
      ? { apiKey: config.ONRAMP_API_KEY, environment: config.ONRAMP_ENVIRONMENT }
      : null,
  }));

  app.post(
    '/api/auth/telegram',
    signInRoute(limits.auth, 'with Telegram', telegramAuthSchema),
    async (request, reply) => {
      if (!config.TELEGRAM_BOT_TOKEN) {
        throw serviceDisabled('Telegram sign-in is not configured on this server (TELEGRAM_BOT_TOKEN)');
      }
      const auth = verifyTelegramAuth(request.body, config.TELEGRAM_BOT_TOKEN, Math.floor(Date.now() / 1000));
      // first_name as Telegram has it: the header greets 'Welcome, ' + first_name (spec 000 §2).
      const user = await signUp(request, (tx) =>
        upsertUser(
          tx,
          { telegramId: auth.id },
          {
            username: auth.username ?? null,
            firstName: auth.first_name ?? null,
            photoUrl: auth.photo_url ?? null,
          },
        ),
      );
      return finishSignIn(request, reply, user);
    },
  );

  app.post(
    '/api/auth/google',
    signInRoute(limits.auth, 'with Google', googleAuthSchema),
    async (request, reply) => {
      if (!config.GOOGLE_CLIENT_ID) {
        throw serviceDisabled('Google sign-in is not configured on this server (GOOGLE_CLIENT_ID)');
      }
      const { token } = parseInput(googleAuthSchema, request.body);
      const identity = await verifyGoogleAccessToken(token, {
        clientId: config.GOOGLE_CLIENT_ID,
        tokenInfoUrl: config.GOOGLE_TOKENINFO_URL,
        userInfoUrl: config.GOOGLE_USERINFO_URL,
      });
      const user = await signUp(request, (tx) =>
        upsertUser(
          tx,
          { googleId: identity.googleId },
          { email: identity.email, firstName: identity.firstName, photoUrl: identity.photoUrl },
        ),
      );
      return finishSignIn(request, reply, user);
    },
  );

  if (demoEnabled) {
    app.post(
      '/api/auth/demo',
      signInRoute(limits.demo, 'as a demo user', demoAuthSchema),
      async (request, reply) => {
        const { username } = parseInput(demoAuthSchema, request.body);
        // The browser's device secret: HttpOnly, so page scripts can't read it; set on first use.
        let device = request.cookies[DEVICE_COOKIE];
        if (!device || !/^[A-Za-z0-9_-]{43}$/.test(device)) {
          device = randomToken(32);
          reply.setCookie(DEVICE_COOKIE, device, {
            httpOnly: true,
            sameSite: 'lax',
            path: '/api/auth',
            secure: config.NODE_ENV === 'production',
            maxAge: DEVICE_COOKIE_MAX_AGE_S,
          });
        }
        const deviceHash = sha256Hex(device);
        // Only a new demo user counts against the address's daily allowance; signing back in is free.
        const signIn = () => signUp(request, (tx) => demoSignIn(tx, username, deviceHash), deviceHash);
        const user = (await demoUserExists(db, username))
          ? await signIn()
          : await deps.quotas.within(demoUsersRule, request.ip, 1, signIn);
        return finishSignIn(request, reply, user);
      },
    );
  }

  // The owner's one-time link (printed to the console at start). A top-level navigation, so it
  // answers with a redirect into the app, or a page a person can read when the link is spent; the
  // token is redacted from request logs.
  app.get(
    OWNER_LINK_PATH,
    { config: { csrf: false, rateLimit: limits.auth, access: 'public' } },
    async (request, reply) => {
      const token = (request.query as Record<string, unknown>).token;
      const redeemed =
        typeof token === 'string' ? await redeemSignInLink(db, token) : { refused: 'invalid' as const };
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if ('refused' in redeemed) {
        return reply
          .code(redeemed.refused === 'invalid' ? 401 : 410)
          .type('text/html; charset=utf-8')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
          .send(signInLinkRefusedPage(redeemed.refused));
      }
      await sessions.signIn(request, reply, redeemed.userId);
      request.log.info({ userId: redeemed.userId }, 'owner signed in with a one-time link');
      return reply.redirect('/', 303);
    },
  );

  // Public: signing out without a session is a harmless no-op, and a stale tab must always manage it.
  app.post(
    '/api/auth/logout',
    declared('public', { summary: 'Sign out (a no-op without a session).', response: okResponseSchema }),
    async (request, reply) => {
      await sessions.signOut(request, reply);
      return { ok: true };
    },
  );

  app.get(
    '/api/csrf-token',
    declared('public', {
      summary: "The session's CSRF token for writes (204, no body, without a session).",
      response: tokenResponseSchema,
    }),
    async (request, reply) => {
      // Per-session token; never cache it in a shared cache.
      reply.header('cache-control', 'no-store');
      // No session, no token: 204, not an error — a sign-in's own POST asks before there is a
      // session (it needs none: the CSRF check applies to sessions), and a 401 there was logged in
      // every visitor's console (issue 39).
      if (!request.session) return reply.code(204).send();
      return { token: request.session.csrfToken };
    },
  );

  // Public: anonymous visitors get a token for public events (sub null).
  app.get(
    '/api/auth/socket-token',
    declared('public', {
      summary: "A token for the socket (/ws): the user's events, or the public ones for a visitor.",
      response: tokenResponseSchema,
    }),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        token: signSocketToken(
          deps.socketSecret,
          request.user?.id ?? null,
          Date.now(),
          request.session?.id ?? null,
        ),
      };
    },
  );
}

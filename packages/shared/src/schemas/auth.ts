import { z } from 'zod';

// Shapes of the sign-in, session and user calls. The server validates requests with these and the
// web client types its responses with them, so both sides agree on every field name.

/** The user object every login response and GET /api/user carry (spec 000 §3). */
export const userSchema = z.object({
  id: z.number().int().positive(),
  username: z.string().nullable(),
  first_name: z.string().nullable(),
  photo_url: z.string().nullable(),
  email: z.string().nullable(),
  /** Telegram ids have up to 52 significant bits, so a JavaScript number holds them exactly. */
  telegram_id: z.number().int().nullable(),
  google_id: z.string().nullable(),
  created_at: z.string(),
  /**
   * Whether the user may open /admin (GET /api/user says; login responses leave it out). The screens
   * read it instead of probing GET /api/admin/check, which answers a non-admin 403; the server still
   * checks every admin call.
   */
  isAdmin: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

export const userResponseSchema = z.object({ user: userSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;

/** GET /api/csrf-token (200 with a session; 204 without) and GET /api/auth/socket-token. */
export const tokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** POST /api/auth/logout, and the other writes that only say they were done. */
export const okResponseSchema = z.object({ ok: z.literal(true) });

/** GET /api/session: the signed-in user, or null for a visitor (200 either way). */
export const sessionResponseSchema = z.object({ user: userSchema.nullable() });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/**
 * The Telegram Login Widget's auth result. Every field the widget sent is part of the signed
 * data-check-string, so the server checks the hash over the raw body before parsing it with this.
 */
export const telegramAuthSchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  first_name: z.string().max(256).optional(),
  last_name: z.string().max(256).optional(),
  username: z.string().max(64).optional(),
  photo_url: z.string().url().max(2048).optional(),
  auth_date: z.coerce.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/i, 'hash must be 64 hex characters'),
});
export type TelegramAuth = z.infer<typeof telegramAuthSchema>;

/**
 * Google sign-in: the browser sends the access token it got from Google. `userInfo` is what the
 * browser says Google returned; the server never trusts it and asks Google itself.
 */
export const googleAuthSchema = z.object({
  token: z.string().min(1, 'token is required').max(4096),
  userInfo: z.record(z.string(), z.unknown()).optional(),
});

/** Demo sign-in on the embedded stand-alone ledger only. */
export const demoAuthSchema = z.object({
  username: z.string().regex(/^[A-Za-z0-9_]{3,32}$/, 'Username must be 3-32 letters, digits or underscores'),
});

export const authMethodsSchema = z.object({
  telegram: z.object({ enabled: z.boolean(), botUsername: z.string().nullable() }),
  google: z.object({ enabled: z.boolean(), clientId: z.string().nullable() }),
  demo: z.object({ enabled: z.boolean() }),
  /** The ledger this server runs on: test money (faucets) exists on standalone and testnet only. */
  network: z.enum(['standalone', 'testnet', 'mainnet']),
  /** The card on-ramp widget's publishable key and environment; null when card purchase is off. */
  onramp: z
    .object({ apiKey: z.string(), environment: z.enum(['DEVELOPMENT', 'STAGING', 'PRODUCTION']) })
    .nullable(),
});
export type AuthMethods = z.infer<typeof authMethodsSchema>;

import path from 'node:path';
import { z } from 'zod';

// The one place process.env is read (main.ts passes it in). Every invalid key is reported at once.

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const port = z.coerce
  .number({ message: 'must be a port number' })
  .int('must be a whole number')
  .min(0, 'must be 0-65535')
  .max(65535, 'must be 0-65535');

export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: port.default(3000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** pretty: one human-readable line per event (the console default); json: structured (production default). */
    LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    /** The PostgreSQL schema the app's tables live in (one database, several deployments). */
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
      .default('public'),
    XRPL_NETWORK: z.enum(['standalone', 'testnet', 'mainnet']).default('standalone'),
    XRPL_URL: z
      .string()
      .regex(/^wss?:\/\//, 'must be a ws:// or wss:// URL')
      .optional(),
    LEDGER_CLOSE_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
    LEDGER_PORT: port.default(0),
    /**
     * embedded ledger: 'thread' runs it in a worker thread (its own event loop), 'main' in this one
     * (the default until 'thread' is measured on a quiet machine: docs/benchmarks.md).
     */
    LEDGER_THREAD: z.enum(['thread', 'main']).default('main'),
    /** A ledger ping unanswered this long drops the connection: a hung ledger fails requests fast (503). */
    LEDGER_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(2000),
    /** /api/health is 503 when the last validated ledger is older than this many closes (0: never). */
    LEDGER_MAX_LAG_CLOSES: z.coerce.number().int().min(0).max(1000).default(5),
    PUBLIC_ORIGIN: z.string().url('must be a URL such as https://ledgerpad.example').optional(),
    WEB_DIST_DIR: z.string().optional(),
    TRUST_PROXY: bool.default(false),
    // --- Sign-in, sessions, socket (issue 5). A missing bot token or client id disables that method.
    TELEGRAM_BOT_TOKEN: z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, 'must be a bot token from @BotFather (123456:ABC...)')
      .optional(),
    TELEGRAM_BOT_USERNAME: z
      .string()
      .regex(/^[A-Za-z0-9_]{3,64}$/, 'must be a bot username')
      .optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_TOKENINFO_URL: z.string().url().default('https://oauth2.googleapis.com/tokeninfo'),
    GOOGLE_USERINFO_URL: z.string().url().default('https://openidconnect.googleapis.com/v1/userinfo'),
    /** Card on-ramp widget: the provider's publishable API key (safe to send to browsers); unset disables card purchase. */
    ONRAMP_API_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,128}$/, "must be the on-ramp provider's publishable API key")
      .optional(),
    ONRAMP_ENVIRONMENT: z.enum(['DEVELOPMENT', 'STAGING', 'PRODUCTION']).default('STAGING'),
    /** Extra origins allowed to sign in and open the socket (comma-separated), e.g. a dev server. */
    ALLOWED_ORIGINS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().url('must be comma-separated origins such as https://a.example')))
      .default([]),
    /** HMAC key of socket tokens; generated into DATA_DIR when unset. Share it between instances. */
    SOCKET_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** memory: one process; postgres: LISTEN/NOTIFY between instances; auto: postgres when DATABASE_URL is set. */
    EVENT_BUS: z.enum(['auto', 'memory', 'postgres']).default('auto'),
    // Requests per minute. Sign-in is per IP; reads per user (or IP when anonymous); writes per user.
    RATE_LIMIT_AUTH_PER_MIN: z.coerce.number().int().min(1).default(10),
    RATE_LIMIT_DEMO_PER_MIN: z.coerce.number().int().min(1).default(120),
    RATE_LIMIT_READ_PER_MIN: z.coerce.number().int().min(1).default(1200),
    RATE_LIMIT_WRITE_PER_MIN: z.coerce.number().int().min(1).default(300),
    /** Reads computed per question (plugins/rate-limit.ts EXPENSIVE_ROUTES), per user or IP, together. */
    RATE_LIMIT_EXPENSIVE_PER_MIN: z.coerce.number().int().min(1).default(300),
    /** Where the per-minute limits count: auto = the database with DATABASE_URL (shared by every instance), else memory. */
    RATE_LIMIT_STORE: z.enum(['auto', 'memory', 'database']).default('auto'),
    /** A socket whose unsent data exceeds this is closed instead of buffering without bound. */
    WS_MAX_BUFFERED_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    WS_HEARTBEAT_MS: z.coerce.number().int().min(100).default(30_000),
    /** Client messages per second per socket before it is closed (1008). */
    WS_MAX_MESSAGES_PER_SEC: z.coerce.number().int().min(1).default(20),
    /** Open sockets per client IP (a browser holds one per tab). */
    WS_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).default(100),
    // --- Custodial wallets, key custody, standalone bootstrap (issue 6) ---
    /** Master key wrapping every wallet's data key (64 hex or base64 of 32 bytes); else DATA_DIR/master.key. */
    MASTER_KEY: z.string().min(32, 'must be 64 hex characters or base64 of 32 bytes').optional(),
    /** Older master keys (comma-separated) still able to open records a rotation has not reached. */
    MASTER_KEY_PREVIOUS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .default([]),
    /** Target key of `npm run keys:rotate` when keys come from MASTER_KEY (generated otherwise). */
    NEW_MASTER_KEY: z.string().min(32).optional(),
    /** Standalone bootstrap: XRP/RLUSD pool price and depth, faucet amounts (decimal strings). */
    RLUSD_PER_XRP: z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be a decimal number')
      .default('2.20'),
    AMM_POOL_XRP: z.string().regex(/^\d+$/, 'must be a whole number of XRP').default('100000'),
    AMM_TRADING_FEE: z.coerce.number().int().min(0).max(1000).default(300),
    FAUCET_XRP: z.string().regex(/^\d+$/, 'must be a whole number of XRP').default('1000'),
    FAUCET_RLUSD: z
      .string()
      .regex(/^\d+(\.\d+)?$/, 'must be a decimal number')
      .default('1000'),
    /** Faucet payouts per user per hour and asset (each wallet additionally at most once a minute). */
    FAUCET_PER_USER_PER_HOUR: z.coerce.number().int().min(1).default(10),
    /**
     * A custodial AMM swap's platform fee paid inside the trade's own all-or-nothing Batch (XLS-56)
     * where the ledger has Batch (docs/batch-in-the-app.md); off = always the fee job after the trade.
     * auto = on, except under NODE_ENV=test (the tests of the fee job's path run it; the Batch tests
     * set it on).
     */
    TRADE_FEE_BATCH: z.enum(['auto', 'on', 'off']).default('auto'),
    /** Create the stand-alone platform accounts and XRP/RLUSD pool at start; auto = not under NODE_ENV=test. */
    PLATFORM_BOOTSTRAP: z.enum(['auto', 'on', 'off']).default('auto'),
    /**
     * Demo market on the stand-alone ledger: a dozen tokens deployed through the real deploy job on
     * an empty database, and demo traders swapping; auto = on for standalone, not under NODE_ENV=test.
     */
    DEMO_SEED: z.enum(['auto', 'on', 'off', 'true', 'false']).default('auto'),
    /** Milliseconds between the demo traders' swaps after the seed (0 stops them). */
    DEMO_TRADE_INTERVAL_MS: z.coerce.number().int().min(0).default(4000),
    /** Milliseconds between the looks for airdrops to end (past their deadline, fully claimed); 0 stops it. */
    AIRDROP_SWEEP_MS: z.coerce.number().int().min(0).default(10_000),
    /**
     * Token identity: let the xrp-ledger.toml check fetch over http:// from loopback addresses
     * (the tests' local server). Refused outside NODE_ENV=test: in use, only https to public hosts.
     */
    TOML_FETCH_ALLOW_LOOPBACK: bool.default(false),
    // --- Running it for real (issue 26): bounded resources, health, metrics, keeper lease ---
    /** Demo users one client IP may create per 24 hours (embedded ledger only). */
    DEMO_USERS_PER_IP_PER_DAY: z.coerce.number().int().min(1).default(20),
    /** Signed-in sessions per user; a new sign-in beyond it revokes the oldest. */
    SESSIONS_PER_USER: z.coerce.number().int().min(1).default(10),
    /** Faucet payouts per client IP per hour and asset (on top of the per-user limit). */
    FAUCET_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(30),
    /** Wallets a user may create or import per 24 hours (archived ones count). */
    WALLETS_PER_USER_PER_DAY: z.coerce.number().int().min(1).default(20),
    /** Logo bytes a user may upload per 24 hours. */
    UPLOAD_BYTES_PER_USER_PER_DAY: z.coerce
      .number()
      .int()
      .min(1024)
      .default(20 * 1024 * 1024),
    /** A stored logo no token, airdrop or deploy refers to is deleted this many hours after its upload. */
    UNUSED_LOGO_TTL_HOURS: z.coerce.number().min(0).default(24),
    /** Milliseconds between sweeps of unused logos (0 = never). */
    LOGO_SWEEP_MS: z.coerce.number().int().min(0).default(3_600_000),
    /** admin: /api/health details only to admins; public: to everyone (an internal-only deployment). */
    HEALTH_DETAILS: z.enum(['admin', 'public']).default('admin'),
    /** Bearer token for GET /metrics on the main port; unset (and no METRICS_PORT): no /metrics. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Serve /metrics without a token on this separate port (bound to METRICS_HOST). */
    METRICS_PORT: port.optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** A claimed job's (and airdrop claim's) lease: after a crash another instance takes it over once it expires. */
    JOB_LEASE_MS: z.coerce.number().int().min(1000).default(15_000),
    /** A bonding keeper round's lease on its curve, renewed while it runs (a dead holder's is taken over). */
    BONDING_KEEPER_LEASE_MS: z.coerce.number().int().min(1000).default(10_000),
  })
  .superRefine((c, ctx) => {
    if (c.XRPL_NETWORK !== 'standalone' && !c.XRPL_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['XRPL_URL'],
        message: `is required when XRPL_NETWORK is ${c.XRPL_NETWORK}`,
      });
    }
    if (c.TOML_FETCH_ALLOW_LOOPBACK && c.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['TOML_FETCH_ALLOW_LOOPBACK'],
        message: 'is allowed only with NODE_ENV=test',
      });
    }
    if (c.EVENT_BUS === 'postgres' && !c.DATABASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['EVENT_BUS'], message: 'postgres needs DATABASE_URL' });
    }
    // On PostgreSQL several instances may share the database: a secret generated into one
    // instance's DATA_DIR would make it refuse the others' socket tokens and custody records.
    if (c.DATABASE_URL) {
      for (const key of SHARED_SECRETS) {
        if (!c[key]) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message:
              'is required with DATABASE_URL: set the same value on every instance (docs/production.md)',
          });
        }
      }
    }
  });

/** The secrets every instance on one database must share (docs/production.md). */
const SHARED_SECRETS = ['MASTER_KEY', 'SOCKET_TOKEN_SECRET'] as const;

export type Config = z.output<typeof configSchema> & { dataDir: string };

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Empty strings count as unset, like most twelve-factor tooling. */
function clean(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(clean(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`));
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}

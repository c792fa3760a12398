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
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    XRPL_NETWORK: z.enum(['standalone', 'testnet', 'mainnet']).default('standalone'),
    XRPL_URL: z
      .string()
      .regex(/^wss?:\/\//, 'must be a ws:// or wss:// URL')
      .optional(),
    LEDGER_CLOSE_INTERVAL_MS: z.coerce.number().int().min(0).default(1000),
    LEDGER_PORT: port.default(0),
    PUBLIC_ORIGIN: z.string().url('must be a URL such as https://ledgerpad.example').optional(),
    WEB_DIST_DIR: z.string().optional(),
    TRUST_PROXY: bool.default(false),
  })
  .superRefine((c, ctx) => {
    if (c.XRPL_NETWORK !== 'standalone' && !c.XRPL_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['XRPL_URL'],
        message: `is required when XRPL_NETWORK is ${c.XRPL_NETWORK}`,
      });
    }
  });

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

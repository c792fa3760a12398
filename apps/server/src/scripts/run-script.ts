import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config';
import { openDatabase, type Database, type DatabaseOptions } from '../db/client';

// What every operator script shares: the configuration, the configured database (PostgreSQL, or the
// embedded PGlite in DATA_DIR/db) opened for the script's time, and one line on failure.

/** The database the configuration names (main.ts opens the same one). */
export function configuredDatabase(
  config: Config,
  opts: Pick<DatabaseOptions, 'migrate'> = {},
): DatabaseOptions {
  return config.DATABASE_URL
    ? { url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, ...opts }
    : { dataDir: path.join(config.dataDir, 'db'), ...opts };
}

export function runScript(
  failure: string,
  body: (config: Config, database: Database) => Promise<void>,
  opts: Pick<DatabaseOptions, 'migrate'> = {},
): void {
  const run = async () => {
    const config = loadConfig(process.env);
    const database = await openDatabase(configuredDatabase(config, opts));
    try {
      await body(config, database);
    } finally {
      await database.close();
    }
  };
  run().catch((err: unknown) => {
    console.error(
      err instanceof ConfigError
        ? err.message
        : `${failure}: ${err instanceof Error ? err.message : String(err)}`,
    );
    process.exit(1);
  });
}

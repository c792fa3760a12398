import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { applyMigrations, openDatabase } from '../db/client';

// `npm run db:migrate` (or `node apps/server/dist/migrate.js` in production): applies the pending
// migrations once and exits, for deployments that migrate as a release step before rolling the
// instances. An instance that starts first does the same under the same advisory lock, so doing
// both is safe: whichever comes first applies them, the other finds nothing to do.

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const database = await openDatabase(
    config.DATABASE_URL
      ? { url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA, migrate: false }
      : { dataDir: path.join(config.dataDir, 'db'), migrate: false },
  );
  try {
    const applied = await applyMigrations(database);
    console.log(applied.length ? `Applied ${applied.join(', ')}.` : 'The database is up to date.');
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError
      ? err.message
      : `Migration failed: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
});

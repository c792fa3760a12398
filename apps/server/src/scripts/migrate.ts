import { applyMigrations } from '../db/client';
import { runScript } from './run-script';

// `npm run db:migrate` (or `node apps/server/dist/migrate.js` in production): applies the pending
// migrations once and exits, for deployments that migrate as a release step before rolling the
// instances. An instance that starts first does the same under the same advisory lock, so doing
// both is safe: whichever comes first applies them, the other finds nothing to do.

runScript(
  'Migration failed',
  async (_config, database) => {
    const applied = await applyMigrations(database);
    console.log(applied.length ? `Applied ${applied.join(', ')}.` : 'The database is up to date.');
  },
  { migrate: false },
);

import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { issueOwnerLink, ownerLinkUrl } from '../modules/auth';

// `npm run owner-link`: prints a new one-time sign-in link for the owner (user id 1) and revokes
// the earlier unused ones. Whoever can run this can read the database, so it grants nothing new.
// With the embedded database (PGlite), stop the server first: one process at a time may open it;
// a running server prints a fresh link at every start anyway.

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const database = await openDatabase(
    config.DATABASE_URL
      ? { url: config.DATABASE_URL, schema: config.DATABASE_SCHEMA }
      : { dataDir: path.join(config.dataDir, 'db') },
  );
  try {
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
    const base = config.PUBLIC_ORIGIN ?? `http://${host}:${config.PORT}`;
    console.log(
      `Owner sign-in (one-time link, valid 7 days): ${ownerLinkUrl(base, await issueOwnerLink(database.db))}`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError
      ? err.message
      : `owner-link failed: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
});

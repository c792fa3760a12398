import { issueOwnerLink, ownerLinkUrl } from '../modules/auth';
import { runScript } from './run-script';

// `npm run owner-link`: prints a new one-time sign-in link for the owner (user id 1); signing in
// with any link revokes the other unused ones. Whoever can run this can read the database, so it grants nothing new.
// With the embedded database (PGlite), stop the server first: one process at a time may open it;
// a running server prints a fresh link at every start anyway.

runScript('owner-link failed', async (config, database) => {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  const base = config.PUBLIC_ORIGIN ?? `http://${host}:${config.PORT}`;
  console.log(
    `Owner sign-in (one-time link, valid 7 days): ${ownerLinkUrl(base, await issueOwnerLink(database.db))}`,
  );
});

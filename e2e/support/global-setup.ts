import { request } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { startFakeGoogle } from '../../apps/server/test/helpers/fake-google';
import { E2E_GOOGLE } from './google';
import { ownerLink, startServer } from './server';

// One real server (embedded PGlite + ledger, built web app) for every spec file: starting it is the
// slow part, and the specs isolate themselves with their own browser contexts and users.
export default async function setup(project: TestProject) {
  // As `npm start` runs it: the platform accounts (fee wallet, RLUSD issuer and pool) bootstrapped,
  // so deploys and the RLUSD faucet work in every spec.
  // Google is a third party: a local stand-in with its real tokeninfo/userinfo payloads.
  const google = await startFakeGoogle({
    [E2E_GOOGLE.token]: {
      aud: E2E_GOOGLE.clientId,
      sub: E2E_GOOGLE.sub,
      email: E2E_GOOGLE.email,
      scope:
        'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
      expiresIn: 3599,
    },
  });
  const server = await startServer({
    PLATFORM_BOOTSTRAP: 'on',
    // The shared server keeps `npm start`'s 1 s close: it also runs the demo market for every spec,
    // and the bonding spec's swaps against the curve's ladder timed out once at 400 ms under CI.
    LEDGER_CLOSE_INTERVAL_MS: '1000',
    GOOGLE_CLIENT_ID: E2E_GOOGLE.clientId,
    GOOGLE_TOKENINFO_URL: `${google.base}/tokeninfo`,
    GOOGLE_USERINFO_URL: `${google.base}/v1/userinfo`,
  });
  project.provide('fakeGoogleUrl', google.base);
  project.provide('serverUrl', server.url);
  // The shared server's one-time owner link, used here once: the owner's signed-in session (its
  // cookies) for the specs that change platform settings on it (bonding.spec.ts and
  // launch-protection.spec.ts, through support/owner.ts; the admin spec runs its own server).
  const owner = await request.newContext();
  const signedIn = await owner.get(await ownerLink(server));
  if (!signedIn.ok()) throw new Error(`owner sign-in: ${signedIn.status()} ${await signedIn.text()}`);
  project.provide('ownerSession', JSON.stringify(await owner.storageState()));
  await owner.dispose();
  // The embedded ledger's WebSocket URL, from the server's start line: specs that need ledger state
  // the app has no route for (an issuer with holders) make it there with xrpl.js.
  project.provide('ledgerUrl', /\(ledger: \S+ (wss?:\/\/[^\s)]+)\)/.exec(server.output())?.[1] ?? '');
  return async () => {
    await server.stop();
    await new Promise((r) => google.server.close(r));
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
    /** The owner's signed-in session on the shared server (a Playwright storage state, JSON). */
    ownerSession: string;
    ledgerUrl: string;
    fakeGoogleUrl: string;
  }
}

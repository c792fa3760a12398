import type { TestProject } from 'vitest/node';
import { startServer } from './server';

// One real server (embedded PGlite + ledger, built web app) for every spec file: starting it is the
// slow part, and the specs isolate themselves with their own browser contexts and users.
export default async function setup(project: TestProject) {
  // As `npm start` runs it: the platform accounts (fee wallet, RLUSD issuer and pool) bootstrapped,
  // so deploys and the RLUSD faucet work in every spec.
  const server = await startServer({ PLATFORM_BOOTSTRAP: 'on' });
  project.provide('serverUrl', server.url);
  // The embedded ledger's WebSocket URL, from the server's start line: specs that need ledger state
  // the app has no route for (an issuer with holders) make it there with xrpl.js.
  project.provide('ledgerUrl', /\(ledger: \S+ (wss?:\/\/[^\s)]+)\)/.exec(server.output())?.[1] ?? '');
  return async () => {
    await server.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
    ledgerUrl: string;
  }
}

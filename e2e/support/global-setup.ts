import type { TestProject } from 'vitest/node';
import { startServer } from './server';

// One real server (embedded PGlite + ledger, built web app) for every spec file: starting it is the
// slow part, and the specs isolate themselves with their own browser contexts and users.
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('serverUrl', server.url);
  return async () => {
    await server.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
  }
}

import { defineConfig } from 'vitest/config';

// Every workspace's unit and integration tests; e2e runs separately after the web build.
export default defineConfig({
  test: {
    // Both cores: most server files spend their time waiting on ledger closes and child servers,
    // so two at a time take the unit suite from 14 to 9 minutes on the 2-core machine.
    maxWorkers: 2,
    projects: ['packages/shared', 'packages/xrpl-standalone', 'apps/server', 'apps/web'],
  },
});

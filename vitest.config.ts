import { defineConfig } from 'vitest/config';

// Every workspace's unit and integration tests; e2e runs separately after the web build.
export default defineConfig({
  test: {
    projects: ['packages/shared', 'packages/xrpl-standalone', 'apps/server', 'apps/web'],
  },
});

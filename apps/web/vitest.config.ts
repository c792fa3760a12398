import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Component tests: the real components rendered into jsdom with React Testing Library. Only what
// the browser gives a page (fetch answers, a WebSocket, timers) is stood in for, per test.
export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    // A component test takes well under a second alone; beside the server's ledger tests on two
    // cores, jsdom renders of the swap box took over vitest's default 5 s (seen at this stop's merge).
    testTimeout: 20_000,
  },
});

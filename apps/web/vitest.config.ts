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
  },
});

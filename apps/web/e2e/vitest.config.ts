import { defineConfig } from 'vitest/config';

// Browser tests: real Chromium (Debian's) against the real API serving the built SPA on a fresh,
// seeded SQLite database that global-setup starts. One file at a time: they share that server.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./support/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});

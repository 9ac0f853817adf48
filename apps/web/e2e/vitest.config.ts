import { defineConfig } from 'vitest/config';
import { e2eWorkers } from './support/env';

// Browser tests: real Chromium (Debian's) against the real API serving the built SPA on fresh,
// seeded SQLite databases that global-setup starts, one server per worker. Two files at once by
// default (E2E_WORKERS): the files wait on the browser and the network far more than they compute.
const workers = e2eWorkers();

export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./support/global-setup.ts'],
    fileParallelism: workers > 1,
    maxWorkers: workers,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});

import { defineConfig } from 'vitest/config';

// The scale-out bed (npm run test:cluster): real mariadbd primary and replica, the compiled API
// twice, HAProxy in front. One scenario file at a time: each starts and tears down its own bed.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    environment: 'node',
    include: ['scenarios/**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});

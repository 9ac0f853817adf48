import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// API tests run once per database engine. Engine-independent tests (test/unit) run once.
const mysqlUrl = process.env.TEST_MYSQL_URL;
// Only when vitest itself loads this file (knip reads it too, to find the test files).
if (!mysqlUrl && process.env.VITEST) {
  const line =
    'SKIPPED: API tests against MySQL/MariaDB — TEST_MYSQL_URL is not set (e.g. mysql://root@127.0.0.1:3306/test).';
  if (process.env.CI === 'true') throw new Error(`${line} With CI=true this is a failure.`);
  process.stderr.write(`\n\x1b[33m*** ${line} ***\x1b[0m\n\n`);
}

// test/fuzz sends its full count on SQLite and half of it on MySQL (FUZZ_SCALE, test/fuzz/fuzz-world.ts).
const engineTests = [
  'test/db/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/fuzz/**/*.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker per core but one: a single worker on a 2-core machine, where
    // these tests spend much of their time waiting on MariaDB and HTTP. Two workers halved the
    // suite's wall time there (each file has its own database, so files never share state).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each file has its own database and app, so files need no fresh module graph each: a worker
    // keeps the modules it loaded for its next file. Loading the app again per file was half of
    // the suite's time (24 HTTP files: 84 s isolated, 43 s not).
    isolate: false,
    // Builds dist/ once for the tests that start the compiled API, and migrates one template
    // database per engine that each file's database is copied from; then scans every response body,
    // log line and audit row the tests produced for secrets, failing the run on one.
    globalSetup: ['test/build.global-setup.ts', 'test/template-db.global-setup.ts', 'test/secret-scan.global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/unit/**/*.test.ts', ...engineTests],
          env: { TEST_DB: 'sqlite' },
        },
      },
      ...(mysqlUrl
        ? [
            {
              extends: true as const,
              test: { name: 'mysql', include: engineTests, env: { TEST_DB: 'mysql', TEST_MYSQL_URL: mysqlUrl } },
            },
          ]
        : []),
    ],
  },
});

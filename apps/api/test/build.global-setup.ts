import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Builds the production runtime (`dist/`, as `npm start` does) once before any test file runs:
 * the tests that start the API as a process (test/unit/process.test.ts, the webhook crash test)
 * run the compiled JavaScript, not TypeScript through tsx, whose compile at every start costs
 * seconds of CPU that neighbouring tests would feel. Vitest calls a global setup once per project
 * (and once for the root); the first call builds, synchronously, and the others find it done.
 */
const BUILT = 'API_DIST_BUILT';

export function setup() {
  if (process.env[BUILT]) return;
  process.env[BUILT] = '1';
  execFileSync(process.execPath, ['scripts/build.mjs'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: 'inherit',
  });
}

import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = path.resolve(fileURLToPath(import.meta.url), '../../..');
export const RESULTS_DIR = path.join(webDir, 'test-results');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const ADMIN = { email: 'admin@example.com', password: 'e2e-admin-password' } as const;
export const VIEWER = { email: 'vera.viewer@example.com', password: 'e2e-viewer-password' } as const;
export const MANAGER = { email: 'max.manager@example.com', password: 'e2e-manager-password' } as const;

/**
 * How many test files run at once, each worker on an API server and database of its own
 * (global-setup starts them): E2E_WORKERS, else two.
 */
export function e2eWorkers(): number {
  const asked = Number(process.env.E2E_WORKERS ?? 2);
  return Number.isInteger(asked) && asked > 0 ? asked : 2;
}

import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = path.resolve(fileURLToPath(import.meta.url), '../../..');
export const RESULTS_DIR = path.join(webDir, 'test-results');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const ADMIN = { email: 'admin@example.com', password: 'e2e-admin-password' } as const;
export const VIEWER = { email: 'vera.viewer@example.com', password: 'e2e-viewer-password' } as const;
export const MANAGER = { email: 'max.manager@example.com', password: 'e2e-manager-password' } as const;

import type { Actor } from '../auth/actor.js';
import { bucketKey, hit } from '../auth/rate-limit.js';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';

const EXPORTS_PER_WINDOW = 10;
const WINDOW_MS = 60_000;

/** Every export of any resource counts against one allowance per user, across instances. */
export async function assertExportRate(ctx: { db: Database; actor: Actor }): Promise<void> {
  const window = await hit(ctx.db, bucketKey('export', String(ctx.actor.id)), WINDOW_MS);
  if (window.hits <= EXPORTS_PER_WINDOW) return;
  const seconds = window.retryAfterSeconds;
  throw new AppError(
    'RATE_LIMITED',
    `Too many exports: at most ${EXPORTS_PER_WINDOW} a minute. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    { headers: { 'retry-after': String(seconds) } },
  );
}

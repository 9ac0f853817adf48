import type { Logger } from 'pino';
import { purgeStaleRateLimits } from '../auth/rate-limit.js';
import { purgeExpiredSessions, type SessionLimits } from '../auth/sessions.js';
import { purgeExpiredChallenges } from '../auth/two-factor-challenges.js';
import type { Database } from '../db/database.js';
import { isDatabaseUnreachable } from '../db/unavailable.js';
import { PRUNE_EVERY_MS, type Repeating, repeatAbout } from './repeat.js';

export interface HousekeepingDeps {
  db: Database;
  sessions: SessionLimits;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** For tests: how often, and the jitter's source. */
  everyMs?: number;
  random?: () => number;
}

/** One pass: sessions no request can use any more, and rate-limit windows that are over. */
export async function purgeExpired(db: Database, sessions: SessionLimits, now = new Date()) {
  return {
    sessions: await purgeExpiredSessions(db, sessions, now),
    rateLimits: await purgeStaleRateLimits(db, now.getTime()),
    // Sign-ins that never got their second step (five minutes each).
    twoFactorChallenges: await purgeExpiredChallenges(db, now),
  };
}

/**
 * Every instance purges about hourly, on the schedule of the webhook history's prune; rows that
 * are merely expired are harmless (every read checks the expiry), so a failed pass waits for the next.
 */
export function startHousekeeping({
  db,
  sessions,
  log,
  everyMs = PRUNE_EVERY_MS,
  random,
}: HousekeepingDeps): Repeating {
  const pass = async () => {
    try {
      const done = await purgeExpired(db, sessions);
      if (done.sessions || done.rateLimits || done.twoFactorChallenges)
        log.info(done, 'expired sessions and rate-limit windows purged');
    } catch (err) {
      if (isDatabaseUnreachable(err)) log.warn({ err: String(err) }, 'purge skipped: database unavailable');
      else log.error({ err }, 'purge of expired sessions and rate-limit windows failed');
    }
  };
  return repeatAbout(pass, everyMs, random);
}

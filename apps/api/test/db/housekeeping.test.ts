import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bucketKey, hit, purgeStaleRateLimits, RATE_ROWS_KEPT_MS } from '../../src/auth/rate-limit.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { createSession, purgeExpiredSessions, type SessionLimits } from '../../src/auth/sessions.js';
import type { Database } from '../../src/db/database.js';
import { purgeExpired, startHousekeeping } from '../../src/housekeeping/housekeeping.js';
import { seedAdministrator } from '../../src/seed/base.seeder.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

const MINUTE = 60_000;
const limits: SessionLimits = { idleMs: 30 * MINUTE, absoluteMs: 12 * 60 * MINUTE };
const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

let target: TestDatabaseTarget;
let db: Database;
let userId: number;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  await seedAdministrator(db, {
    adminEmail: 'keeper@example.com',
    adminPassword: 'keeper-password',
    adminRoleName: 'admin',
  });
  userId = (await db.models.User.findOne({ where: { email: 'keeper@example.com' } }))?.id ?? 0;
});
afterAll(async () => {
  await db.close();
  await target.drop();
});
beforeEach(async () => {
  await db.models.Session.destroy({ where: {} });
  await db.sequelize.query('DELETE FROM rate_limits');
});

/** A session started `startedAgo` ms before `now` and last seen `seenAgo` ms before it. */
async function sessionAt(now: Date, startedAgo: number, seenAgo: number): Promise<string> {
  const started = new Date(now.getTime() - startedAgo);
  const { token } = await createSession(db, userId, limits, { ip: null, userAgent: null }, started);
  const id = hashSecret(token);
  await db.models.Session.update({ last_seen_at: new Date(now.getTime() - seenAgo) }, { where: { id } });
  return id;
}

const sessionIds = async () =>
  (await db.models.Session.findAll({ attributes: ['id'], raw: true })).map((s) => s.id).sort();
const buckets = async () =>
  (await db.sequelize.query<{ bucket: string }>('SELECT bucket FROM rate_limits', { type: QueryTypes.SELECT }))
    .map((row) => row.bucket)
    .sort();

describe('purging expired sessions', () => {
  it('removes sessions past their absolute lifetime or idle too long, and keeps live ones', async () => {
    const now = new Date();
    const live = await sessionAt(now, 2 * 60 * MINUTE, 5 * MINUTE);
    await sessionAt(now, 13 * 60 * MINUTE, 1 * MINUTE); // past the 12 h lifetime
    await sessionAt(now, 60 * MINUTE, 31 * MINUTE); // idle longer than 30 min
    const fresh = await sessionAt(now, 0, 0);
    expect(await purgeExpiredSessions(db, limits, now)).toBe(2);
    expect(await sessionIds()).toEqual([live, fresh].sort());
  });

  it('works in bounded batches until none is left', async () => {
    const now = new Date();
    for (let i = 0; i < 7; i++) await sessionAt(now, 0, 40 * MINUTE);
    const live = await sessionAt(now, 0, 0);
    expect(await purgeExpiredSessions(db, limits, now, 3)).toBe(7);
    expect(await sessionIds()).toEqual([live]);
  });
});

describe('purging stale rate-limit windows', () => {
  it('removes windows that started longer ago than any limit counts, and keeps current ones', async () => {
    const now = Date.now();
    await hit(db, bucketKey('login', 'old@example.com'), MINUTE, now - RATE_ROWS_KEPT_MS - MINUTE);
    await hit(db, bucketKey('export', '7'), MINUTE, now - RATE_ROWS_KEPT_MS - 1);
    await hit(db, bucketKey('login', 'recent@example.com'), MINUTE, now - RATE_ROWS_KEPT_MS + MINUTE);
    await hit(db, bucketKey('export', '8'), MINUTE, now);
    expect(await purgeStaleRateLimits(db, now, 1)).toBe(2);
    expect(await buckets()).toEqual([bucketKey('login', 'recent@example.com'), bucketKey('export', '8')].sort());
  });
});

describe('the hourly pass', () => {
  it('purges both on the housekeeping schedule', async () => {
    const now = new Date();
    await sessionAt(now, 0, 40 * MINUTE);
    const live = await sessionAt(now, 0, 0);
    await hit(db, bucketKey('login', 'old@example.com'), MINUTE, now.getTime() - 2 * RATE_ROWS_KEPT_MS);
    const keeping = startHousekeeping({ db, sessions: limits, log: silentLog, everyMs: 20 });
    try {
      await expect.poll(sessionIds, { timeout: 5_000 }).toEqual([live]);
      await expect.poll(buckets, { timeout: 5_000 }).toEqual([]);
    } finally {
      await keeping.stop();
    }
  });

  it('reports what one pass removed', async () => {
    const now = new Date();
    await sessionAt(now, 0, 40 * MINUTE);
    await hit(db, bucketKey('export', '9'), MINUTE, now.getTime() - 2 * RATE_ROWS_KEPT_MS);
    expect(await purgeExpired(db, limits, now)).toEqual({ sessions: 1, rateLimits: 1, twoFactorChallenges: 0 });
  });
});

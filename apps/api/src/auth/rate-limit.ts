import { AppError } from '../errors.js';
import ipaddr from 'ipaddr.js';
import { QueryTypes } from 'sequelize';
import type { Database } from '../db/database.js';
import { inWriteTurn } from '../db/transaction.js';
import { hashSecret } from './secrets.js';

export interface RateWindow {
  hits: number;
  /** Seconds until the window resets, for Retry-After. */
  retryAfterSeconds: number;
}

/** Buckets name a scope and a hashed subject, so no e-mail or IP is stored in clear. */
export const bucketKey = (scope: string, subject: string) => `${scope}:${hashSecret(subject.toLowerCase())}`;

/**
 * The client a per-IP limit counts: an IPv4 address as itself (also when a dual-stack socket
 * reports it as `::ffff:a.b.c.d`), an IPv6 address by its /64. A /64 is the smallest block a
 * network hands one client, who may pick any of its 2^64 addresses for each request; counted
 * per address, one client would never meet the limit.
 */
function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${prefix.map((part) => part.toString(16)).join(':')}::/64`;
}

/** The bucket of a per-IP limit: every per-IP limit keys through here, so all group alike. */
export const clientBucketKey = (scope: string, ip: string) => bucketKey(scope, clientNetwork(ip));

function windowOf(startMs: number, hits: number, windowMs: number, now: number): RateWindow {
  return { hits, retryAfterSeconds: Math.max(1, Math.ceil((startMs + windowMs - now) / 1000)) };
}

/**
 * Counts one hit in a fixed window, atomically on both engines (a single upsert: concurrent
 * requests on several instances cannot lose increments), and returns the window's state.
 */
export async function hit(db: Database, bucket: string, windowMs: number, now = Date.now()): Promise<RateWindow> {
  const expiredBefore = now - windowMs;
  const sql =
    db.dialect === 'mysql'
      ? `INSERT INTO rate_limits (bucket, window_start_ms, hits) VALUES (:bucket, :now, 1)
         ON DUPLICATE KEY UPDATE
           hits = IF(window_start_ms <= :expiredBefore, 1, hits + 1),
           window_start_ms = IF(window_start_ms <= :expiredBefore, :now, window_start_ms)`
      : `INSERT INTO rate_limits (bucket, window_start_ms, hits) VALUES (:bucket, :now, 1)
         ON CONFLICT(bucket) DO UPDATE SET
           hits = CASE WHEN window_start_ms <= :expiredBefore THEN 1 ELSE hits + 1 END,
           window_start_ms = CASE WHEN window_start_ms <= :expiredBefore THEN :now ELSE window_start_ms END`;
  await inWriteTurn(db, () => db.sequelize.query(sql, { replacements: { bucket, now, expiredBefore } }));
  const state = await peek(db, bucket, windowMs, now);
  return state ?? windowOf(now, 1, windowMs, now);
}

/** The current window without counting a hit; null when there is none or it has expired. */
export async function peek(
  db: Database,
  bucket: string,
  windowMs: number,
  now = Date.now(),
): Promise<RateWindow | null> {
  const [row] = await db.sequelize.query<{ window_start_ms: number | string; hits: number }>(
    'SELECT window_start_ms, hits FROM rate_limits WHERE bucket = :bucket',
    { replacements: { bucket }, type: QueryTypes.SELECT },
  );
  if (!row) return null;
  const start = Number(row.window_start_ms);
  if (start <= now - windowMs) return null;
  return windowOf(start, Number(row.hits), windowMs, now);
}

export async function reset(db: Database, bucket: string): Promise<void> {
  await inWriteTurn(db, () =>
    db.sequelize.query('DELETE FROM rate_limits WHERE bucket = :bucket', { replacements: { bucket } }),
  );
}

/**
 * Rate-limit rows are kept this long after their window started: no limit's window is longer
 * (LOGIN_WINDOW_MINUTES is capped at a day, exports count per minute), so an older row only says
 * "no hits in the current window", which its absence says too.
 */
export const RATE_ROWS_KEPT_MS = 24 * 3_600_000;

/** Rows deleted per statement. */
const PURGE_BATCH = 1_000;

/** Housekeeping (hourly, housekeeping/): deletes the windows that are over, in batches. */
export async function purgeStaleRateLimits(db: Database, now = Date.now(), batch = PURGE_BATCH): Promise<number> {
  const before = now - RATE_ROWS_KEPT_MS;
  let purged = 0;
  for (;;) {
    const rows = await db.sequelize.query<{ bucket: string }>(
      'SELECT bucket FROM rate_limits WHERE window_start_ms <= :before LIMIT :batch',
      { replacements: { before, batch }, type: QueryTypes.SELECT },
    );
    if (rows.length === 0) return purged;
    const buckets = rows.map((row) => row.bucket);
    // A bucket hit again since it was read has a new window: the repeated condition keeps it.
    await inWriteTurn(db, () =>
      db.sequelize.query('DELETE FROM rate_limits WHERE bucket IN (:buckets) AND window_start_ms <= :before', {
        replacements: { buckets, before },
      }),
    );
    purged += rows.length;
    if (rows.length < batch) return purged;
  }
}

/** The 429 of too many sign-in attempts (passwords or codes), with when to try again. */
export function tooManyAttempts(window: RateWindow): AppError {
  const minutes = Math.ceil(window.retryAfterSeconds / 60);
  return new AppError(
    'RATE_LIMITED',
    `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { headers: { 'retry-after': String(window.retryAfterSeconds) } },
  );
}

import { createHash } from 'node:crypto';
import { type ImportOptions, readIdempotencyKey } from '@app/contracts';
import { QueryTypes, type Transaction, UniqueConstraintError } from 'sequelize';
import type { Database } from '../../db/database.js';
import { sqlDate } from '../../db/sql-date.js';
import { AppError } from '../../errors.js';
import { type JobRow, parseJson } from '../../jobs/job-rows.js';
import { readJob } from '../../jobs/job-store.js';

/**
 * An upload's `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header), per caller:
 * the same key with the same file and options answers the first job; with another payload, 422;
 * while the first request with it is still reading its file, 409. See migration 0017.
 */

/** The key the header names; 400 for one past 255 characters (never cut) or not visible ASCII. */
export function idempotencyKeyOf(header: string | null): string | null {
  if (header === null) return null;
  const read = readIdempotencyKey(header);
  if ('refusal' in read) throw new AppError('BAD_REQUEST', read.refusal);
  return read.key;
}

/** JSON with its object keys sorted, so equal options give one text whatever order they came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What a key is held to: the file's bytes (their SHA-256) and every option, a dry run's included. */
export function payloadFingerprint(fileSha256: string, options: ImportOptions): string {
  return createHash('sha256').update(fileSha256).update('\n').update(canonical(options)).digest('hex');
}

/** The caller's job queued with this key, and the fingerprint it was queued with (null before 0017). */
export async function jobByKey(
  db: Database,
  actorId: number,
  key: string,
): Promise<{ row: JobRow; fingerprint: string | null } | null> {
  const [found] = await db.sequelize.query<{ id: number | string; idempotency_fingerprint: string | null }>(
    'SELECT id, idempotency_fingerprint FROM jobs WHERE actor_id = :actorId AND idempotency_key = :key',
    { replacements: { actorId, key }, type: QueryTypes.SELECT },
  );
  if (!found) return null;
  const row = await readJob(db, Number(found.id));
  return row ? { row, fingerprint: found.idempotency_fingerprint } : null;
}

/** The first job for a retry: 422 when the key came first with another payload. */
export function answerRetry(first: { row: JobRow; fingerprint: string | null }, fingerprint: string): JobRow {
  // A job queued before fingerprints were kept cannot be compared: it answers as it always did.
  if (first.fingerprint !== null && first.fingerprint !== fingerprint) {
    const params = parseJson<{ file?: { name?: string | null } }>(first.row.params, {});
    const what = params.file?.name ? ` (the file "${params.file.name}")` : '';
    throw new AppError(
      'IDEMPOTENCY_KEY_REUSED',
      `This Idempotency-Key was first sent with a different file or different options${what}, as job ${first.row.id}: send a new key for a new import.`,
    );
  }
  return first.row;
}

/** A claim older than this was left by a request that died: the key is free again. */
const CLAIM_STALE_MS = 60 * 60 * 1000;

/**
 * Takes the key for a request about to read its file: false when another request holds it (or
 * held it and died less than an hour ago).
 */
export async function claimKey(db: Database, actorId: number, key: string): Promise<boolean> {
  const now = new Date();
  await db.sequelize.query(
    'DELETE FROM idempotency_claims WHERE actor_id = :actorId AND idempotency_key = :key AND claimed_at < :stale',
    { replacements: { actorId, key, stale: sqlDate(db, new Date(now.getTime() - CLAIM_STALE_MS)) } },
  );
  try {
    await db.sequelize.query(
      'INSERT INTO idempotency_claims (actor_id, idempotency_key, claimed_at) VALUES (:actorId, :key, :now)',
      { replacements: { actorId, key, now: sqlDate(db, now) } },
    );
    return true;
  } catch (err) {
    if (err instanceof UniqueConstraintError) return false;
    throw err;
  }
}

/** Gives the key back: in the transaction that queues its job, or once its request has failed. */
export async function releaseKey(db: Database, actorId: number, key: string, tx?: Transaction): Promise<void> {
  await db.sequelize.query('DELETE FROM idempotency_claims WHERE actor_id = :actorId AND idempotency_key = :key', {
    replacements: { actorId, key },
    ...(tx ? { transaction: tx } : {}),
  });
}

export const keyInUse = () =>
  new AppError(
    'IDEMPOTENCY_KEY_IN_USE',
    'A request with this Idempotency-Key is still being taken in: retry once it has been answered.',
  );

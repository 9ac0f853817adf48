import { expect } from 'vitest';
import { UNUSABLE_PASSWORD } from '../../src/auth/password.js';
import type { ApiInstance } from './api-instance.js';
import type { MariaDbInstance } from './mariadb.js';
import { sleep } from './ports.js';

const DB = 'useradmin';
/** Users per INSERT … SELECT: each its own transaction, so the replica applies them as they come. */
const SEED_BATCH = 25_000;

/**
 * Seeds `count` active users whose e-mail ends in `@${domain}` straight on the primary, set-based
 * from MariaDB's sequence engine. The triggers keep user_stats and the search index as for any
 * write (the index's per-row trigger is most of the cost: names and e-mails are kept short, so
 * each user has about a dozen trigrams); the replica receives them like any other transaction.
 */
export async function seedJobUsers(primary: MariaDbInstance, count: number, domain: string): Promise<void> {
  for (let from = 1; from <= count; from += SEED_BATCH) {
    const to = Math.min(count, from + SEED_BATCH - 1);
    await primary.sql(
      `INSERT INTO users (name, email, password_hash, is_active, lock_version, created_at, updated_at)
       SELECT CONCAT('S', seq), CONCAT('s', seq, '@${domain}'), '${UNUSABLE_PASSWORD}', 1, 0,
              UTC_TIMESTAMP(3), UTC_TIMESTAMP(3)
         FROM seq_${from}_to_${to}`,
      DB,
    );
  }
}

/** A job's row as the primary has it, and the process id of the runner holding its lease. */
export interface JobState {
  status: string;
  total: number;
  processed: number;
  changed: number;
  skipped: number;
  failed: number;
  /** Claims so far: the first, and one per takeover. */
  attempts: number;
  holderPid: number | null;
  error: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

interface RawJob {
  status: string;
  total: number;
  processed: number;
  changed: number;
  skipped: number;
  failed: number;
  attempts: number;
  lease_owner: string | null;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}

export async function jobState(primary: MariaDbInstance, id: number): Promise<JobState> {
  const [row] = (await primary.sql(
    `SELECT status, total, processed, changed, skipped, failed, attempts, lease_owner, error, started_at, finished_at
       FROM jobs WHERE id = ${Number(id)}`,
    DB,
  )) as RawJob[];
  if (!row) throw new Error(`job ${id} is not in the jobs table`);
  // The runner names itself host:pid:nonce (jobs/runner.ts).
  const pid = row.lease_owner ? /:(\d+):[^:]*$/.exec(row.lease_owner)?.[1] : undefined;
  return {
    status: row.status,
    total: Number(row.total),
    processed: Number(row.processed),
    changed: Number(row.changed),
    skipped: Number(row.skipped),
    failed: Number(row.failed),
    attempts: Number(row.attempts),
    holderPid: pid ? Number(pid) : null,
    error: row.error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** The instance whose runner holds the job's lease, if one of `instances` does. */
export const holderOf = (instances: readonly ApiInstance[], state: JobState) =>
  instances.find((i) => i.running && i.pid === state.holderPid);

/**
 * Polls the job on the primary until `done` says so; a failed or cancelled job ends the wait at
 * once. Reads that fail (the primary is away) are retried until `timeoutMs`.
 */
export async function waitForJob(
  primary: MariaDbInstance,
  id: number,
  what: string,
  done: (s: JobState) => boolean,
  timeoutMs = 60_000,
): Promise<JobState> {
  const started = Date.now();
  let last: JobState | string = 'never read';
  for (;;) {
    try {
      last = await jobState(primary, id);
      if (last.status === 'failed' || last.status === 'cancelled') {
        throw new Error(`job ${id} ended ${last.status} while waiting for ${what}: ${last.error}`);
      }
      if (done(last)) return last;
    } catch (err) {
      if (err instanceof Error && err.message.startsWith(`job ${id} ended`)) throw err;
      last = String(err);
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; job: ${JSON.stringify(last)}`);
    }
    await sleep(50);
  }
}

/** The first row of `sql`, every column a number (the driver hands SUMs back as text). */
const one = async (primary: MariaDbInstance, sql: string) =>
  Object.fromEntries(
    Object.entries(((await primary.sql(sql, DB)) as Array<Record<string, unknown>>)[0] ?? {}).map(([k, v]) => [
      k,
      v === null ? null : Number(v),
    ]),
  );

/**
 * What a bulk deactivation job over every user of `domain` must have left, however often its
 * runner died: each of those users inactive; named by exactly one of the job's chunk audit rows
 * and by no other audit row; one user.deactivated event each, showing them inactive, and no
 * other user event; one bulk.completed for the job; one delivery per event; the job's own audit
 * rows once each. Assumes nothing else changed a user's status meanwhile.
 */
export async function expectJobApplied(primary: MariaDbInstance, jobId: number, domain: string, count: number) {
  const mine = `u.email LIKE '%@${domain}'`;
  expect(await one(primary, `SELECT COUNT(*) AS users, SUM(u.is_active) AS active FROM users u WHERE ${mine}`)).toEqual(
    { users: count, active: 0 },
  );

  // Chunk rows name the job in their context; each seeded user must be a target exactly once.
  const audit = await one(
    primary,
    `SELECT COUNT(*) AS targets, COUNT(DISTINCT t.target_id) AS users, SUM(a.id IS NULL) AS orphans,
            SUM(a.action <> 'users.bulk.setActive' OR JSON_VALUE(a.context, '$.job_id') <> ${jobId}) AS foreign_rows
       FROM users u JOIN audit_targets t ON t.target_id = u.id LEFT JOIN audit_logs a ON a.id = t.audit_id
      WHERE ${mine}`,
  );
  expect(audit).toEqual({ targets: count, users: count, orphans: 0, foreign_rows: 0 });
  const ends = await one(
    primary,
    `SELECT SUM(action = 'job.submit') AS submitted, SUM(action = 'job.finish') AS finished,
            SUM(action = 'job.finish' AND JSON_VALUE(context, '$.status') = 'succeeded') AS succeeded
       FROM audit_logs WHERE target_type = 'job' AND JSON_CONTAINS(target_ids, '${jobId}')`,
  );
  expect(ends).toEqual({ submitted: 1, finished: 1, succeeded: 1 });

  // The outbox: an event exists exactly when its change committed, never twice for one change.
  const events = await one(
    primary,
    `SELECT COUNT(*) AS events, COUNT(DISTINCT u.id) AS users, SUM(u.id IS NULL) AS strangers,
            SUM(JSON_EXTRACT(e.payload, '$.data.user.is_active') <> 'false') AS shown_active
       FROM webhook_events e
       LEFT JOIN users u ON u.id = JSON_VALUE(e.payload, '$.data.user.id') AND ${mine}
      WHERE e.type = 'user.deactivated'`,
  );
  expect(events).toEqual({ events: count, users: count, strangers: 0, shown_active: 0 });
  const others = (await primary.sql(
    "SELECT type, payload FROM webhook_events WHERE type <> 'user.deactivated' ORDER BY id",
    DB,
  )) as Array<{ type: string; payload: string }>;
  expect(others.map((e) => e.type)).toEqual(['bulk.completed']);
  const summary = JSON.parse(others[0]?.payload ?? '{}') as { data?: Record<string, unknown> };
  expect(summary.data).toMatchObject({
    operation: 'setActive',
    job_id: jobId,
    job_status: 'succeeded',
    requested: count,
    affected: count,
  });
  const deliveries = await one(
    primary,
    'SELECT COUNT(*) AS deliveries, COUNT(DISTINCT event_id) AS events, (SELECT COUNT(*) FROM webhook_events) AS outbox FROM webhook_deliveries',
  );
  expect(deliveries).toEqual({ deliveries: count + 1, events: count + 1, outbox: count + 1 });
}

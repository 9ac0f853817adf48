import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { type ApiProcess, startApiProcess } from '../support/api-process.js';
import { given } from '../support/given.js';
import { expectStatsFresh } from '../support/jobs-bed.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';
import { clearOutbox, outboxEvents, seedUsers, subscribe } from '../support/webhooks.js';

/**
 * A job survives the process running it: the API is killed (SIGKILL, no shutdown) in the middle
 * of a job, and a worker process (no HTTP) takes the job over once the lease runs out and
 * finishes it from the last committed chunk. Afterwards every user's state, audit rows, webhook
 * events and the counters agree, as if nothing had happened.
 */

const children: ApiProcess[] = [];
let target: TestDatabaseTarget;
let db: Database;
let token: string;

/** An instance that delivers no webhooks (the test reads the outbox), with small chunks and a short lease. */
async function startApi(env: Record<string, string>, options?: { ready?: boolean }) {
  const api = await startApiProcess(
    target,
    { WEBHOOKS_DISPATCHER: 'false', JOBS_CHUNK_SIZE: '40', JOBS_LEASE_SECONDS: '1', ...env },
    options,
  );
  children.push(api);
  return api;
}

async function jobRow(id: number) {
  const [row] = await db.sequelize.query<{ status: string; processed: number | string; changed: number | string }>(
    'SELECT status, processed, changed FROM jobs WHERE id = ?',
    { replacements: [id], type: QueryTypes.SELECT },
  );
  return { status: row?.status, processed: Number(row?.processed), changed: Number(row?.changed) };
}

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  await seedPermissionsAndRoles(db);
  const g = given(db);
  token = await g.token((await g.user({ roles: ['admin'] })).id);
});
afterAll(async () => {
  for (const api of children) await api.kill();
  await db.close();
  await target.drop();
});

describe('a job whose process is killed', () => {
  it('is finished by a worker from its last committed chunk: no user changed twice, none missed', async () => {
    await clearOutbox(db);
    await subscribe(db, ['user.deactivated', 'bulk.completed']);
    const prefix = `crashjob${process.pid}`;
    const ids = await seedUsers(db, 1_200, prefix);
    const api = await startApi({});
    const res = await fetch(`${api.base}/api/users/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'setActive', active: false, selection: { query: { q: prefix } } }),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const { job } = (await res.json()) as { job: { id: number } };
    // Killed part-way: some chunks committed, the rest not started (or one cut short).
    await until(
      'the first chunks',
      () => jobRow(job.id),
      (r) => r.processed >= 120,
    );
    await api.kill();
    const cut = await jobRow(job.id);
    expect(cut.status).toBe('running');
    expect(cut.processed).toBeLessThan(ids.length);

    const worker = await startApi({ PROCESS_ROLE: 'worker' }, { ready: false });
    const done = await until(
      'the job',
      () => jobRow(job.id),
      (r) => r.status === 'succeeded',
    );
    expect(done).toEqual({ status: 'succeeded', processed: ids.length, changed: ids.length });
    // The worker listens on nothing.
    await expect(fetch(`${worker.base}/api/ready`)).rejects.toThrow();
    await worker.kill();

    // Every user inactive; each named by exactly one chunk's audit row; one event each.
    const [inactive] = await db.sequelize.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM users WHERE email LIKE ? AND is_active = 0',
      { replacements: [`${prefix}-%`], type: QueryTypes.SELECT },
    );
    expect(Number(inactive?.n)).toBe(ids.length);
    const audits = await db.sequelize.query<{ target_ids: string | number[]; context: string | object }>(
      "SELECT target_ids, context FROM audit_logs WHERE action = 'users.bulk.setActive'",
      { type: QueryTypes.SELECT },
    );
    const named = audits
      .filter((a) => (typeof a.context === 'string' ? JSON.parse(a.context) : a.context).job_id === job.id)
      .flatMap((a) => (typeof a.target_ids === 'string' ? JSON.parse(a.target_ids) : a.target_ids) as number[]);
    expect(named.length).toBe(ids.length);
    expect(new Set(named).size).toBe(ids.length);
    const events = await outboxEvents(db);
    const deactivated = events
      .filter((e) => e.type === 'user.deactivated')
      .map((e) => (e.payload.data as { user: { id: number } }).user.id);
    expect(deactivated.length).toBe(ids.length);
    expect(new Set(deactivated)).toEqual(new Set(ids));
    expect(events.filter((e) => e.type === 'bulk.completed')).toHaveLength(1);
    await expectStatsFresh(db);
  }, 120_000);
});

import type { Job } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { AuditChanges } from '../../src/db/models/audit.model.js';
import type { Database } from '../../src/db/database.js';
import { jobKinds, jobsSettings } from '../../src/app/job-kinds.js';
import type { RequestActivity } from '../../src/request-activity.js';
import { type JobKindRunner, type JobRunner, startJobRunner } from '../../src/jobs/runner.js';
import { given } from './given.js';
import { request } from './http.js';
import { startTestApp, type TestApp } from './test-app.js';

type Caller = ReturnType<typeof request>;

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const finished = (status: string) => ['succeeded', 'failed', 'cancelled'].includes(status);
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

let counter = 0;

/**
 * A test file's job bed: an app on its own database, an administrator's API, and job runners
 * started by the tests (all stopped after each test, as an instance shutting down stops its own).
 */
export function jobsBed() {
  const runners: JobRunner[] = [];
  let t: TestApp;
  let adminId = 0;
  let admin: Caller;
  let adminToken = '';
  const bed = {
    get t() {
      return t;
    },
    get adminId() {
      return adminId;
    },
    get admin() {
      return admin;
    },
    /** The administrator's API token, for requests `admin` cannot make (a raw body). */
    get adminToken() {
      return adminToken;
    },

    /** A runner as every API process starts one, with chunks of `chunkSize` users (a dry run's too). */
    runner(
      chunkSize = 3,
      kinds: Record<string, JobKindRunner> = jobKinds(t.db, t.config),
      beside: { activity?: RequestActivity; niceRatio?: number } = {},
    ) {
      const started = startJobRunner({
        db: t.db,
        settings: {
          ...jobsSettings(t.config),
          chunkSize,
          dryRunChunkSize: chunkSize,
          pollMs: 20,
          leaseMs: 5_000,
          niceRatio: beside.niceRatio ?? 0,
        },
        kinds,
        log: silent,
        ...(beside.activity ? { activity: beside.activity } : {}),
      });
      runners.push(started);
      return started;
    },

    /** Stops the runners started so far (jobs submitted afterwards stay queued). */
    async stopRunners() {
      await Promise.all(runners.splice(0).map((r) => r.stop()));
    },

    /** `n` users whose names share a fresh word, so a selection can pick exactly them. */
    async cohort(n: number, spec: { active?: boolean; roles?: string[] } = {}) {
      counter += 1;
      const word = `Cohort${counter}x${process.pid}`;
      const ids: number[] = [];
      for (let i = 0; i < n; i++) ids.push((await given(t.db).user({ name: `${word} Member ${i}`, ...spec })).id);
      return { word, ids };
    },

    /** The job as `caller` sees it once `until` holds of its status (by default: once it has ended). */
    async waitForJob(id: number, caller: Caller = admin, until: (status: string) => boolean = finished) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const res = await caller.get(`/api/jobs/${id}`);
        expect(res.statusCode).toBe(200);
        const { item: job } = res.json() as { item: Job };
        if (until(job.status)) return job;
        if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },

    /** Each user's `is_active`, in id order, deleted ones included. */
    activeOf: async (ids: number[]) =>
      (await t.db.models.User.findAll({ where: { id: ids }, paranoid: false, order: [['id', 'ASC']] })).map(
        (u) => u.is_active,
      ),

    auditOf: (action: string) => auditRows(t.db, action),
  };

  beforeAll(async () => {
    t = await startTestApp();
    adminId = (await given(t.db).user({ roles: ['admin'], name: 'Job Admin' })).id;
    adminToken = await given(t.db).token(adminId);
    admin = request(t.app, { token: adminToken });
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });
  afterAll(() => t.close());
  return bed;
}

/** The audit rows of `action`, oldest first: the users they name, their changes and context. */
export async function auditRows(db: Database, action: string) {
  const rows = await db.models.AuditLog.findAll({ where: { action }, order: [['id', 'ASC']] });
  return rows.map((r) => ({
    targets: json<number[]>(r.target_ids),
    changes: json<AuditChanges | null>(r.changes),
    context: json<Record<string, unknown>>(r.context),
  }));
}

/**
 * The `is_active` each of `jobIds`' chunks set, by user, oldest first. A chunk's row also names
 * the users it found already so (`context.unchanged`): those it did not change are left out.
 */
export async function activeChangesByUser(db: Database, jobIds: number[]): Promise<Map<number, boolean[]>> {
  const byUser = new Map<number, boolean[]>();
  for (const row of await auditRows(db, 'users.bulk.setActive')) {
    if (!jobIds.includes(row.context.job_id as number)) continue;
    const unchanged = new Set((row.context.unchanged as number[] | undefined) ?? []);
    const after = Boolean(row.changes?.is_active?.after);
    for (const id of row.targets.filter((t) => !unchanged.has(t))) byUser.set(id, [...(byUser.get(id) ?? []), after]);
  }
  return byUser;
}

/** The id of the seeded administrators' role. */
export async function adminRoleId(db: Database): Promise<number> {
  const role = await db.models.Role.findOne({ where: { name: 'admin' } });
  if (!role) throw new Error('the admin role is not seeded');
  return role.id;
}

/** How many active, non-deleted users hold the admin role: the last-administrator rule's count. */
export async function activeAdmins(db: Database): Promise<number> {
  const [row] = await db.sequelize.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM user_roles ur JOIN users u ON u.id = ur.user_id
      WHERE ur.role_id = ? AND u.is_active = 1 AND u.deleted_at IS NULL`,
    { replacements: [await adminRoleId(db)], type: QueryTypes.SELECT },
  );
  return Number(row?.n);
}

/** Asserts the counters the list's totals come from equal a fresh count of the users. */
export async function expectStatsFresh(db: Database): Promise<void> {
  const [stats] = await db.sequelize.query<{ total: number | string; active: number | string }>(
    'SELECT total, active FROM user_stats WHERE id = 1',
    { type: QueryTypes.SELECT },
  );
  const [fresh] = await db.sequelize.query<{ total: number | string; active: number | string }>(
    'SELECT COUNT(*) AS total, SUM(CASE WHEN is_active = 1 THEN 1 ELSE 0 END) AS active FROM users WHERE deleted_at IS NULL',
    { type: QueryTypes.SELECT },
  );
  expect({ total: Number(stats?.total), active: Number(stats?.active) }).toEqual({
    total: Number(fresh?.total),
    active: Number(fresh?.active),
  });
}

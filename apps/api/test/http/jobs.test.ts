import { parse } from 'csv-parse/sync';
import { PERMISSIONS } from '@app/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobKinds, jobsSettings } from '../../src/app/job-kinds.js';
import { claimJobs, pruneFinishedJobs } from '../../src/jobs/job-store.js';
import { type JobKindRunner, type JobRunner, startJobRunner } from '../../src/jobs/runner.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { clearOutbox, outboxEvents, subscribe } from '../support/webhooks.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let adminId: number;
let admin: ReturnType<typeof request>;
const runners: JobRunner[] = [];
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A runner as every API process starts one, with chunks of `chunkSize` users. */
function runner(chunkSize = 3, kinds: Record<string, JobKindRunner> = jobKinds(t.db, t.config)) {
  const started = startJobRunner({
    db: t.db,
    settings: { ...jobsSettings(t.config), chunkSize, pollMs: 20, leaseMs: 5_000 },
    kinds,
    log: silent,
  });
  runners.push(started);
  return started;
}

let counter = 0;
/** `n` users whose names share a fresh word, so a selection can pick exactly them. */
async function cohort(n: number, spec: { active?: boolean } = {}) {
  counter += 1;
  const word = `Cohort${counter}x${process.pid}`;
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push((await given(t.db).user({ name: `${word} Member ${i}`, ...spec })).id);
  return { word, ids };
}

async function waitForJob(
  id: number,
  caller = admin,
  until = (s: string) => ['succeeded', 'failed', 'cancelled'].includes(s),
) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await caller.get(`/api/jobs/${id}`);
    expect(res.statusCode).toBe(200);
    const { job } = res.json();
    if (until(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const activeOf = async (ids: number[]) =>
  (await t.db.models.User.findAll({ where: { id: ids }, paranoid: false, order: [['id', 'ASC']] })).map(
    (u) => u.is_active,
  );

async function auditOf(action: string) {
  const rows = await t.db.models.AuditLog.findAll({ where: { action }, order: [['id', 'ASC']] });
  return rows.map((r) => ({
    targets: (typeof r.target_ids === 'string' ? JSON.parse(r.target_ids) : r.target_ids) as number[],
    context: (typeof r.context === 'string' ? JSON.parse(r.context) : r.context) as Record<string, unknown>,
  }));
}

beforeAll(async () => {
  t = await startTestApp();
  adminId = (await given(t.db).user({ roles: ['admin'], name: 'Job Admin' })).id;
  admin = request(t.app, { token: await given(t.db).token(adminId) });
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});
afterAll(() => t.close());

describe('POST /users/bulk with a selection', () => {
  it('answers 202 with a queued job, then changes every match in chunks, frozen at submission', async () => {
    const { word, ids } = await cohort(8);
    const [left, ...rest] = ids as [number, ...number[]];
    const res = await admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: { query: { q: word }, except: [left] },
    });
    expect(res.statusCode).toBe(202);
    const { job } = res.json();
    expect(job).toMatchObject({
      kind: 'bulk',
      operation: 'setActive',
      active: false,
      dryRun: false,
      status: 'queued',
      progress: { total: 7, processed: 0, changed: 0, skipped: 0, failed: 0 },
      actor_id: adminId,
      via: { kind: 'token' },
    });
    // A user matching the query but created after the submission is not swept in.
    const late = (await given(t.db).user({ name: `${word} Late` })).id;
    runner(3);
    const done = await waitForJob(job.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { total: 7, processed: 7, changed: 7, skipped: 0 } });
    expect(done.finished_at).not.toBeNull();
    expect(await activeOf(rest)).toEqual(rest.map(() => false));
    expect(await activeOf([left, late])).toEqual([true, true]);
    // One audit row per chunk naming its users, each user once; the job's own start and end.
    const chunks = (await auditOf('users.bulk.setActive')).filter((a) => a.context.job_id === job.id);
    expect(chunks.map((c) => c.targets.length)).toEqual([3, 3, 1]);
    expect(chunks.flatMap((c) => c.targets).sort((a, b) => a - b)).toEqual(rest);
    expect((await auditOf('job.submit')).some((a) => a.targets.includes(job.id))).toBe(true);
    const finish = (await auditOf('job.finish')).find((a) => a.targets.includes(job.id));
    expect(finish?.context).toMatchObject({ status: 'succeeded', progress: { processed: 7, changed: 7 } });
  });

  it('skips by the same rules as one change, and reports each skip with its e-mail and code', async () => {
    const { word, ids } = await cohort(2);
    await t.db.models.User.update({ name: `${word} Admin Itself` }, { where: { id: adminId } });
    try {
      const res = await admin.post('/api/users/bulk', {
        operation: 'setActive',
        active: false,
        selection: { query: { q: word } },
      });
      expect(res.statusCode).toBe(202);
      runner(2);
      const done = await waitForJob(res.json().job.id);
      expect(done).toMatchObject({
        status: 'succeeded',
        progress: { total: 3, processed: 3, changed: 2, skipped: 1 },
        counts: { SELF_DEACTIVATION: 1 },
      });
      expect(await activeOf([adminId, ...ids])).toEqual([true, false, false]);
      const me0 = (await t.db.models.User.findByPk(adminId))?.email;
      expect((await admin.get(`/api/jobs/${done.id}`)).json().examples).toEqual({
        SELF_DEACTIVATION: [{ id: adminId, email: me0, message: expect.stringContaining('your own') }],
      });
      const json = await admin.get(`/api/jobs/${done.id}/report?format=json`);
      expect(json.statusCode).toBe(200);
      const me = (await t.db.models.User.findByPk(adminId))?.email;
      expect(JSON.parse(json.body)).toEqual([
        { id: adminId, email: me, outcome: 'skipped', code: 'SELF_DEACTIVATION', message: expect.any(String) },
      ]);
      const csv = await admin.get(`/api/jobs/${done.id}/report?format=csv`);
      expect(csv.headers['content-type']).toContain('text/csv');
      const lines = parse(csv.body, { bom: true }) as string[][];
      expect(lines[0]).toEqual(['id', 'email', 'outcome', 'code', 'message']);
      expect(lines.slice(1)).toEqual([[String(adminId), me, 'skipped', 'SELF_DEACTIVATION', expect.any(String)]]);
    } finally {
      await t.db.models.User.update({ name: 'Job Admin' }, { where: { id: adminId } });
    }
  });

  it('a dry run judges every match, changes nothing and counts what would change', async () => {
    const { word, ids } = await cohort(4, { active: false });
    const res = await admin.post('/api/users/bulk', {
      operation: 'delete',
      dryRun: true,
      selection: { query: { q: word } },
    });
    expect(res.json().job).toMatchObject({ dryRun: true, status: 'queued' });
    runner(3);
    const done = await waitForJob(res.json().job.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { processed: 4, changed: 4, skipped: 0 } });
    expect(await t.db.models.User.count({ where: { id: ids } })).toBe(4);
    expect((await auditOf('users.bulk.delete')).filter((a) => a.context.job_id === done.id)).toEqual([]);
  });

  it('resumes from the last committed chunk when its runner stops, and changes no user twice', async () => {
    const { word, ids } = await cohort(9);
    const { job } = (
      await admin.post('/api/users/bulk', { operation: 'setActive', active: false, selection: { query: { q: word } } })
    ).json();
    // The first runner stops after its first chunk (as an instance being shut down does).
    const real = jobKinds(t.db, t.config);
    let first: JobRunner | null = null;
    let calls = 0;
    const stopping = {
      bulk: {
        ...real.bulk,
        chunk: async (...args: Parameters<JobKindRunner['chunk']>) => {
          const out = await (real.bulk as JobKindRunner).chunk(...args);
          calls += 1;
          if (calls === 1) void first?.stop();
          return out;
        },
      } as JobKindRunner,
    };
    first = runner(3, stopping);
    const paused = await waitForJob(job.id, admin, () => calls >= 1);
    await first.stop();
    const mid = await waitForJob(job.id, admin, () => true);
    expect(mid.status).toBe('running');
    expect(mid.progress.processed).toBe(3);
    runner(3);
    const done = await waitForJob(paused.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { processed: 9, changed: 9 } });
    const targets = (await auditOf('users.bulk.setActive'))
      .filter((a) => a.context.job_id === job.id)
      .flatMap((a) => a.targets)
      .sort((a, b) => a - b);
    expect(targets).toEqual(ids);
  });

  it('is taken over by another runner when its holder stops sending heartbeats', async () => {
    const { word, ids } = await cohort(4);
    const { job } = (
      await admin.post('/api/users/bulk', { operation: 'setActive', active: false, selection: { query: { q: word } } })
    ).json();
    // A holder that died at once: claimed with a lease that has already run out.
    expect(await claimJobs(t.db, 'dead-instance', 1, 1)).toEqual([job.id]);
    await new Promise((r) => setTimeout(r, 20));
    runner(10);
    const done = await waitForJob(job.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { processed: 4, changed: 4 } });
    expect(await activeOf(ids)).toEqual(ids.map(() => false));
  });
});

describe('POST /jobs/{id}/cancel', () => {
  it('cancels a queued job at once, and answers 409 once it has finished', async () => {
    const { word, ids } = await cohort(2);
    const { job } = (
      await admin.post('/api/users/bulk', { operation: 'setActive', active: false, selection: { query: { q: word } } })
    ).json();
    const res = await admin.post(`/api/jobs/${job.id}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(res.json().job).toMatchObject({ status: 'cancelled' });
    const again = await admin.post(`/api/jobs/${job.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'JOB_FINISHED' });
    runner(3);
    await new Promise((r) => setTimeout(r, 100));
    expect(await activeOf(ids)).toEqual([true, true]);
  });

  it('stops a running job before its next chunk; what was committed stays', async () => {
    const { word, ids } = await cohort(6);
    const { job } = (
      await admin.post('/api/users/bulk', { operation: 'setActive', active: false, selection: { query: { q: word } } })
    ).json();
    const real = jobKinds(t.db, t.config);
    let calls = 0;
    let cancelled: ReturnType<typeof admin.post> | undefined;
    const slow = {
      bulk: {
        ...real.bulk,
        chunk: async (...args: Parameters<JobKindRunner['chunk']>) => {
          calls += 1;
          // The cancel arrives while the first chunk works: it waits for the chunk's lock on the job.
          if (calls === 1) {
            cancelled = admin.post(`/api/jobs/${job.id}/cancel`);
            await new Promise((r) => setTimeout(r, 100));
          }
          return (real.bulk as JobKindRunner).chunk(...args);
        },
      } as JobKindRunner,
    };
    runner(2, slow);
    const done = await waitForJob(job.id);
    expect((await (cancelled as ReturnType<typeof admin.post>)).json().job.status).toBe('cancelling');
    expect(done).toMatchObject({ status: 'cancelled', progress: { processed: 2, changed: 2 } });
    expect((await activeOf(ids)).filter((a) => !a)).toHaveLength(2);
  });
});

describe('who may do what', () => {
  it('refuses a selection without the operation’s permission before any job exists', async () => {
    const viewer = request(t.app, {
      token: await given(t.db).token((await given(t.db).user({ roles: ['viewer'] })).id),
    });
    const before = await t.db.models.Job.count();
    const res = await viewer.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: { query: {} },
    });
    expect(res.statusCode).toBe(403);
    expect(await t.db.models.Job.count()).toBe(before);
  });

  it('shows a job to its submitter and to jobs.view, and is not found for anyone else', async () => {
    const managerId = (await given(t.db).user({ roles: ['manager'] })).id;
    const manager = request(t.app, { token: await given(t.db).token(managerId) });
    const other = request(t.app, {
      token: await given(t.db).token((await given(t.db).user({ roles: ['manager'] })).id),
    });
    const { word } = await cohort(1);
    const res = await manager.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: { query: { q: word } },
    });
    expect(res.statusCode).toBe(202);
    const id = res.json().job.id;
    expect((await manager.get(`/api/jobs/${id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/jobs/${id}`)).statusCode).toBe(200);
    expect((await other.get(`/api/jobs/${id}`)).statusCode).toBe(404);
    expect((await other.post(`/api/jobs/${id}/cancel`)).statusCode).toBe(404);
    expect((await other.get(`/api/jobs/${id}/report`)).statusCode).toBe(404);
    const mine = (await manager.get('/api/jobs')).json();
    expect(mine.rows.map((j: { id: number }) => j.id)).toEqual([id]);
    expect(mine.meta).toMatchObject({ total: 1, page: 1 });
    expect((await manager.get('/api/jobs?q=setact')).json().rows.map((j: { id: number }) => j.id)).toEqual([id]);
    expect((await manager.get('/api/jobs?q=delete')).json().rows).toEqual([]);
    expect((await manager.get('/api/jobs?filters[status][]=queued')).json().meta.total).toBe(1);
    const all = (await admin.get('/api/jobs?perPage=100')).json();
    expect(all.rows.map((j: { id: number }) => j.id)).toContain(id);
    expect((await request(t.app).get('/api/jobs')).statusCode).toBe(401);
    expect((await admin.get('/api/jobs/999999')).statusCode).toBe(404);
  });

  it('answers 422 for a malformed selection, at its path', async () => {
    const both = await admin.post('/api/users/bulk', {
      operation: 'delete',
      ids: [1],
      selection: { query: {} },
    });
    expect(both.statusCode).toBe(422);
    expect(Object.keys(both.json().errors)).toContain('selection');
    const badFilter = await admin.post('/api/users/bulk', {
      operation: 'delete',
      selection: { query: { filters: { is_active: 'maybe' } } },
    });
    expect(badFilter.statusCode).toBe(422);
    expect(Object.keys(badFilter.json().errors).some((k) => k.startsWith('selection.query.filters.is_active'))).toBe(
      true,
    );
    const tooMany = await admin.post('/api/users/bulk', {
      operation: 'delete',
      selection: { query: {}, except: Array.from({ length: 10_001 }, (_, i) => i + 1) },
    });
    expect(tooMany.statusCode).toBe(422);
    expect(Object.keys(tooMany.json().errors)).toContain('selection.except');
    const none = await admin.post('/api/users/bulk', { operation: 'delete' });
    expect(none.statusCode).toBe(422);
    expect(Object.keys(none.json().errors)).toContain('ids');
  });
});

describe('retention', () => {
  it('prunes finished jobs and their reports past the retention, never a queued one', async () => {
    const { word } = await cohort(1);
    const submit = async () =>
      (await admin.post('/api/users/bulk', { operation: 'delete', selection: { query: { q: word } } })).json().job
        .id as number;
    const finished = await submit();
    const queued = await submit();
    await admin.post(`/api/jobs/${finished}/cancel`);
    await t.db.sequelize.query(
      "INSERT INTO job_items (job_id, user_id, email, outcome, code, message) VALUES (?, NULL, 'x@example.com', 'skipped', 'NOT_FOUND', 'gone')",
      { replacements: [finished] },
    );
    const old = new Date(Date.now() - 40 * 86_400_000);
    await t.db.models.Job.update({ created_at: old }, { where: { id: [finished, queued] } });
    await t.db.sequelize.query('UPDATE jobs SET finished_at = ? WHERE id = ?', {
      replacements: [t.db.dialect === 'mysql' ? old.toISOString().replace('T', ' ').replace('Z', '') : old, finished],
    });
    expect(await pruneFinishedJobs(t.db, new Date(Date.now() - 30 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect((await admin.get(`/api/jobs/${finished}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/jobs/${queued}`)).json().job.status).toBe('queued');
    const [items] = await t.db.sequelize.query('SELECT COUNT(*) AS n FROM job_items WHERE job_id = ?', {
      replacements: [finished],
    });
    expect(Number((items as Array<{ n: number }>)[0]?.n)).toBe(0);
    await admin.post(`/api/jobs/${queued}/cancel`);
  });
});

describe('webhook events', () => {
  it('sends each changed user’s event from its chunk, and one bulk.completed when the job ends', async () => {
    await clearOutbox(t.db);
    await subscribe(t.db, ['user.deactivated', 'bulk.completed']);
    try {
      const { word, ids } = await cohort(5);
      const [already] = (await cohort(1, { active: false })).ids as [number];
      await t.db.models.User.update({ name: `${word} Already Inactive` }, { where: { id: already } });
      const { job } = (
        await admin.post('/api/users/bulk', {
          operation: 'setActive',
          active: false,
          selection: { query: { q: word } },
        })
      ).json();
      runner(2);
      await waitForJob(job.id);
      const events = await outboxEvents(t.db);
      // Other tests' jobs may run beside it: only this job's users and summary are looked at.
      const mine = new Set([...ids, already]);
      const deactivated = events
        .filter((e) => e.type === 'user.deactivated')
        .map((e) => (e.payload.data as { user: { id: number } }).user.id)
        .filter((id) => mine.has(id));
      expect(deactivated.sort((a, b) => a - b)).toEqual(ids);
      const completed = events.filter(
        (e) => e.type === 'bulk.completed' && (e.payload.data as { job_id?: number }).job_id === job.id,
      );
      expect(completed.map((e) => e.payload.data)).toEqual([
        {
          operation: 'setActive',
          requested: 6,
          affected: 5,
          affected_ids: null,
          skipped: null,
          job_id: job.id,
          job_status: 'succeeded',
          skipped_counts: {},
        },
      ]);
    } finally {
      await clearOutbox(t.db);
    }
  });
});

describe('the last administrator', () => {
  it('a dry run over every administrator foresees the one the real run keeps, across chunks', async () => {
    // Someone holding every permission directly, without the admin role: administrators do not
    // outrank them, and they are not one of them.
    const keeperId = (await given(t.db).user({ permissions: [...PERMISSIONS] })).id;
    const keeper = request(t.app, { token: await given(t.db).token(keeperId) });
    for (let i = 0; i < 4; i++) await given(t.db).user({ roles: ['admin'] });
    const adminRole = await t.db.models.Role.findOne({ where: { name: 'admin' } });
    const everyAdmin = { selection: { query: { filters: { role_id: [adminRole?.id] } } } };
    const activeAdmins = async () =>
      Number(
        (
          (await t.db.sequelize.query(
            `SELECT COUNT(*) AS n FROM user_roles ur JOIN users u ON u.id = ur.user_id
              WHERE ur.role_id = ? AND u.is_active = 1 AND u.deleted_at IS NULL`,
            { replacements: [adminRole?.id], type: 'SELECT' },
          )) as Array<{ n: number }>
        )[0]?.n,
      );
    const before = await activeAdmins();
    expect(before).toBeGreaterThanOrEqual(5);
    try {
      runner(2);
      const dry = (
        await keeper.post('/api/users/bulk', { operation: 'setActive', active: false, dryRun: true, ...everyAdmin })
      ).json().job;
      const foreseen = await waitForJob(dry.id, keeper);
      expect(foreseen).toMatchObject({
        status: 'succeeded',
        counts: { LAST_ADMIN: 1 },
        progress: { changed: before - 1 },
      });
      expect(await activeAdmins()).toBe(before);
      const real = (
        await keeper.post('/api/users/bulk', { operation: 'setActive', active: false, ...everyAdmin })
      ).json().job;
      const done = await waitForJob(real.id, keeper);
      expect(done).toMatchObject({ status: 'succeeded', counts: { LAST_ADMIN: 1 }, progress: { changed: before - 1 } });
      expect(await activeAdmins()).toBe(1);
    } finally {
      // Every administrator active again, for whatever runs after.
      await t.db.sequelize.query(
        'UPDATE users SET is_active = 1 WHERE id IN (SELECT user_id FROM user_roles WHERE role_id = ?)',
        { replacements: [adminRole?.id] },
      );
    }
  });
});

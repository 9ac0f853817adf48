import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { jobsBed } from '../support/jobs-bed.js';
import { clearOutbox, outboxEvents, subscribe } from '../support/webhooks.js';

// A bulk change over a selection, as a job: what it changes, reports, sends and keeps.
// Runners handing a job on and cancelling are in jobs-runners, access in jobs-access, the
// last-administrator rule in jobs-admins, how long finished jobs are kept in jobs-retention.
const bed = jobsBed();
const { runner, cohort, waitForJob, activeOf, auditOf } = bed;

describe('POST /users/bulk with a selection', () => {
  it('answers 202 with a queued job, then changes every match in chunks, frozen at submission', async () => {
    const { word, ids } = await cohort(8);
    const [left, ...rest] = ids as [number, ...number[]];
    const res = await bed.admin.post('/api/users/bulk', {
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
      actor_id: bed.adminId,
      via: { kind: 'token' },
    });
    // A user matching the query but created after the submission is not swept in.
    const late = (await given(bed.t.db).user({ name: `${word} Late` })).id;
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

  it('totals a selection the counters answer as its chunks then find it: the live inactive users at submission', async () => {
    const inactive = await Promise.all(
      [1, 2, 3].map((n) => given(bed.t.db).user({ name: `Counted ${n}`, active: false })),
    );
    const trashed = await given(bed.t.db).user({ name: 'Counted Trashed', active: false });
    await bed.t.db.models.User.destroy({ where: { id: trashed.id } });
    const expected = await bed.t.db.models.User.count({ where: { is_active: false } });
    expect(expected).toBeGreaterThanOrEqual(inactive.length);
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: true,
      dryRun: true,
      selection: { query: { filters: { is_active: 'inactive' } } },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().job.progress.total).toBe(expected);
    // Added after the submission, past its bound: neither in the total nor walked.
    await given(bed.t.db).user({ name: 'Counted Late', active: false });
    runner(2);
    const done = await waitForJob(res.json().job.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { total: expected, processed: expected } });
    // Leaving one out: the counters cannot say whether it matched, so the rows are counted.
    const now = await bed.t.db.models.User.count({ where: { is_active: false } });
    const left = (inactive[0] as { id: number }).id;
    const except = await bed.admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: true,
      dryRun: true,
      selection: { query: { filters: { is_active: 'inactive' } }, except: [left] },
    });
    expect(except.json().job.progress.total).toBe(now - 1);
  });

  it('skips by the same rules as one change, and reports each skip with its e-mail and code', async () => {
    const { word, ids } = await cohort(2);
    await bed.t.db.models.User.update({ name: `${word} Admin Itself` }, { where: { id: bed.adminId } });
    try {
      const res = await bed.admin.post('/api/users/bulk', {
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
      expect(await activeOf([bed.adminId, ...ids])).toEqual([true, false, false]);
      const me0 = (await bed.t.db.models.User.findByPk(bed.adminId))?.email;
      expect((await bed.admin.get(`/api/jobs/${done.id}`)).json().examples).toEqual({
        SELF_DEACTIVATION: [{ id: bed.adminId, email: me0, message: expect.stringContaining('your own') }],
      });
      const json = await bed.admin.get(`/api/jobs/${done.id}/report?format=json`);
      expect(json.statusCode).toBe(200);
      const me = (await bed.t.db.models.User.findByPk(bed.adminId))?.email;
      // Every user the job touched: the two it deactivated, with the field before and after, and the skip.
      const emails = await Promise.all(ids.map(async (id) => (await bed.t.db.models.User.findByPk(id))?.email));
      const changed = (id: number, i: number) => ({
        id,
        email: emails[i],
        outcome: 'changed',
        code: 'CHANGED',
        message: 'Deactivated.',
        before: { is_active: true },
        after: { is_active: false },
      });
      const report = JSON.parse(json.body) as { id: number }[];
      expect([...report].sort((a, b) => a.id - b.id)).toEqual([
        {
          id: bed.adminId,
          email: me,
          outcome: 'skipped',
          code: 'SELF_DEACTIVATION',
          message: expect.any(String),
          before: null,
          after: null,
        },
        ...ids.map(changed),
      ]);
      const csv = await bed.admin.get(`/api/jobs/${done.id}/report?format=csv`);
      expect(csv.headers['content-type']).toContain('text/csv');
      const lines = parse(csv.body, { bom: true }) as string[][];
      expect(lines[0]).toEqual(['id', 'email', 'outcome', 'code', 'message', 'before', 'after']);
      expect(lines.slice(1)).toContainEqual([
        String(bed.adminId),
        me,
        'skipped',
        'SELF_DEACTIVATION',
        expect.any(String),
        '',
        '',
      ]);
      expect(lines.slice(1)).toContainEqual([
        String(ids[0]),
        emails[0],
        'changed',
        'CHANGED',
        'Deactivated.',
        '{"is_active":true}',
        '{"is_active":false}',
      ]);
    } finally {
      await bed.t.db.models.User.update({ name: 'Job Admin' }, { where: { id: bed.adminId } });
    }
  });

  it('a dry run judges every match, changes nothing and counts what would change', async () => {
    const { word, ids } = await cohort(4, { active: false });
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'delete',
      dryRun: true,
      selection: { query: { q: word } },
    });
    expect(res.json().job).toMatchObject({ dryRun: true, status: 'queued' });
    runner(3);
    const done = await waitForJob(res.json().job.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { processed: 4, changed: 4, skipped: 0 } });
    expect(await bed.t.db.models.User.count({ where: { id: ids } })).toBe(4);
    expect((await auditOf('users.bulk.delete')).filter((a) => a.context.job_id === done.id)).toEqual([]);
  });
});

describe('webhook events', () => {
  it('sends each changed user’s event from its chunk, and one bulk.completed when the job ends', async () => {
    await clearOutbox(bed.t.db);
    await subscribe(bed.t.db, ['user.deactivated', 'bulk.completed']);
    try {
      const { word, ids } = await cohort(5);
      const [already] = (await cohort(1, { active: false })).ids as [number];
      await bed.t.db.models.User.update({ name: `${word} Already Inactive` }, { where: { id: already } });
      const { job } = (
        await bed.admin.post('/api/users/bulk', {
          operation: 'setActive',
          active: false,
          selection: { query: { q: word } },
        })
      ).json();
      runner(2);
      await waitForJob(job.id);
      const events = await outboxEvents(bed.t.db);
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
          // What it ran on, as GET /jobs/{id} says it.
          target: {
            kind: 'selection',
            query: { q: word, filters: {} },
            except: 0,
            withheld: 0,
            roles: [],
            attributes: [],
          },
        },
      ]);
    } finally {
      await clearOutbox(bed.t.db);
    }
  });
});
describe('GET /jobs/{id}', () => {
  it('answers {item} as every show does, on both doors, while a submission answers 202 {job}', async () => {
    const { word } = await cohort(1);
    const submitted = await bed.admin.post('/api/users/bulk', {
      operation: 'delete',
      dryRun: true,
      selection: { query: { q: word } },
    });
    expect(submitted.statusCode).toBe(202);
    const { id } = submitted.json().job;
    const rest = (await bed.admin.get(`/api/jobs/${id}`)).json();
    expect(Object.keys(rest).sort()).toEqual(['examples', 'item', 'people', 'problems']);
    expect(rest.item).toMatchObject({ id, kind: 'bulk', operation: 'delete', dryRun: true });
    const trpc = await bed.admin.get(`/api/trpc/jobs.show?input=${encodeURIComponent(JSON.stringify({ id }))}`);
    expect(trpc.json().result.data.item).toEqual(rest.item);
    await bed.admin.post(`/api/jobs/${id}/cancel`);
  });
});

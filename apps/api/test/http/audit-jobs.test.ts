import type { AuditItem, AuditRow, JobWithSubmitter } from '@app/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { jobsBed } from '../support/jobs-bed.js';

// A job in the audit trail is a target of its own kind (issue 40, item 3): its events name it
// by what the jobs list titles it from — what it does, on how many, and what it ran on, told as
// the reader may read it — through both doors; a job pruned since is named by its id alone.
const bed = jobsBed();
const { cohort, runner, waitForJob } = bed;

type Caller = ReturnType<typeof request>;

const eventsOf = async (jobId: number, by: Caller = bed.admin): Promise<AuditRow[]> => {
  const res = await by.get('/api/audit?perPage=100&filters[action][]=job.submit&filters[action][]=job.finish');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().rows as AuditRow[]).filter((row) => row.target_type === 'job' && row.target_ids[0] === jobId);
};

const trpc = async <T>(path: string, input: unknown, by: Caller = bed.admin): Promise<T> => {
  const res = await by.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.data as T;
};

const page = async (id: number, by: Caller = bed.admin): Promise<JobWithSubmitter> =>
  (await by.get(`/api/jobs/${id}`)).json().item;

beforeAll(async () => {
  const res = await bed.admin.post('/api/attributes', {
    key: 'grade',
    label: 'Grade',
    type: 'enum',
    values: ['G1', 'G2'],
    sensitivity: 'sensitive',
  });
  expect(res.statusCode, res.body).toBe(201);
});

describe('a job’s events in the audit trail', () => {
  it('name the job by what it does and what it ran on, in the list and the event, through both doors', async () => {
    const { word } = await cohort(3);
    const submitted = await bed.admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: { query: { q: word, filters: { is_active: 'active' } } },
    });
    expect(submitted.statusCode, submitted.body).toBe(202);
    const id = submitted.json().job.id as number;
    runner(2);
    const job = await waitForJob(id);
    const named = {
      kind: 'bulk',
      operation: 'setActive',
      active: false,
      role: null,
      attribute: null,
      dryRun: false,
      progress: job.progress,
      target: (await page(id)).target,
      open: true,
    };
    expect(named.target).toMatchObject({ kind: 'selection', query: { q: word, filters: { is_active: true } } });

    const rows = await eventsOf(id);
    expect(rows.map((row) => row.action).sort()).toEqual(['job.finish', 'job.submit']);
    for (const row of rows) {
      expect(row).toMatchObject({ target_ids: [id], target_count: 1, target_names: {} });
      expect(row.target_jobs).toEqual({ [id]: named });
    }
    const finish = rows.find((row) => row.action === 'job.finish') as AuditRow;
    const item = (await bed.admin.get(`/api/audit/${finish.id}`)).json().item as AuditItem;
    expect(item.target_jobs).toEqual({ [id]: named });
    // The event's context keeps its counts as they were when it happened.
    expect(item.context).toMatchObject({
      status: 'succeeded',
      dryRun: false,
      progress: { total: 3, processed: 3, changed: 3, skipped: 0, failed: 0 },
    });

    const listed = await trpc<{ rows: AuditRow[] }>('audit.list', { perPage: 100, filters: { action: 'job.finish' } });
    expect(listed.rows.find((row) => row.id === finish.id)?.target_jobs).toEqual({ [id]: named });
    const shown = await trpc<{ item: AuditItem }>('audit.show', { id: finish.id });
    expect(shown.item.target_jobs).toEqual({ [id]: named });
  });

  it('tell a selection as the reader may read it: a sensitive attribute’s condition left out and counted', async () => {
    const { word } = await cohort(2);
    const submitted = await bed.admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      dryRun: true,
      selection: { query: { q: word, filters: { attributes: { grade: ['G1'] } } } },
    });
    expect(submitted.statusCode, submitted.body).toBe(202);
    const id = submitted.json().job.id as number;
    const [forAdmin] = await eventsOf(id);
    expect(forAdmin?.target_jobs[id]?.target).toMatchObject({
      withheld: 0,
      query: { filters: { attributes: { grade: ['G1'] } } },
    });
    expect(forAdmin?.target_jobs[id]).toMatchObject({ dryRun: true, open: true });

    const g = given(bed.t.db);
    await g.role('auditor', ['audit.view']);
    const auditor = request(bed.t.app, { token: await g.token((await g.user({ roles: ['auditor'] })).id) });
    const [forAuditor] = await eventsOf(id, auditor);
    expect(forAuditor?.target_jobs[id]?.target).toEqual({
      kind: 'selection',
      query: { q: word, filters: {} },
      except: 0,
      withheld: 1,
      roles: [],
      attributes: [],
    });
    // Another's job, and no jobs.view: named, but not to be opened (its page is not found for them).
    expect(forAuditor?.target_jobs[id]?.open).toBe(false);
    expect((await auditor.get(`/api/jobs/${id}`)).statusCode).toBe(404);
    const item = (await auditor.get(`/api/audit/${forAuditor?.id}`)).json().item as AuditItem;
    expect(JSON.stringify(item)).not.toContain('grade');
  });

  it('name a job pruned since by its id alone', async () => {
    const { word } = await cohort(1);
    const submitted = await bed.admin.post('/api/users/bulk', {
      operation: 'delete',
      dryRun: true,
      selection: { query: { q: word } },
    });
    const id = submitted.json().job.id as number;
    await bed.admin.post(`/api/jobs/${id}/cancel`);
    await bed.t.db.sequelize.query('DELETE FROM jobs WHERE id = ?', { replacements: [id] });
    const rows = await bed.admin.get(
      '/api/audit?perPage=100&filters[action][]=job.submit&filters[action][]=job.finish',
    );
    const mine = (rows.json().rows as AuditRow[]).filter(
      (row) => row.target_type === 'job' && row.target_ids[0] === id,
    );
    expect(mine.length).toBeGreaterThan(0);
    for (const row of mine) expect(row).toMatchObject({ target_ids: [id], target_count: 1, target_jobs: {} });
    const item = (await bed.admin.get(`/api/audit/${mine[0]?.id}`)).json().item as AuditItem;
    expect(item).toMatchObject({ target_ids: [id], target_jobs: {} });
  });

  it('stay out of the history of the user whose id is the job’s', async () => {
    const { word } = await cohort(1);
    const id = (
      await bed.admin.post('/api/users/bulk', { operation: 'delete', dryRun: true, selection: { query: { q: word } } })
    ).json().job.id as number;
    expect((await eventsOf(id)).length).toBe(1);
    const history = (await bed.admin.get(`/api/audit?perPage=100&filters[user_id]=${id}`)).json().rows as AuditRow[];
    // Only the events that user took part in as the actor: none that is about the job alone.
    expect(history.filter((row) => row.target_type === 'job' && row.actor_id !== id)).toEqual([]);
  });
});

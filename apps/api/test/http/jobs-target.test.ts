import type { Job, JobWithSubmitter } from '@app/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { jobsBed } from '../support/jobs-bed.js';
import { clearOutbox, outboxEvents, subscribe } from '../support/webhooks.js';

// Jobs say what they ran on (issue 40, item 3): a selection's query as the users list takes it,
// an import's file and mode; a condition on an attribute the caller may not see is left out and
// counted. Dry runs are listed only when asked (`filters[dry_run]`).
const bed = jobsBed();
const { cohort } = bed;

type Caller = ReturnType<typeof request>;

/** A selection job over `query`, queued (no runner: the list and the page need no more). */
async function submit(query: Record<string, unknown>, dryRun = false, by: Caller = bed.admin): Promise<number> {
  const res = await by.post('/api/users/bulk', { operation: 'setActive', active: false, dryRun, selection: { query } });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().job.id;
}

const shown = async (id: number, by: Caller = bed.admin): Promise<JobWithSubmitter> => {
  const res = await by.get(`/api/jobs/${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().item;
};

const listedIds = async (path: string, by: Caller = bed.admin): Promise<number[]> => {
  const res = await by.get(path);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().rows as Array<{ id: number }>).map((row) => row.id);
};

/** A caller who sees every job but no sensitive attribute. */
async function watcher(): Promise<Caller> {
  const g = given(bed.t.db);
  await g.role('job-watcher', ['jobs.view', 'users.view']);
  return request(bed.t.app, { token: await g.token((await g.user({ roles: ['job-watcher'] })).id) });
}

beforeAll(async () => {
  for (const attribute of [
    { key: 'team', label: 'Team', type: 'enum', values: ['Red', 'Blue'], sensitivity: 'none' },
    { key: 'band', label: 'Pay band', type: 'enum', values: ['A', 'B'], sensitivity: 'sensitive' },
  ]) {
    const res = await bed.admin.post('/api/attributes', attribute);
    expect(res.statusCode, res.body).toBe(201);
  }
});

describe('GET /jobs and dry runs', () => {
  it('leaves dry runs out unless asked, and lists only them when asked, through both doors', async () => {
    const { word } = await cohort(2);
    const dry = await submit({ q: word }, true);
    const real = await submit({ q: word });
    const byDefault = await listedIds('/api/jobs?perPage=100');
    expect(byDefault).toContain(real);
    expect(byDefault).not.toContain(dry);
    expect(await listedIds('/api/jobs?perPage=100&filters[dry_run]=false')).toEqual(byDefault);
    const dryOnly = await listedIds('/api/jobs?perPage=100&filters[dry_run]=true');
    expect(dryOnly).toContain(dry);
    expect(dryOnly).not.toContain(real);
    const input = encodeURIComponent(JSON.stringify({ perPage: 100, filters: { dry_run: true } }));
    const trpc = (await bed.admin.get(`/api/trpc/jobs.list?input=${input}`)).json().result.data;
    expect(trpc.rows.map((row: { id: number }) => row.id)).toEqual(dryOnly);
    const trpcDefault = (await bed.admin.get('/api/trpc/jobs.list')).json().result.data;
    expect(trpcDefault.rows.every((row: { dryRun: boolean }) => !row.dryRun)).toBe(true);
    // A dry run is still shown by its id.
    expect((await shown(dry)).dryRun).toBe(true);
  });

  it('refuses a dry-run filter that is not a boolean', async () => {
    const res = await bed.admin.get('/api/jobs?filters[dry_run]=maybe');
    expect(res.statusCode).toBe(422);
  });
});

describe('a job’s target', () => {
  it('is the selection’s query as the users list takes it, with the roles its filters name', async () => {
    const g = given(bed.t.db);
    const roleId = await g.role('target-viewers', []);
    const { word } = await cohort(2, { roles: ['target-viewers'] });
    const query = { q: word, filters: { is_active: 'active', role_id: [roleId] } };
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: { query, except: [] },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().job.id as number;
    const target = {
      kind: 'selection',
      query: { q: word, filters: { is_active: true, role_id: [roleId] } },
      except: 0,
      withheld: 0,
      roles: [{ id: roleId, name: 'target-viewers' }],
      attributes: [],
    };
    expect((await shown(id)).target).toEqual(target);
    const listed = (await bed.admin.get('/api/jobs?perPage=100')).json().rows.find((r: { id: number }) => r.id === id);
    expect(listed.target).toEqual(target);
    // The query is one the users list takes as it is: it finds the same users.
    const users = await bed.admin.get(
      `/api/users?q=${word}&filters[is_active]=true&filters[role_id][]=${roleId}&perPage=100`,
    );
    expect(users.json().meta.total).toBe(2);
  });

  it('counts the ids left out, and leaves out a condition on an attribute the caller may not see', async () => {
    const { word, ids } = await cohort(3);
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: {
        query: { q: word, filters: { attributes: { team: ['Red'], band: ['A'] } } },
        except: [ids[0]],
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().job.id as number;
    const full = (await shown(id)).target;
    expect(full).toMatchObject({
      kind: 'selection',
      query: { q: word, filters: { attributes: { team: ['Red'], band: ['A'] } } },
      except: 1,
      withheld: 0,
    });
    expect(full?.kind === 'selection' && full.attributes.map((a) => a.key).sort()).toEqual(['band', 'team']);

    const other = await watcher();
    const seen = await shown(id, other);
    expect(seen.target).toMatchObject({
      kind: 'selection',
      query: { q: word, filters: { attributes: { team: ['Red'] } } },
      withheld: 1,
    });
    expect(JSON.stringify(seen.target)).not.toContain('band');
    const listed = (await other.get('/api/jobs?perPage=100')).json().rows.find((r: { id: number }) => r.id === id);
    expect(listed.target).toEqual(seen.target);
  });

  it('is the file and its mode for an import', async () => {
    const boundary = `----target${process.pid}`;
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="people.csv"',
      'Content-Type: text/csv',
      '',
      `name,email\r\nTarget Person,target.${process.pid}@example.com`,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const res = await bed.t.app.inject({
      method: 'POST',
      url: '/api/users/imports?mode=upsert',
      headers: {
        authorization: `Bearer ${bed.adminToken}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().job.id as number;
    expect((await shown(id)).target).toEqual({ kind: 'file', name: 'people.csv', mode: 'upsert' });
  });
});

describe('every answer about a job carries its target, as its page does', () => {
  const trpcData = (res: { statusCode: number; body: string; json: () => unknown }) => {
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { result: { data: { job: Job } } }).result.data;
  };

  it('a submission’s, through both doors', async () => {
    const { word } = await cohort(2);
    const body = { operation: 'setActive', active: false, selection: { query: { q: word } } };
    const rest = await bed.admin.post('/api/users/bulk', body);
    expect(rest.statusCode, rest.body).toBe(202);
    const answered = rest.json().job as Job;
    const target = {
      kind: 'selection',
      query: { q: word, filters: {} },
      except: 0,
      withheld: 0,
      roles: [],
      attributes: [],
    };
    expect(answered.target).toEqual(target);
    expect(answered.target).toEqual((await shown(answered.id)).target);
    const trpc = trpcData(await bed.admin.post('/api/trpc/users.bulk', body)).job;
    expect(trpc.target).toEqual(target);
  });

  it('a cancel’s, through both doors', async () => {
    const { word } = await cohort(2);
    const first = await submit({ q: word });
    const cancelled = await bed.admin.post(`/api/jobs/${first}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().job).toMatchObject({ status: 'cancelled', target: (await shown(first)).target });
    const second = await submit({ q: word });
    const trpc = trpcData(await bed.admin.post('/api/trpc/jobs.cancel', { id: second })).job;
    expect(trpc.target).toEqual({ ...(await shown(second)).target });
    expect(trpc.target).toMatchObject({ kind: 'selection', query: { q: word } });
  });

  it('an undo’s: the job it reverses', async () => {
    const { word } = await cohort(2);
    const id = await submit({ q: word });
    bed.runner(5);
    await bed.waitForJob(id);
    const res = await bed.admin.post(`/api/jobs/${id}/undo`, { dryRun: true });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().job).toMatchObject({ kind: 'undo', target: { kind: 'job', id } });
    expect((await shown(res.json().job.id)).target).toEqual({ kind: 'job', id });
  });

  it('bulk.completed’s, told to every receiver without a sensitive attribute’s condition', async () => {
    await clearOutbox(bed.t.db);
    await subscribe(bed.t.db, ['bulk.completed']);
    try {
      const { word } = await cohort(2);
      const [member] = (await cohort(1)).ids as [number];
      await bed.t.db.models.User.update({ name: `${word} Also` }, { where: { id: member } });
      const res = await bed.admin.post('/api/users/bulk', {
        operation: 'setActive',
        active: false,
        selection: { query: { q: word, filters: { attributes: { band: { empty: true } } } } },
      });
      expect(res.statusCode, res.body).toBe(202);
      const id = res.json().job.id as number;
      bed.runner(5);
      await bed.waitForJob(id);
      const [completed] = (await outboxEvents(bed.t.db)).filter(
        (e) => e.type === 'bulk.completed' && e.payload.data.job_id === id,
      );
      expect(completed?.payload.data.target).toEqual({
        kind: 'selection',
        query: { q: word, filters: {} },
        except: 0,
        withheld: 1,
        roles: [],
        attributes: [],
      });
      expect(JSON.stringify(completed?.payload)).not.toContain('band');
    } finally {
      await clearOutbox(bed.t.db);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { jobsBed } from '../support/jobs-bed.js';

// Who may submit, see and cancel a job, and the selections refused before any job exists.
const bed = jobsBed();
const { cohort } = bed;

describe('who may do what', () => {
  it('refuses a selection without the operation’s permission before any job exists', async () => {
    const viewer = request(bed.t.app, {
      token: await given(bed.t.db).token((await given(bed.t.db).user({ roles: ['viewer'] })).id),
    });
    const before = await bed.t.db.models.Job.count();
    const res = await viewer.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: { query: {} },
    });
    expect(res.statusCode).toBe(403);
    expect(await bed.t.db.models.Job.count()).toBe(before);
  });

  it('shows a job to its submitter and to jobs.view, and is not found for anyone else', async () => {
    const managerId = (await given(bed.t.db).user({ roles: ['manager'] })).id;
    const manager = request(bed.t.app, { token: await given(bed.t.db).token(managerId) });
    const other = request(bed.t.app, {
      token: await given(bed.t.db).token((await given(bed.t.db).user({ roles: ['manager'] })).id),
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
    expect((await bed.admin.get(`/api/jobs/${id}`)).statusCode).toBe(200);
    expect((await other.get(`/api/jobs/${id}`)).statusCode).toBe(404);
    expect((await other.post(`/api/jobs/${id}/cancel`)).statusCode).toBe(404);
    expect((await other.get(`/api/jobs/${id}/report`)).statusCode).toBe(404);
    const mine = (await manager.get('/api/jobs')).json();
    expect(mine.rows.map((j: { id: number }) => j.id)).toEqual([id]);
    expect(mine.meta).toMatchObject({ total: 1, page: 1 });
    expect((await manager.get('/api/jobs?q=setact')).json().rows.map((j: { id: number }) => j.id)).toEqual([id]);
    expect((await manager.get('/api/jobs?q=delete')).json().rows).toEqual([]);
    expect((await manager.get('/api/jobs?filters[status][]=queued')).json().meta.total).toBe(1);
    const all = (await bed.admin.get('/api/jobs?perPage=100')).json();
    expect(all.rows.map((j: { id: number }) => j.id)).toContain(id);
    expect((await request(bed.t.app).get('/api/jobs')).statusCode).toBe(401);
    expect((await bed.admin.get('/api/jobs/999999')).statusCode).toBe(404);
  });

  it('answers 422 for a malformed selection, at its path', async () => {
    const both = await bed.admin.post('/api/users/bulk', {
      operation: 'delete',
      ids: [1],
      selection: { query: {} },
    });
    expect(both.statusCode).toBe(422);
    expect(Object.keys(both.json().errors)).toContain('selection');
    const badFilter = await bed.admin.post('/api/users/bulk', {
      operation: 'delete',
      selection: { query: { filters: { is_active: 'maybe' } } },
    });
    expect(badFilter.statusCode).toBe(422);
    expect(Object.keys(badFilter.json().errors).some((k) => k.startsWith('selection.query.filters.is_active'))).toBe(
      true,
    );
    const tooMany = await bed.admin.post('/api/users/bulk', {
      operation: 'delete',
      selection: { query: {}, except: Array.from({ length: 10_001 }, (_, i) => i + 1) },
    });
    expect(tooMany.statusCode).toBe(422);
    expect(Object.keys(tooMany.json().errors)).toContain('selection.except');
    const none = await bed.admin.post('/api/users/bulk', { operation: 'delete' });
    expect(none.statusCode).toBe(422);
    expect(Object.keys(none.json().errors)).toContain('ids');
  });

  it.each([
    ['a null query', { query: null }],
    ['no query', {}],
    ['a list for a query', { query: [] }],
  ])('refuses a selection with %s on both doors instead of reading it as every user', async (_, selection) => {
    const before = await bed.t.db.models.Job.count();
    const body = { operation: 'setActive', active: false, dryRun: true, selection };
    const rest = await bed.admin.post('/api/users/bulk', body);
    expect(rest.statusCode).toBe(422);
    expect(rest.json().errors['selection.query']).toEqual([expect.stringContaining('{} for every user')]);
    const trpc = await bed.admin.post('/api/trpc/users.bulk', body);
    expect(trpc.statusCode).toBe(422);
    expect(trpc.json().error.data.errors['selection.query']).toBeDefined();
    expect(await bed.t.db.models.Job.count()).toBe(before);
    // Everyone, said explicitly, is a selection.
    expect((await bed.admin.post('/api/users/bulk', { ...body, selection: { query: {} } })).statusCode).toBe(202);
  });
});

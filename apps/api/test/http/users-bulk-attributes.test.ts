import { QueryTypes } from 'sequelize';
import { beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { jobsBed } from '../support/jobs-bed.js';
import { clearOutbox, outboxEvents, subscribe } from '../support/webhooks.js';

// Bulk setAttribute (issue 38 item 2): one value for many users over ids (in the request) or a
// selection (a job), judged once by the values' plan, each user under the edit form's rules.
const bed = jobsBed();
const { runner, cohort, waitForJob, auditOf } = bed;

let manager: ReturnType<typeof request>;
let managerId = 0;

beforeAll(async () => {
  const define = async (body: Record<string, unknown>) => {
    const res = await bed.admin.post('/api/attributes', body);
    expect(res.statusCode).toBe(201);
  };
  await define({ key: 'department', label: 'Department', type: 'enum', values: ['Sales', 'Support', 'Legal'] });
  await define({ key: 'employee_no', label: 'Employee number', type: 'string', unique: true });
  await define({ key: 'salary_band', label: 'Salary band', type: 'number', sensitivity: 'sensitive' });
  await define({ key: 'phone', label: 'Phone', type: 'string', sensitivity: 'personal' });
  await define({ key: 'manager', label: 'Manager', type: 'user' });
  const g = given(bed.t.db);
  managerId = (await g.user({ roles: ['manager'] })).id;
  manager = request(bed.t.app, { token: await g.token(managerId) });
});

/** Each user's attributes as the administrator reads them, in the order of `ids`. */
async function attributesOf(ids: number[]) {
  const out: Array<Record<string, unknown>> = [];
  for (const id of ids) out.push((await bed.admin.get(`/api/users/${id}`)).json().item.attributes);
  return out;
}

const codes = (report: { skipped: Array<{ id: number; code: string }> }) => report.skipped.map((s) => [s.id, s.code]);

describe('POST /users/bulk setAttribute with ids', () => {
  it('gives every user the value (an enum matched whatever its case), skipping deleted users', async () => {
    const [a, b] = (await cohort(2)).ids as [number, number];
    const [gone] = (await cohort(1)).ids as [number];
    await bed.t.db.models.User.destroy({ where: { id: gone } });
    const before = await bed.admin.get(`/api/users/${a}/edit`);
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: 'sales',
      ids: [a, gone, b],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ operation: 'setAttribute', requested: 3, affected: [a, b] });
    expect(codes(res.json())).toEqual([[gone, 'NOT_FOUND']]);
    expect(await attributesOf([a, b])).toEqual([{ department: 'Sales' }, { department: 'Sales' }]);
    // An edit form opened before the change is now stale, as after a save of the form.
    expect((await bed.admin.get(`/api/users/${a}/edit`)).json().item.version).not.toBe(before.json().item.version);
  });

  it('clears with null, and records each user as the edit form does, users with one old value in one row', async () => {
    await clearOutbox(bed.t.db);
    await subscribe(bed.t.db, ['user.updated', 'bulk.completed']);
    const ids = (await cohort(3)).ids as [number, number, number];
    const [a, b, c] = ids;
    await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: 'Legal',
      ids: [a, b],
    });
    await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: 'Support',
      ids: [c],
    });
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: null,
      ids,
    });
    expect(res.json().affected).toEqual(ids);
    expect(await attributesOf(ids)).toEqual([{}, {}, {}]);
    const rows = (await auditOf('user.update')).filter(
      (r) => r.context.bulk === 'setAttribute' && r.targets.includes(c),
    );
    const cleared = rows.at(-1);
    expect(cleared?.changes).toEqual({ 'attributes.department': { before: 'Support', after: null } });
    const shared = (await auditOf('user.update')).find(
      (r) => r.targets.includes(a) && r.changes?.['attributes.department']?.after === null,
    );
    expect(shared).toMatchObject({
      targets: [a, b],
      context: { bulk: 'setAttribute', attribute: 'department', requested: 3 },
    });
    const events = await outboxEvents(bed.t.db);
    const updated = events.filter(
      (e) => e.type === 'user.updated' && ids.includes((e.payload.data.user as { id: number }).id),
    );
    expect(updated).toHaveLength(6);
    const completed = events.filter((e) => e.type === 'bulk.completed').map((e) => e.payload.data);
    expect(completed.at(-1)).toMatchObject({ operation: 'setAttribute', requested: 3, affected_ids: ids });
  });

  it('answers a dry run with the same report and changes nothing; users holding the value already are unchanged', async () => {
    const [a, b] = (await cohort(2)).ids as [number, number];
    await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: 'Sales',
      ids: [a],
    });
    const dry = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: 'Sales',
      ids: [a, b],
      dryRun: true,
    });
    expect(dry.json()).toMatchObject({ dryRun: true, affected: [a, b], skipped: [] });
    expect(await attributesOf([a, b])).toEqual([{ department: 'Sales' }, {}]);
  });

  it('skips users who outrank the caller (the ceiling)', async () => {
    const [boss] = (await cohort(1, { roles: ['admin'] })).ids as [number];
    const [peer] = (await cohort(1)).ids as [number];
    const report = (
      await manager.post('/api/users/bulk', {
        operation: 'setAttribute',
        attribute: 'department',
        value: 'Legal',
        ids: [boss, peer],
      })
    ).json();
    expect(report.affected).toEqual([peer]);
    expect(codes(report)).toEqual([[boss, 'OUTRANKED']]);
    expect(await attributesOf([boss, peer])).toEqual([{}, { department: 'Legal' }]);
  });

  it('refuses what the values plan refuses (422), naming the attribute or the value, and changes nothing', async () => {
    const [target] = (await cohort(1)).ids as [number];
    const [deleted] = (await cohort(1)).ids as [number];
    await bed.t.db.models.User.destroy({ where: { id: deleted } });
    const send = (who: typeof manager, body: Record<string, unknown>) =>
      who.post('/api/users/bulk', { operation: 'setAttribute', ids: [target], ...body });
    const unknown = await send(bed.admin, { attribute: 'shoe_size', value: 42 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ attribute: ['There is no attribute with the key "shoe_size".'] });
    const wrong = await send(bed.admin, { attribute: 'department', value: 'Marketing' });
    expect(wrong.json().errors).toEqual({ value: ['Department must be one of: Sales, Support, Legal.'] });
    // A sensitive attribute does not exist for a caller who may not see it: the same answer as unknown.
    const unseen = await send(manager, { attribute: 'salary_band', value: 3 });
    expect(unseen.statusCode).toBe(422);
    expect(unseen.json().errors).toEqual({ attribute: ['There is no attribute with the key "salary_band".'] });
    const nobody = await send(bed.admin, { attribute: 'manager', value: deleted });
    expect(nobody.json().errors).toEqual({ value: ['Manager must name a user who exists and is not deleted.'] });
    const missing = await send(bed.admin, { attribute: 'department' });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['value']);
    expect(await attributesOf([target])).toEqual([{}]);
  });

  it('gives a user reference to a live user, and a sensitive value to a caller who may see it', async () => {
    const [a, boss] = (await cohort(2)).ids as [number, number];
    await bed.admin.post('/api/users/bulk', { operation: 'setAttribute', attribute: 'manager', value: boss, ids: [a] });
    await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'salary_band',
      value: 4,
      ids: [a],
    });
    expect(await attributesOf([a])).toEqual([{ manager: boss, salary_band: 4 }]);
    const row = (await auditOf('user.update')).find(
      (r) => r.targets.includes(a) && 'attributes.salary_band' in (r.changes ?? {}),
    );
    expect(row?.context.sensitivity).toEqual({ 'attributes.salary_band': 'sensitive' });
  });

  it('refuses one unique value for several users, and skips the user when another holds it', async () => {
    const [a, b] = (await cohort(2)).ids as [number, number];
    const several = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'employee_no',
      value: 'E-100',
      ids: [a, b],
    });
    expect(several.statusCode).toBe(422);
    expect(several.json().errors.value[0]).toContain('is unique');
    const { word } = await cohort(2);
    const selection = { query: { q: word } };
    const job = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'employee_no',
      value: 'E-1',
      selection,
    });
    expect(job.statusCode).toBe(422);
    const first = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'employee_no',
      value: 'E-100',
      ids: [a],
    });
    expect(first.json().affected).toEqual([a]);
    const taken = (
      await bed.admin.post('/api/users/bulk', {
        operation: 'setAttribute',
        attribute: 'employee_no',
        value: 'e-100',
        ids: [b],
      })
    ).json();
    expect(codes(taken)).toEqual([[b, 'ATTRIBUTE_VALUE_TAKEN']]);
    expect(taken.skipped[0].message).toContain('Employee number');
    // Clearing a unique attribute over many users is fine.
    const cleared = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'employee_no',
      value: null,
      ids: [a, b],
    });
    expect(cleared.json().affected).toEqual([a, b]);
    expect(await attributesOf([a, b])).toEqual([{}, {}]);
  });
});

describe('POST /users/bulk setAttribute with a selection', () => {
  it('sets the value over every match in chunks, less the exceptions, recorded per chunk with the job', async () => {
    const { word, ids } = await cohort(5);
    const [left, ...rest] = ids as [number, ...number[]];
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'phone',
      value: '+44 20 7946 0000',
      selection: { query: { q: word }, except: [left] },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().job).toMatchObject({ operation: 'setAttribute', status: 'queued', progress: { total: 4 } });
    runner(2);
    const done = await waitForJob(res.json().job.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { processed: 4, changed: 4, skipped: 0 } });
    expect(await attributesOf([left, ...rest])).toEqual([{}, ...rest.map(() => ({ phone: '+44 20 7946 0000' }))]);
    const rows = (await auditOf('user.update')).filter((r) => r.context.job_id === done.id);
    expect(rows.flatMap((r) => r.targets).sort()).toEqual([...rest].sort());
    expect(rows[0]?.context).toMatchObject({ bulk: 'setAttribute', sensitivity: { 'attributes.phone': 'personal' } });
  });

  it('runs a dry run as a job that changes nothing, and keeps a sensitive value out of the submission audit', async () => {
    const { word, ids } = await cohort(3);
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'salary_band',
      value: 7,
      dryRun: true,
      selection: { query: { q: word } },
    });
    runner(2);
    const done = await waitForJob(res.json().job.id);
    expect(done).toMatchObject({ status: 'succeeded', dryRun: true, progress: { processed: 3, changed: 3 } });
    expect(await attributesOf(ids)).toEqual([{}, {}, {}]);
    const submitted = (await auditOf('job.submit')).find((r) => r.targets.includes(done.id));
    expect(submitted?.context).toMatchObject({
      attribute: 'salary_band',
      sensitivity: { 'attributes.salary_band': 'sensitive' },
    });
    expect(submitted?.context).not.toHaveProperty('value');
  });

  it('fails the job with a sentence when its attribute is removed before it runs', async () => {
    await bed.admin.post('/api/attributes', { key: 'desk', label: 'Desk', type: 'string' });
    const { word } = await cohort(2);
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'desk',
      value: 'B-12',
      selection: { query: { q: word } },
    });
    expect(res.statusCode).toBe(202);
    expect((await bed.admin.delete('/api/attributes/desk')).statusCode).toBe(200);
    runner(2);
    const done = await waitForJob(res.json().job.id);
    expect(done.status).toBe('failed');
    expect(done.error).toContain('There is no attribute with the key "desk"');
  });

  it('reads what is stored in the user_attribute_values table: one row per user holding a value', async () => {
    const [a] = (await cohort(1)).ids as [number];
    await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: 'Support',
      ids: [a],
    });
    await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: 'Legal',
      ids: [a],
    });
    const rows = await bed.t.db.sequelize.query<{ text_value: string }>(
      'SELECT v.text_value FROM user_attribute_values v JOIN attributes a ON a.id = v.attribute_id WHERE a.`key` = :key AND v.user_id = :a',
      { replacements: { key: 'department', a }, type: QueryTypes.SELECT },
    );
    expect(rows.map((r) => r.text_value)).toEqual(['Legal']);
  });
});

describe('a bulk job over a selection filtered by an attribute', () => {
  it('changes only the users the list shows for that filter (filters[attributes] judged at submission)', async () => {
    const { word, ids } = await cohort(4);
    const [a, b, c, d] = ids as [number, number, number, number];
    const set = await bed.admin.post('/api/users/bulk', {
      operation: 'setAttribute',
      attribute: 'department',
      value: 'Legal',
      ids: [a, c],
    });
    expect(set.statusCode, set.body).toBe(200);
    const query = { q: word, filters: { attributes: { department: 'legal' } } };
    const listed = await bed.admin.get(`/api/users?q=${word}&filters[attributes][department]=legal`);
    expect(
      listed
        .json()
        .rows.map((r: { id: number }) => r.id)
        .sort(),
    ).toEqual([a, c].sort());
    const res = await bed.admin.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: { query },
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().job.progress.total).toBe(2);
    runner(2);
    expect(await waitForJob(res.json().job.id)).toMatchObject({ status: 'succeeded', progress: { changed: 2 } });
    const active = await Promise.all(
      [a, b, c, d].map(async (id) => (await bed.admin.get(`/api/users/${id}`)).json().item.is_active),
    );
    expect(active).toEqual([false, true, false, true]);
  });

  it('refuses a filter on a sensitive attribute from a caller who may not see it, as the list does', async () => {
    const { word } = await cohort(1);
    const res = await manager.post('/api/users/bulk', {
      operation: 'setActive',
      active: false,
      selection: { query: { q: word, filters: { attributes: { salary_band: 3 } } } },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['filters.attributes.salary_band']);
  });
});

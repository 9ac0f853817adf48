import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { auditRows } from '../support/jobs-bed.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Custom attribute values on users (issue 38, SPEC §14): shown, created and updated through the
 * users' own routes, each value judged by the definition, references and unique values checked
 * against the database, and a sensitive attribute absent for whoever may not see it.
 */

let t: TestApp;
let admin: ReturnType<typeof request>;
let manager: ReturnType<typeof request>;

const password = { password: 'Correct-Horse-9', password_confirmation: 'Correct-Horse-9' };
let n = 0;
const newUser = (extra: Record<string, unknown> = {}) => ({
  name: `Person ${++n}`,
  email: `person${n}@example.com`,
  ...password,
  ...extra,
});

const declare = (body: Record<string, unknown>) => admin.post('/api/attributes', { sensitivity: 'none', ...body });

beforeAll(async () => {
  t = await startTestApp();
  const a = await given(t.db).user({ roles: ['admin'] });
  admin = request(t.app, { token: await given(t.db).token(a.id) });
  const m = await given(t.db).user({ roles: ['manager'] });
  manager = request(t.app, { token: await given(t.db).token(m.id) });
  for (const res of [
    await declare({ key: 'department', label: 'Department', type: 'enum', values: ['Sales', 'Support'] }),
    await declare({ key: 'level', label: 'Level', type: 'number', validators: { min: 1, max: 9 } }),
    await declare({ key: 'start_date', label: 'Start date', type: 'date' }),
    await declare({ key: 'remote', label: 'Remote', type: 'boolean' }),
    await declare({ key: 'manager', label: 'Manager', type: 'user' }),
    await declare({ key: 'employee_number', label: 'Employee number', type: 'string', unique: true }),
    await declare({ key: 'salary', label: 'Salary', type: 'number', sensitivity: 'sensitive' }),
  ]) {
    expect(res.statusCode).toBe(201);
  }
});
afterAll(() => t.close());

async function create(body: Record<string, unknown>) {
  const res = await admin.post('/api/users', newUser(body));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item as { id: number; attributes: Record<string, unknown> };
}

async function versionOf(id: number): Promise<string> {
  return (await admin.get(`/api/users/${id}/edit`)).json().item.version;
}

async function update(caller: ReturnType<typeof request>, id: number, body: Record<string, unknown>) {
  const show = (await admin.get(`/api/users/${id}`)).json().item;
  return caller.put(`/api/users/${id}`, { name: show.name, email: show.email, version: await versionOf(id), ...body });
}

describe('values through create, show and update', () => {
  it('creates a user with values in their canonical form, shows them, and audits each as attributes.<key>', async () => {
    const boss = await create({});
    const item = await create({
      attributes: { department: 'sales', level: 3, start_date: '2026-01-05', remote: true, manager: boss.id },
    });
    // The enumeration's value is stored as declared, whatever letter case was sent.
    const expected = { department: 'Sales', level: 3, start_date: '2026-01-05', remote: true, manager: boss.id };
    expect(item.attributes).toEqual(expected);
    expect((await admin.get(`/api/users/${item.id}`)).json().item.attributes).toEqual(expected);
    const [row] = (await auditRows(t.db, 'user.create')).filter((r) => r.targets.includes(item.id));
    expect(row?.changes).toMatchObject({
      'attributes.department': { before: null, after: 'Sales' },
      'attributes.manager': { before: null, after: boss.id },
    });
  });

  it('changes only the keys an update names; null clears one; the audit holds before and after', async () => {
    const item = await create({ attributes: { department: 'Sales', level: 2 } });
    const res = await update(admin, item.id, { attributes: { level: 4, department: null } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item.attributes).toEqual({ level: 4 });
    const untouched = await update(admin, item.id, {});
    expect(untouched.json().item.attributes).toEqual({ level: 4 });
    const [row] = (await auditRows(t.db, 'user.update')).filter((r) => r.targets.includes(item.id));
    expect(row?.changes).toEqual({
      'attributes.level': { before: 2, after: 4 },
      'attributes.department': { before: 'Sales', after: null },
    });
  });

  it('answers 422 naming each refused attribute and its rule, and stores nothing', async () => {
    const res = await admin.post(
      '/api/users',
      newUser({ attributes: { level: 12, department: 'Marketing', start_date: '2026-02-30', nope: 'x' } }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'attributes.level': ['Level must be 9 or less.'],
      'attributes.department': ['Department must be one of: Sales, Support.'],
      'attributes.start_date': ['Start date must be a date, as YYYY-MM-DD.'],
      'attributes.nope': ['There is no attribute with the key "nope".'],
    });
    const [found] = await t.db.sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM users WHERE email = :email', {
      replacements: { email: `person${n}@example.com` },
      type: QueryTypes.SELECT,
    });
    expect(Number(found?.n)).toBe(0);
  });

  it('asks a creation for every required attribute', async () => {
    expect((await declare({ key: 'site', label: 'Site', type: 'string', required: true })).statusCode).toBe(201);
    try {
      const res = await admin.post('/api/users', newUser());
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ 'attributes.site': ['Site is required.'] });
      const cleared = await update(admin, (await create({ attributes: { site: 'Lyon' } })).id, {
        attributes: { site: null },
      });
      expect(cleared.json().errors).toEqual({ 'attributes.site': ['Site is required.'] });
    } finally {
      await admin.delete('/api/attributes/site');
    }
  });
});

describe('values that need the database', () => {
  it('refuses a reference to a user who does not exist or is deleted', async () => {
    const gone = await create({ is_active: false });
    const deleted = await admin.delete(`/api/users/${gone.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    for (const manager of [gone.id, 999_999]) {
      const res = await admin.post('/api/users', newUser({ attributes: { manager } }));
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({
        'attributes.manager': ['Manager must name a user who exists and is not deleted.'],
      });
    }
  });

  it('keeps a unique value unique, whatever the letter case, even when two writes race', async () => {
    await create({ attributes: { employee_number: 'E-100' } });
    const res = await admin.post('/api/users', newUser({ attributes: { employee_number: 'e-100' } }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'attributes.employee_number': ['Another user already has this Employee number: it must be unique.'],
    });
    const raced = await Promise.all(
      [1, 2, 3].map(() => admin.post('/api/users', newUser({ attributes: { employee_number: 'E-200' } }))),
    );
    expect(raced.map((r) => r.statusCode).sort()).toEqual([201, 422, 422]);
  });
});

describe('a sensitive attribute', () => {
  it('exists only for holders of attributes.sensitive.view: absent from the answers and forms of anyone else', async () => {
    const item = await create({ attributes: { salary: 52_000, level: 5 } });
    expect(item.attributes).toEqual({ salary: 52_000, level: 5 });
    const seen = (await manager.get(`/api/users/${item.id}`)).json().item.attributes;
    expect(seen).toEqual({ level: 5 });
    const form = (await manager.get(`/api/users/${item.id}/edit`)).json();
    expect(form.item.attributes).toEqual({ level: 5 });
    expect(form.options.attributes.map((a: { key: string }) => a.key)).not.toContain('salary');
    const adminForm = (await admin.get('/api/users/new')).json();
    expect(adminForm.options.attributes.map((a: { key: string }) => a.key)).toContain('salary');
  });

  it('cannot be written by whoever may not see it, and survives their edits', async () => {
    const item = await create({ attributes: { salary: 61_000 } });
    const refused = await update(manager, item.id, { attributes: { salary: 1 } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ 'attributes.salary': ['There is no attribute with the key "salary".'] });
    const edited = await update(manager, item.id, { name: 'Renamed by a manager', attributes: { level: 2 } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().item.attributes).toEqual({ level: 2 });
    expect((await admin.get(`/api/users/${item.id}`)).json().item.attributes).toEqual({ salary: 61_000, level: 2 });
  });
});

describe('deleting a user named by a user attribute', () => {
  it('clears every value that names them, each holder audited, and leaves other values alone', async () => {
    const boss = await create({ is_active: false });
    const reports = [
      await create({ attributes: { manager: boss.id, level: 3 } }),
      await create({ attributes: { manager: boss.id } }),
    ];
    const deleted = await admin.delete(`/api/users/${boss.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await admin.get(`/api/users/${reports[0]?.id}`)).json().item.attributes).toEqual({ level: 3 });
    expect((await admin.get(`/api/users/${reports[1]?.id}`)).json().item.attributes).toEqual({});
    const rows = (await auditRows(t.db, 'user.update')).filter((r) => r.context?.reason === 'reference_deleted');
    expect(rows.map((r) => r.targets).sort()).toEqual(reports.map((r) => [r.id]).sort());
    expect(rows[0]?.changes).toEqual({ 'attributes.manager': { before: boss.id, after: null } });
  });

  it('clears them when a bulk deletion takes the user', async () => {
    const boss = await create({ is_active: false });
    const report = await create({ attributes: { manager: boss.id } });
    const res = await admin.post('/api/users/bulk', { operation: 'delete', ids: [boss.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect((await admin.get(`/api/users/${report.id}`)).json().item.attributes).toEqual({});
  });
});

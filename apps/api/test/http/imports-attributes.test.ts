import { type Job, type JobShow, PERMISSIONS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { QueryTypes } from 'sequelize';
import { beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { auditRows, jobsBed } from '../support/jobs-bed.js';

// Custom attribute columns in an import (issue 38 item 2): matched by key or label, each cell read
// as its type and judged by the values' plan, a refused cell a problem line naming the attribute.
const bed = jobsBed();

let counter = 0;
const fresh = () => `ia${++counter}x${process.pid}`;
const csv = (lines: string[]) => `${lines.join('\r\n')}\r\n`;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  const define = async (body: Record<string, unknown>) => {
    const res = await bed.admin.post('/api/attributes', body);
    expect(res.statusCode, res.body).toBe(201);
  };
  await define({ key: 'department', label: 'Department', type: 'enum', values: ['Sales', 'Support'] });
  await define({ key: 'cost_centre', label: 'Cost centre', type: 'string' });
  await define({ key: 'start_date', label: 'Start date', type: 'date' });
  await define({ key: 'badge', label: 'Badge number', type: 'number', validators: { min: 1 } });
  await define({ key: 'remote', label: 'Remote', type: 'boolean' });
  await define({ key: 'manager', label: 'Manager', type: 'user' });
  await define({ key: 'employee_no', label: 'Employee number', type: 'string', unique: true });
  await define({ key: 'salary_band', label: 'Salary band', type: 'number', sensitivity: 'sensitive' });
});

async function importAndWait(body: string | Buffer, query = '', who = bed.adminToken, type = 'text/csv') {
  bed.runner(50);
  const res = await bed.t.app.inject({
    method: 'POST',
    url: `/api/users/imports${query ? `?${query}` : ''}`,
    headers: { authorization: `Bearer ${who}`, 'content-type': type },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(202);
  const job = await bed.waitForJob((res.json() as { job: Job }).job.id);
  const shown = (await bed.admin.get(`/api/jobs/${job.id}`)).json() as JobShow;
  return { job, problems: shown.problems };
}

/** The user holding `email` and its attributes, as the administrator reads them. */
async function userOf(email: string) {
  const found = await bed.t.db.models.User.findOne({ where: { email } });
  if (!found) return null;
  const item = (await bed.admin.get(`/api/users/${found.id}`)).json().item;
  return { id: found.id, attributes: item.attributes as Record<string, unknown> };
}

describe('POST /users/imports with custom attribute columns', () => {
  it('matches columns by label or key and reads each cell as its type', async () => {
    const w = fresh();
    const boss = await given(bed.t.db).user({ email: `boss.${w}@example.com` });
    const file = csv([
      'Name,Email,department,Cost Centre,Start date,Badge number,REMOTE,Manager',
      `Ada,ada.${w}@example.com,sales,CC-1,2026-03-01,42,yes,boss.${w}@example.com`,
      `Bob,bob.${w}@example.com,Support,,2026-03-02 00:00,7.5,0,${boss.id}`,
    ]);
    const { job, problems } = await importAndWait(file);
    expect(problems).toEqual([]);
    expect(job.import?.outcomes).toMatchObject({ create: 2, error: 0 });
    expect(job.import?.file.columns.map((c) => c.field)).toEqual([
      'name',
      'email',
      'attributes.department',
      'attributes.cost_centre',
      'attributes.start_date',
      'attributes.badge',
      'attributes.remote',
      'attributes.manager',
    ]);
    expect(job.import?.file.unknown).toEqual([]);
    expect((await userOf(`ada.${w}@example.com`))?.attributes).toEqual({
      department: 'Sales',
      cost_centre: 'CC-1',
      start_date: '2026-03-01',
      badge: 42,
      remote: true,
      manager: boss.id,
    });
    expect((await userOf(`bob.${w}@example.com`))?.attributes).toEqual({
      department: 'Support',
      start_date: '2026-03-02',
      badge: 7.5,
      remote: false,
      manager: boss.id,
    });
    const ada = await userOf(`ada.${w}@example.com`);
    const created = (await auditRows(bed.t.db, 'user.create')).find((r) => r.targets.includes(ada?.id as number));
    expect(created?.changes?.['attributes.department']).toEqual({ before: null, after: 'Sales' });
  });

  it('reports a refused cell as a problem line naming the attribute and the rule, and imports the rest', async () => {
    const w = fresh();
    await given(bed.t.db).user({ email: `holder.${w}@example.com` });
    await importAndWait(csv(['name,email,employee number', `Holder,holder.${w}@example.com,E-${w}`]), 'mode=upsert');
    const file = csv([
      'name,email,department,start date,badge number,remote,manager,employee_no',
      `Good,good.${w}@example.com,Sales,,,,,`,
      `Enum,enum.${w}@example.com,Marketing,,,,,`,
      `Day,day.${w}@example.com,,03/04/2026,,,,`,
      `Comma,comma.${w}@example.com,,,"12,5",,,`,
      `Low,low.${w}@example.com,,,0,,,`,
      `Maybe,maybe.${w}@example.com,,,,maybe,,`,
      `Ghost,ghost.${w}@example.com,,,,,nobody.${w}@example.com,`,
      `Taken,taken.${w}@example.com,,,,,,e-${w}`,
      `First,first.${w}@example.com,,,,,,N-${w}`,
      `Second,second.${w}@example.com,,,,,,N-${w}`,
    ]);
    const { job, problems } = await importAndWait(file);
    expect(problems.map((p) => [p.line, p.code, p.message])).toEqual([
      [3, 'INVALID_ATTRIBUTE', 'Department must be one of: Sales, Support.'],
      [4, 'INVALID_ATTRIBUTE', 'Start date must be a date, as YYYY-MM-DD.'],
      [5, 'INVALID_ATTRIBUTE', 'Badge number must be a number.'],
      [6, 'INVALID_ATTRIBUTE', 'Badge number must be 1 or more.'],
      [7, 'INVALID_ATTRIBUTE', 'Remote must be true or false.'],
      [8, 'INVALID_ATTRIBUTE', 'Manager must name a user who exists and is not deleted.'],
      [9, 'INVALID_ATTRIBUTE', 'Another user already has this Employee number: it must be unique.'],
      [11, 'INVALID_ATTRIBUTE', 'Line 10 already has this Employee number: it must be unique.'],
    ]);
    expect(job.import?.outcomes).toMatchObject({ create: 2, error: 8 });
    expect((await userOf(`first.${w}@example.com`))?.attributes).toEqual({ employee_no: `N-${w}` });
    expect(await userOf(`enum.${w}@example.com`)).toBeNull();
  });

  it('in upsert mode changes only the attribute columns present; an empty cell leaves the value as it is', async () => {
    const w = fresh();
    const file = (lines: string[]) => csv(['name,email,department,cost centre', ...lines]);
    await importAndWait(file([`Cleo,cleo.${w}@example.com,Sales,CC-9`]));
    const cleo = await userOf(`cleo.${w}@example.com`);
    const set = { operation: 'setAttribute', attribute: 'badge', value: 3, ids: [cleo?.id] };
    expect((await bed.admin.post('/api/users/bulk', set)).statusCode).toBe(200);
    const { job } = await importAndWait(file([`Cleo,cleo.${w}@example.com,Support,`]), 'mode=upsert');
    expect(job.import?.outcomes).toMatchObject({ update: 1 });
    expect(job.import?.fields).toEqual({ 'attributes.department': 1 });
    expect((await userOf(`cleo.${w}@example.com`))?.attributes).toEqual({
      department: 'Support',
      cost_centre: 'CC-9',
      badge: 3,
    });
    const updated = (await auditRows(bed.t.db, 'user.update')).filter((r) => r.context.job_id === job.id);
    expect(updated.map((r) => r.changes)).toEqual([{ 'attributes.department': { before: 'Sales', after: 'Support' } }]);
    const again = await importAndWait(file([`Cleo,cleo.${w}@example.com,support,`]), 'mode=upsert');
    expect(again.job.import?.outcomes).toMatchObject({ unchanged: 1, update: 0 });
  });

  it('leaves a sensitive attribute column unknown for a caller who may not see it', async () => {
    const w = fresh();
    await given(bed.t.db).role(`importer${w}`, ['users.view', 'users.create', 'users.update']);
    const importer = await given(bed.t.db).user({ roles: [`importer${w}`] });
    const token = await given(bed.t.db).token(importer.id);
    const file = csv(['name,email,salary band', `Dee,dee.${w}@example.com,5`]);
    const { job } = await importAndWait(file, '', token);
    expect(job.import?.file.unknown).toEqual(['salary band']);
    expect((await userOf(`dee.${w}@example.com`))?.attributes).toEqual({});
    // Named by the caller's own mapping, it is still an attribute that does not exist for them.
    const mapped = await importAndWait(
      csv(['name,email,band', `Eve,eve.${w}@example.com,5`]),
      'map[band]=attributes.salary_band',
      token,
    );
    expect(mapped.problems.map((p) => [p.code, p.message])).toEqual([
      ['INVALID_ATTRIBUTE', 'There is no attribute with the key "salary_band".'],
    ]);
    const viewer = request(bed.t.app, { token });
    expect((await viewer.get('/api/users?q=dee')).statusCode).toBe(200);
  });

  it('writes a sensitive value for a caller who may see it, its audit row marked sensitive', async () => {
    const w = fresh();
    const { problems } = await importAndWait(csv(['name,email,salary band', `Ida,ida.${w}@example.com,4`]));
    expect(problems).toEqual([]);
    const ida = await userOf(`ida.${w}@example.com`);
    expect(ida?.attributes).toEqual({ salary_band: 4 });
    const created = (await auditRows(bed.t.db, 'user.create')).find((r) => r.targets.includes(ida?.id as number));
    expect(created?.context.sensitivity).toEqual({ 'attributes.salary_band': 'sensitive' });
  });

  it("keeps a sensitive value out of the import's report for a reader who may not see it", async () => {
    const w = fresh();
    const file = (band: number) =>
      csv(['name,email,salary band,cost centre', `Jo,jo.${w}@example.com,${band},CC-${band}`]);
    await importAndWait(file(4));
    const { job } = await importAndWait(file(6), 'mode=upsert');
    await given(bed.t.db).role(
      `almost${w}`,
      PERMISSIONS.filter((p) => p !== 'attributes.sensitive.view'),
    );
    const almost = request(bed.t.app, {
      token: await given(bed.t.db).token((await given(bed.t.db).user({ roles: [`almost${w}`] })).id),
    });
    const beforeOf = async (caller: typeof almost) => {
      const res = await caller.get(`/api/jobs/${job.id}/report?format=json`);
      expect(res.statusCode, res.body).toBe(200);
      return (JSON.parse(res.body) as Array<{ before: Record<string, unknown> | null }>)[0]?.before;
    };
    expect(await beforeOf(bed.admin)).toEqual({ 'attributes.salary_band': 4, 'attributes.cost_centre': 'CC-4' });
    expect(await beforeOf(almost)).toEqual({ 'attributes.cost_centre': 'CC-4' });
    const csvReport = await almost.get(`/api/jobs/${job.id}/report?format=csv`);
    expect(csvReport.body).toContain('CC-4');
    expect(csvReport.body).not.toContain('salary_band":4');
  });

  it('reads an XLSX file: dates, numbers and yes/no cells as a spreadsheet writes them', async () => {
    const w = fresh();
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('People');
    sheet.addRow(['Name', 'Email', 'Start date', 'Badge number', 'Remote', 'Department']);
    sheet.addRow(['Fay', `fay.${w}@example.com`, new Date(Date.UTC(2025, 10, 3)), 1234, true, 'SUPPORT']);
    sheet.getCell('C2').numFmt = 'yyyy-mm-dd';
    const body = Buffer.from(await book.xlsx.writeBuffer());
    const { problems } = await importAndWait(body, '', bed.adminToken, XLSX);
    expect(problems).toEqual([]);
    expect((await userOf(`fay.${w}@example.com`))?.attributes).toEqual({
      start_date: '2025-11-03',
      badge: 1234,
      remote: true,
      department: 'Support',
    });
  });

  it("undoes an import's attribute changes with its other fields", async () => {
    const w = fresh();
    const file = (lines: string[]) => csv(['name,email,department,cost centre', ...lines]);
    await importAndWait(file([`Gus,gus.${w}@example.com,Sales,`]));
    const { job } = await importAndWait(file([`Gus,gus.${w}@example.com,Support,CC-2`]), 'mode=upsert');
    expect((await userOf(`gus.${w}@example.com`))?.attributes).toEqual({ department: 'Support', cost_centre: 'CC-2' });
    const res = await bed.admin.post(`/api/jobs/${job.id}/undo`);
    expect(res.statusCode, res.body).toBe(202);
    const undo = await bed.waitForJob(res.json().job.id);
    expect(undo).toMatchObject({ status: 'succeeded', progress: { changed: 1 } });
    expect((await userOf(`gus.${w}@example.com`))?.attributes).toEqual({ department: 'Sales' });
  });

  it('undoing an import that created accounts takes their list keys and live values with them', async () => {
    const w = fresh();
    const { job } = await importAndWait(
      csv([
        'name,email,department,roles',
        `Ivy,ivy.${w}@example.com,Sales,viewer`,
        `Jon,jon.${w}@example.com,Support,viewer`,
      ]),
    );
    const created = await bed.t.db.models.User.findAll({
      where: { email: [`ivy.${w}@example.com`, `jon.${w}@example.com`] },
    });
    const ids = created.map((u) => u.id);
    const held = async () => {
      const [row] = await bed.t.db.sequelize.query<{ keys: number | string; live: number | string }>(
        `SELECT (SELECT COUNT(*) FROM user_role_enum_keys WHERE user_id IN (:ids)) AS \`keys\`,
                (SELECT COUNT(*) FROM user_attribute_values WHERE user_id IN (:ids) AND user_live = 1) AS live`,
        { replacements: { ids }, type: QueryTypes.SELECT },
      );
      return { keys: Number(row?.keys), live: Number(row?.live) };
    };
    expect(ids).toHaveLength(2);
    expect(await held()).toEqual({ keys: 2, live: 2 });
    const res = await bed.admin.post(`/api/jobs/${job.id}/undo`);
    expect(res.statusCode, res.body).toBe(202);
    expect(await bed.waitForJob(res.json().job.id)).toMatchObject({ status: 'succeeded', progress: { changed: 2 } });
    expect(await held()).toEqual({ keys: 0, live: 0 });
  });

  // Last: a required attribute applies to every later creation in this file.
  it('refuses a new account without a required attribute, and updates an existing one without it', async () => {
    const w = fresh();
    await importAndWait(csv(['name,email', `Hal,hal.${w}@example.com`]));
    await bed.admin.post('/api/attributes', { key: 'site', label: 'Site', type: 'string', required: true });
    const { job, problems } = await importAndWait(
      csv(['name,email,department', `New,new.${w}@example.com,Sales`, `Hal,hal.${w}@example.com,Sales`]),
      'mode=upsert',
    );
    expect(problems.map((p) => [p.line, p.code, p.message])).toEqual([[2, 'INVALID_ATTRIBUTE', 'Site is required.']]);
    expect(job.import?.outcomes).toMatchObject({ update: 1, error: 1 });
  });
});

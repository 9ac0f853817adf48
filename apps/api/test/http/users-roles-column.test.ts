import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// The users list's `roles` column: each user's role names, on the page and in every export.
let t: TestApp;
let counter = 0;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A fresh caller per test (the export rate limit counts per user), and a word only this test's users share. */
async function arrange() {
  counter += 1;
  const word = `rolescol${counter}x${process.pid}`;
  const g = given(t.db);
  const both = await g.user({ name: `${word} Both`, roles: ['viewer', 'manager'] });
  const none = await g.user({ name: `${word} None` });
  const caller = await g.user({ name: 'Zz Caller', roles: ['manager'] });
  return { word, both: both.id, none: none.id, http: request(t.app, { token: await g.token(caller.id) }) };
}

describe('GET /api/users: the roles column', () => {
  it('carries each row’s role names, alphabetical, beside their count; none is an empty list', async () => {
    const { word, both, none, http } = await arrange();
    const res = await http.get(`/api/users?q=${word}&sort=name&dir=asc`);
    expect(res.statusCode).toBe(200);
    expect(res.json().rows.map((r: Record<string, unknown>) => [r.id, r.roles, r.roles_count])).toEqual([
      [both, ['manager', 'viewer'], 2],
      [none, [], 0],
    ]);
  });

  it('keeps the names when the list is filtered by a role', async () => {
    const { word, both, http } = await arrange();
    const viewer = (await t.db.models.Role.findOne({ where: { name: 'viewer' } }))?.id;
    const res = await http.get(`/api/users?q=${word}&filters[role_id][]=${viewer}`);
    expect(res.json().rows.map((r: Record<string, unknown>) => [r.id, r.roles])).toEqual([
      [both, ['manager', 'viewer']],
    ]);
  });
});

describe('GET /api/users/export: the roles column', () => {
  it('writes the names in a CSV cell as a person would, under "Roles" (the header an import reads back)', async () => {
    const { word, both, none, http } = await arrange();
    const res = await http.get(`/api/users/export?format=csv&q=${word}&sort=name&dir=asc&columns[]=id&columns[]=roles`);
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body.replace('\uFEFF', '')) as string[][];
    expect(rows).toEqual([
      ['ID', 'Roles'],
      [String(both), 'manager, viewer'],
      [String(none), ''],
    ]);
  });

  it('writes the names as an array in JSON, with every column by default', async () => {
    const { word, both, none, http } = await arrange();
    const res = await http.get(`/api/users/export?format=json&q=${word}&sort=name&dir=asc`);
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.id, r.roles, r.roles_count])).toEqual([
      [both, ['manager', 'viewer'], 2],
      [none, [], 0],
    ]);
  });

  it('writes the names in an XLSX cell as the CSV does', async () => {
    const { word, both, http } = await arrange();
    const res = await http.get(
      `/api/users/export?format=xlsx&q=${word}&sort=name&dir=asc&columns[]=id&columns[]=roles`,
    );
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Users');
    expect(sheet?.getRow(2).values).toEqual([undefined, both, 'manager, viewer']);
  });

  it('counts the roles from their names when both columns are exported', async () => {
    const { word, http } = await arrange();
    const res = await http.get(
      `/api/users/export?format=json&q=${word}&sort=name&dir=asc&columns[]=roles_count&columns[]=roles`,
    );
    expect(res.json()).toEqual([
      { roles_count: 2, roles: ['manager', 'viewer'] },
      { roles_count: 0, roles: [] },
    ]);
  });
});

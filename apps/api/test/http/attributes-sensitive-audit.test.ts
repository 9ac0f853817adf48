import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A sensitive attribute's values in the audit trail (issue 38): the trail records that one
 * changed; its values are read only by holders of attributes.sensitive.view — in the list, an
 * event, and every export format — and a value written while the attribute was sensitive stays
 * hidden after it is relaxed.
 */

let t: TestApp;
let admin: ReturnType<typeof request>;
let auditor: ReturnType<typeof request>;
let userId: number;

beforeAll(async () => {
  t = await startTestApp();
  const a = await given(t.db).user({ roles: ['admin'] });
  admin = request(t.app, { token: await given(t.db).token(a.id) });
  await given(t.db).role('auditor', ['audit.view', 'users.view']);
  const r = await given(t.db).user({ roles: ['auditor'] });
  auditor = request(t.app, { token: await given(t.db).token(r.id) });
  const declared = await admin.post('/api/attributes', {
    key: 'salary',
    label: 'Salary',
    type: 'number',
    sensitivity: 'sensitive',
  });
  expect(declared.statusCode).toBe(201);
  await admin.post('/api/attributes', { key: 'level', label: 'Level', type: 'number', sensitivity: 'none' });
  const created = await admin.post('/api/users', {
    name: 'Paid Person',
    email: 'paid@example.com',
    password: 'Correct-Horse-9',
    password_confirmation: 'Correct-Horse-9',
    attributes: { salary: 73_456, level: 4 },
  });
  expect(created.statusCode).toBe(201);
  userId = created.json().item.id;
});
afterAll(() => t.close());

/** Every cell of an XLSX file's first sheet, as text. */
async function sheetText(payload: Buffer): Promise<string> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(payload as unknown as ArrayBuffer);
  const cells: string[] = [];
  book.worksheets[0]?.eachRow((row) => {
    row.eachCell((cell) => {
      cells.push(String(cell.value));
    });
  });
  return cells.join('\n');
}

async function creation(caller: ReturnType<typeof request>) {
  const list = await caller.get(`/api/audit?filters[action][]=user.create&perPage=100`);
  expect(list.statusCode, list.body).toBe(200);
  const row = list.json().rows.find((r: { target_ids: number[] }) => r.target_ids.includes(userId));
  expect(row).toBeDefined();
  return row as { id: number; changes: Record<string, unknown>; hidden_changes: string[] };
}

describe('the audit trail of a sensitive value', () => {
  it('shows the value to a holder of attributes.sensitive.view', async () => {
    const row = await creation(admin);
    expect(row.changes['attributes.salary']).toEqual({ from: null, to: 73_456 });
    expect(row.hidden_changes).toEqual([]);
  });

  it('names the change without its value for any other reader: list, event and every export', async () => {
    const row = await creation(auditor);
    expect(row.changes).not.toHaveProperty('attributes.salary');
    expect(row.changes['attributes.level']).toEqual({ from: null, to: 4 });
    expect(row.hidden_changes).toEqual(['attributes.salary']);
    const event = await auditor.get(`/api/audit/${row.id}`);
    expect(event.json().item.hidden_changes).toEqual(['attributes.salary']);
    expect(event.body).not.toContain('73456');
    for (const format of ['csv', 'json', 'xlsx']) {
      const file = await auditor.get(`/api/audit/export?format=${format}&filters[action][]=user.create`);
      expect(file.statusCode).toBe(200);
      const text = format === 'xlsx' ? await sheetText(file.rawPayload) : file.body;
      expect(text).toContain('attributes.level');
      expect(text).not.toContain('73456');
      expect(text).not.toContain('salary');
    }
  });

  it('stays hidden after the attribute is relaxed: the value was written as sensitive', async () => {
    const relaxed = await admin.put('/api/attributes/salary', {
      label: 'Salary',
      type: 'number',
      sensitivity: 'none',
    });
    expect(relaxed.statusCode, relaxed.body).toBe(200);
    expect((await creation(auditor)).hidden_changes).toEqual(['attributes.salary']);
  });
});

describe('the audit filtered by attribute', () => {
  it('lists the events that changed an attribute, newest first, whatever else they changed', async () => {
    const edit = (await admin.get(`/api/users/${userId}/edit`)).json().item;
    const renamed = await admin.put(`/api/users/${userId}`, {
      name: 'Renamed Person',
      email: edit.email,
      version: edit.version,
    });
    expect(renamed.statusCode).toBe(200);
    const levelled = await admin.put(`/api/users/${userId}`, {
      name: 'Renamed Person',
      email: edit.email,
      version: (await admin.get(`/api/users/${userId}/edit`)).json().item.version,
      attributes: { level: 5 },
    });
    expect(levelled.statusCode).toBe(200);
    const res = await auditor.get('/api/audit?filters[attribute]=level');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().rows as Array<{ action: string; changes: Record<string, { to: unknown }> }>;
    expect(rows.map((r) => [r.action, r.changes['attributes.level']?.to])).toEqual([
      ['user.update', 5],
      ['user.create', 4],
    ]);
    expect(res.json().meta.total).toBe(2);
    // With a user's history too: the attribute drives the read, the history narrows it.
    const mine = await auditor.get(`/api/audit?filters[attribute]=level&filters[user_id]=${userId}&perPage=1`);
    expect(mine.json().rows.map((r: { action: string }) => r.action)).toEqual(['user.update']);
    expect(mine.json().meta.total).toBe(2);
    const elsewhere = await auditor.get('/api/audit?filters[attribute]=level&filters[target_id]=987654');
    expect(elsewhere.json().rows).toEqual([]);
    const none = await auditor.get('/api/audit?filters[attribute]=department');
    expect(none.json().rows).toEqual([]);
    const bad = await auditor.get('/api/audit?filters[attribute]=Not%20A%20Key');
    expect(bad.statusCode).toBe(422);
  });
});

describe('an export filtered by a sensitive attribute', () => {
  it('keeps the filter in its audit event for those who may see the attribute, and leaves it out for others', async () => {
    const sensitive = await admin.post('/api/attributes', {
      key: 'grade',
      label: 'Grade',
      type: 'number',
      sensitivity: 'sensitive',
    });
    expect(sensitive.statusCode).toBe(201);
    const file = await admin.get('/api/users/export?format=csv&filters[attributes][grade][from]=91357');
    expect(file.statusCode, file.body).toBe(200);
    const list = await admin.get('/api/audit?filters[action][]=users.export&perPage=1');
    const id = list.json().rows[0].id;
    const seen = (await admin.get(`/api/audit/${id}`)).json().item.context;
    expect(JSON.stringify(seen)).toContain('91357');
    const hidden = await auditor.get(`/api/audit/${id}`);
    expect(hidden.statusCode).toBe(200);
    expect(hidden.body).not.toContain('91357');
  });
});

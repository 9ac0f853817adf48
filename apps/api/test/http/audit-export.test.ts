import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

const BOM = '\uFEFF';
let t: TestApp;
let adminId: number;
let http: ReturnType<typeof request>;
let grace: number;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  adminId = (await g.user({ roles: ['admin'], name: 'Ada Exporter' })).id;
  await g.user({ roles: ['admin'] });
  const token = await g.token(adminId);
  http = request(t.app, { token });
  const admin = usersApi(t.app, token);
  grace = (await g.user({ name: 'Grace Export', email: 'grace.export@example.com' })).id;
  expect((await admin.setActive(grace, false)).statusCode).toBe(200);
  expect((await admin.remove(grace)).statusCode).toBe(204);
  // Enough events for several batches of the export (500 each).
  const ids: number[] = [];
  for (let i = 0; i < 12; i += 1) ids.push((await g.user({ name: `Many ${i}` })).id);
  for (let round = 0; round < 55; round += 1) {
    const res = await admin.bulk({ operation: 'setActive', ids, active: round % 2 === 1 });
    expect(res.statusCode).toBe(200);
  }
  for (let i = 0; i < 1_100; i += 1) {
    await t.db.models.AuditLog.create({
      actor_id: adminId,
      action: 'auth.login',
      target_type: 'user',
      target_ids: [adminId],
      ip: '203.0.113.9',
    });
  }
});
afterAll(() => t.close());

describe('GET /api/audit/export', () => {
  it('downloads a user’s history as CSV: quoted labels, from → to as JSON text, the door', async () => {
    const res = await http.get(`/api/audit/export?filters[target_id]=${grace}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-\d{8}-\d{6}\.csv"$/);
    const lines = res.body.replace(BOM, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('"ID","When","Who","Action","Targets","Changes","IP address","Through"');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"user.delete"');
    expect(lines[2]).toContain('"user.deactivate"');
    expect(lines[2]).toContain('"{""is_active"":{""from"":true,""to"":false}}"');
    expect(lines[2]).toContain('"Ada Exporter"');
    expect(lines[2]).toContain('"{""kind"":""token"",""name"":""test""}"');
  });

  it('exports every matching event across batches, in the list’s order, and records the export', async () => {
    const res = await http.get('/api/audit/export?format=json&filters[action]=auth.login&columns[]=id&columns[]=ip');
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Array<{ id: number; ip: string }>;
    expect(rows).toHaveLength(1_100);
    expect(Object.keys(rows[0] ?? {})).toEqual(['id', 'ip']);
    const ids = rows.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const recorded = await t.db.models.AuditLog.findOne({ where: { action: 'audit.export' }, order: [['id', 'DESC']] });
    expect(recorded?.context).toMatchObject({ format: 'json', filters: { action: ['auth.login'] } });
  });

  it('writes every target of a bulk, not the first 20', async () => {
    const res = await http.get('/api/audit/export?format=json&filters[action]=users.bulk.setActive&perPage=1');
    const rows = res.json() as Array<{ target_ids: number[] }>;
    expect(rows).toHaveLength(55);
    expect(rows.every((r) => r.target_ids.length === 12)).toBe(true);
  });

  it('follows the alternatives of q across batches (a user named as actor or target)', async () => {
    const res = await http.get('/api/audit/export?format=json&q=ada%20exp&columns[]=id');
    const rows = res.json() as Array<{ id: number }>;
    // Her 1 100 logins, 55 bulks, a deactivation and a delete, and the exports so far.
    expect(rows.length).toBeGreaterThanOrEqual(1_157);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it('downloads XLSX that a spreadsheet library reads back', async () => {
    const res = await http.get(`/api/audit/export?format=xlsx&filters[target_id]=${grace}`);
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Audit');
    expect(sheet?.rowCount).toBe(3);
    expect(sheet?.getRow(2).getCell(4).value).toBe('user.delete');
  });

  it('is a file download: the tRPC door refuses it with the path to use', async () => {
    const input = encodeURIComponent(JSON.stringify({ format: 'csv' }));
    const res = await http.get(`/api/trpc/audit.export?input=${input}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Export is a file download: use GET /api/audit/export.');
  });

  it('is for audit.view holders only', async () => {
    const viewer = await given(t.db).token((await given(t.db).user({ roles: ['viewer'] })).id);
    const res = await request(t.app, { token: viewer }).get('/api/audit/export');
    expect(res.statusCode).toBe(403);
    expect(res.json().permission).toBe('audit.view');
  });
});

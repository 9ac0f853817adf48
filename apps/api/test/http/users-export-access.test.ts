import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A fresh caller per test: the export rate limit counts per user. */
async function exporter(spec: { roles?: string[]; permissions?: string[] } = { roles: ['manager'] }) {
  const g = given(t.db);
  const user = await g.user({ ...spec, name: 'Zz Exporter' });
  return { id: user.id, http: request(t.app, { token: await g.token(user.id) }) };
}

describe('GET /api/users/export: who may export, how often, and the record kept', () => {
  it('writes one audit row per export, before streaming, with what was asked', async () => {
    const { id, http } = await exporter();
    const res = await http.get(
      '/api/users/export?format=json&q=auditmark&sort=email&dir=desc&filters[is_active]=active&ids[]=1&ids[]=2&columns[]=id',
    );
    expect(res.statusCode).toBe(200);
    const rows = await t.db.models.AuditLog.findAll({ where: { action: 'users.export', actor_id: id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.context).toEqual({
      format: 'json',
      columns: ['id'],
      filters: { is_active: true, trashed: 'without' },
      q: 'auditmark',
      sort: 'email',
      dir: 'desc',
      ids: 2,
    });
  });

  it('allows 10 exports a minute per user; the 11th is refused with Retry-After', async () => {
    const { http } = await exporter();
    for (let i = 0; i < 10; i += 1) {
      expect((await http.get('/api/users/export?format=json&q=ratemark')).statusCode).toBe(200);
    }
    const refused = await http.get('/api/users/export?format=json&q=ratemark');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another user's allowance is their own.
    expect((await (await exporter()).http.get('/api/users/export?format=json&q=ratemark')).statusCode).toBe(200);
  });

  it('refuses callers without users.export (403) and anonymous ones (401)', async () => {
    const viewer = await exporter({ roles: ['viewer'] });
    const res = await viewer.http.get('/api/users/export');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.export' });
    expect((await request(t.app).get('/api/users/export')).statusCode).toBe(401);
  });

  it('refuses an unknown format with 422', async () => {
    const { http } = await exporter();
    const res = await http.get('/api/users/export?format=pdf');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { format: [expect.stringContaining('csv')] },
    });
  });

  it('exports the trash view only for callers who may see deleted users', async () => {
    const gone = await given(t.db).user({ name: 'trashmark Gone', active: false, deleted: true });
    const manager = await exporter();
    const refused = await manager.http.get('/api/users/export?filters[trashed]=only');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.restore' });
    const restorer = await exporter({ roles: ['manager'], permissions: ['users.restore'] });
    const res = await restorer.http.get('/api/users/export?format=json&filters[trashed]=only&q=trashmark');
    expect(res.json().map((r: { id: number }) => r.id)).toEqual([gone.id]);
  });

  it('is refused on the tRPC door, which cannot carry a file, without counting or auditing', async () => {
    const { id, http } = await exporter();
    const input = encodeURIComponent(JSON.stringify({ format: 'csv' }));
    const res = await http.get(`/api/trpc/users.export?input=${input}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      message: 'Export is a file download: use GET /api/users/export.',
      data: { code: 'BAD_REQUEST' },
    });
    expect(await t.db.models.AuditLog.count({ where: { action: 'users.export', actor_id: id } })).toBe(0);
  });
});

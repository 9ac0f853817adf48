import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucketKey, peek } from '../../src/auth/rate-limit.js';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const HOST = 'users.example.test';
const EXPORT = '/api/users/export?format=json&q=sameoriginmark';
const REFUSAL = 'Start the export from the application itself: a link or page on another site cannot start it.';

/** A fresh manager per test (the export allowance counts per user), signed in by cookie or token. */
async function exporter(via: 'cookie' | 'token' = 'cookie') {
  const g = given(t.db);
  const user = await g.user({ roles: ['manager'], name: 'Zz Exporter' });
  const credential =
    via === 'cookie'
      ? { cookie: await loginCookie(t.app, user.email, user.password) }
      : { token: await g.token(user.id) };
  return {
    id: user.id,
    withHeaders: (headers: Record<string, string>) =>
      request(t.app, { ...credential, headers: { host: HOST, ...headers } }),
  };
}

const audited = (id: number) => t.db.models.AuditLog.count({ where: { action: 'users.export', actor_id: id } });
const allowance = (id: number) => peek(t.db, bucketKey('export', String(id)), 60_000);

describe('GET /api/users/export with a session cookie: only from the application itself', () => {
  it('refuses a cross-site navigation without spending the allowance or writing an audit row', async () => {
    const { id, withHeaders } = await exporter();
    const res = await withHeaders({ 'sec-fetch-site': 'cross-site' }).get(EXPORT);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', detail: REFUSAL });
    expect(await audited(id)).toBe(0);
    expect(await allowance(id)).toBeNull();
  });

  it.each([
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['neither Sec-Fetch-Site nor Origin', {}],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin: null', { origin: 'null' }],
    [
      'Sec-Fetch-Site: same-origin with a foreign Origin',
      { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
    ],
  ])('refuses a request with %s', async (_, headers: Record<string, string>) => {
    const { id, withHeaders } = await exporter();
    const res = await withHeaders(headers).get(EXPORT);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', detail: REFUSAL });
    expect(await audited(id)).toBe(0);
  });

  it.each([
    ['Sec-Fetch-Site: same-origin (a link or fetch on its own pages)', { 'sec-fetch-site': 'same-origin' }],
    ['Sec-Fetch-Site: none (the address typed or bookmarked)', { 'sec-fetch-site': 'none' }],
    ['an Origin naming this host', { origin: `https://${HOST}` }],
  ])('exports for a request with %s', async (_, headers: Record<string, string>) => {
    const { id, withHeaders } = await exporter();
    const res = await withHeaders(headers).get(EXPORT);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(await audited(id)).toBe(1);
    expect((await allowance(id))?.hits).toBe(1);
  });

  it('guards the procedure, so the tRPC door refuses a cross-site request the same way', async () => {
    const { id, withHeaders } = await exporter();
    const input = encodeURIComponent(JSON.stringify({ format: 'csv' }));
    const res = await withHeaders({ 'sec-fetch-site': 'cross-site' }).get(`/api/trpc/users.export?input=${input}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ message: REFUSAL, data: { code: 'FORBIDDEN' } });
    expect(await audited(id)).toBe(0);
  });
});

describe('GET /api/users/export with a bearer token: no browser attaches one on its own', () => {
  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('exports for a request with %s', async (_, headers: Record<string, string>) => {
    const { id, withHeaders } = await exporter('token');
    const res = await withHeaders(headers).get(EXPORT);
    expect(res.statusCode).toBe(200);
    expect(await audited(id)).toBe(1);
  });
});

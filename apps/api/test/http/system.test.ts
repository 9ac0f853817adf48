import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('health and readiness', () => {
  it('reports the process up on /api/health without credentials', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', version: expect.any(String) });
  });

  it('reports the database reachable on /api/ready', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    // Without DATABASE_READ_URLS there is no replica to report.
    expect(res.json()).toMatchObject({ status: 'ok', checks: { database: 'ok', primary: 'ok', replicas: [] } });
  });

  it('answers the same procedure through the tRPC door', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/trpc/system.ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ result: { data: { status: 'ok', checks: { database: 'ok' } } } });
  });

  it('echoes a sane caller request id and invents one otherwise', async () => {
    const given = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const hostile = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'a b\u0000c' },
    });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers on every response', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('accepts long URLs such as an export of 10 000 selected ids', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const ids = Array.from({ length: 10_000 }, (_, i) => `ids[]=${100_000 + i}`).join('&');
    const res = await fetch(`${address}/api/health?${ids}`);
    expect(res.status).toBe(200);
  });

  it('answers an unknown API path with a problem+json 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json()).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      title: expect.any(String),
      detail: expect.any(String),
    });
  });
});

describe('when the database is gone', () => {
  it('answers /api/ready with 503 UNAVAILABLE on both doors, without internals', async () => {
    const own = await startTestApp();
    await own.db.close();
    const rest = await own.app.inject({ method: 'GET', url: '/api/ready' });
    expect(rest.statusCode).toBe(503);
    expect(rest.json()).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    expect(rest.body).not.toMatch(/sequelize|SELECT|at \w+ \(/i);
    const trpc = await own.app.inject({ method: 'GET', url: '/api/trpc/system.ready' });
    expect(trpc.json().error.data).toMatchObject({ code: 'UNAVAILABLE', httpStatus: 503 });
    expect(trpc.body).not.toMatch(/stack|sequelize|SELECT/i);
    const health = await own.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    await own.close();
  });
});

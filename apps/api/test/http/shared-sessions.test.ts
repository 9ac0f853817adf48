import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { buildTestApp, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Two API instances, each with its own connection pool and no shared memory, on one database:
 * what a load balancer in front of several processes sees.
 */
let a: TestApp;
let bDb: Database;
let b: Awaited<ReturnType<typeof buildTestApp>>;

beforeAll(async () => {
  a = await startTestApp();
  bDb = await openDatabase({ url: a.target.url, sqlitePath: a.target.sqlitePath, poolMax: 5 });
  b = await buildTestApp({ config: a.config, db: bDb });
  await b.ready();
});
afterAll(async () => {
  await b.close();
  await bDb.close();
  await a.close();
});

describe('sessions shared by two instances', () => {
  it('accepts on one instance a session opened on the other, and ends it everywhere at logout', async () => {
    const ann = await given(a.db).user({ roles: ['viewer'] });
    const cookie = await loginCookie(a.app, ann.email, ann.password);
    expect((await request(b, { cookie }).get('/api/auth/me')).json().user.id).toBe(ann.id);
    expect((await request(b, { cookie }).post('/api/auth/logout')).statusCode).toBe(204);
    expect((await request(a.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
  });

  it('sees a deactivation made through one instance on the other at once', async () => {
    const bob = await given(a.db).user();
    const cookie = await loginCookie(b, bob.email, bob.password);
    await a.db.models.User.update({ is_active: false }, { where: { id: bob.id } });
    expect((await request(b, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
  });

  it('shares the login rate limit', async () => {
    const limited = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_EMAIL: '2' });
    const otherDb = await openDatabase({ url: limited.target.url, sqlitePath: limited.target.sqlitePath, poolMax: 2 });
    const other = await buildTestApp({ config: limited.config, db: otherDb });
    const cid = await given(limited.db).user();
    await request(limited.app).post('/api/auth/login', { email: cid.email, password: 'wrong-one-1' });
    await request(other).post('/api/auth/login', { email: cid.email, password: 'wrong-one-2' });
    expect(
      (await request(limited.app).post('/api/auth/login', { email: cid.email, password: cid.password })).statusCode,
    ).toBe(429);
    await other.close();
    await otherDb.close();
    await limited.close();
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request, sessionCookie } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const withoutRequestId = (body: string) => {
  const { requestId: _, ...rest } = JSON.parse(body) as Record<string, unknown>;
  return rest;
};

describe('login', () => {
  it('answers the user and the full capability map, and sets a safe session cookie', async () => {
    const ann = await given(t.db).user({ roles: ['manager'], name: 'Ann Manager' });
    const res = await request(t.app).post('/api/auth/login', { email: ann.email, password: ann.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: { id: ann.id, name: 'Ann Manager', email: ann.email },
      can: {
        'users.view': true,
        'users.create': false,
        'users.update': true,
        'users.delete': false,
        'users.restore': false,
        'users.forceDelete': false,
        'users.export': true,
        'users.setActive': true,
        'roles.view': true,
        'roles.create': false,
        'roles.update': false,
        'roles.delete': false,
        'audit.view': false,
        'tokens.manage': false,
        'webhooks.manage': false,
        'jobs.view': false,
        'auth.manage': false,
        'attributes.manage': false,
        'attributes.sensitive.view': false,
      },
      two_factor: { enrolled: false, required: false },
    });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^sid=[\w-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');
  });

  it('stores only a hash of the session id', async () => {
    const bob = await given(t.db).user();
    const cookie = await loginCookie(t.app, bob.email, bob.password);
    const value = cookie.slice('sid='.length);
    const rows = await t.db.models.Session.findAll({ where: { user_id: bob.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(createHash('sha256').update(value).digest('hex'));
    expect(rows[0]?.id).not.toContain(value);
  });

  it('accepts the e-mail in any case and with stray spaces', async () => {
    const cid = await given(t.db).user({ email: 'Cid.Mixed@Example.com' });
    const res = await request(t.app).post('/api/auth/login', {
      email: '  cid.mixed@EXAMPLE.com ',
      password: cid.password,
    });
    expect(res.statusCode).toBe(200);
  });

  it('gives the same 401 for a wrong password, an unknown e-mail, an inactive and a deleted user', async () => {
    const g = given(t.db);
    const active = await g.user();
    const inactive = await g.user({ active: false });
    const deleted = await g.user({ deleted: true });
    const attempts = [
      { email: active.email, password: 'wrong-password' },
      { email: 'nobody-here@example.com', password: active.password },
      { email: inactive.email, password: inactive.password },
      { email: deleted.email, password: deleted.password },
    ];
    const bodies = [];
    for (const attempt of attempts) {
      const res = await request(t.app).post('/api/auth/login', attempt);
      expect(res.statusCode).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
      bodies.push(withoutRequestId(res.body));
    }
    expect(bodies[0]).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });

  it('takes as long for an unknown e-mail as for a wrong password', async () => {
    const dan = await given(t.db).user();
    const time = async (email: string) => {
      const started = performance.now();
      await request(t.app).post('/api/auth/login', { email, password: 'not-the-password' });
      return performance.now() - started;
    };
    await time(dan.email);
    // Interleaved, and compared by their medians: a busy machine slows both kinds alike
    // instead of deciding the ratio by which pair a stall happened to hit.
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      wrong.push(await time(dan.email));
      unknown.push(await time(`ghost-${i}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    expect(median(unknown) / median(wrong)).toBeGreaterThan(0.5);
    expect(median(unknown) / median(wrong)).toBeLessThan(2);
  });

  it('validates the body with 422 and field errors', async () => {
    const res = await request(t.app).post('/api/auth/login', { email: '', password: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: { email: ['Enter your e-mail address.'] } });
  });

  it('issues a new session id at every login and ends the one it replaces', async () => {
    const eve = await given(t.db).user();
    const first = await loginCookie(t.app, eve.email, eve.password);
    const again = await request(t.app, { cookie: first }).post('/api/auth/login', {
      email: eve.email,
      password: eve.password,
    });
    const second = sessionCookie(again);
    expect(second).not.toBe(first);
    expect((await request(t.app, { cookie: first }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { cookie: second }).get('/api/auth/me')).statusCode).toBe(200);
  });

  it('writes audit rows for a login and a failed login, never with the password', async () => {
    const fay = await given(t.db).user();
    await request(t.app).post('/api/auth/login', { email: fay.email, password: 'bad-password-1' });
    await loginCookie(t.app, fay.email, fay.password);
    const rows = await t.db.models.AuditLog.findAll({
      where: { action: ['auth.login', 'auth.loginFailed'] },
      order: [['id', 'ASC']],
    });
    const mine = rows.filter((r) => r.target_ids.includes(fay.id));
    expect(mine.map((r) => r.action)).toEqual(['auth.loginFailed', 'auth.login']);
    expect(mine[1]?.actor_id).toBe(fay.id);
    expect(mine[0]?.ip).toBeTruthy();
    // Both came through the sign-in form's door: a session was asked for.
    expect(mine.map((r) => r.via)).toEqual(['session', 'session']);
    expect(JSON.stringify(mine.map((r) => r.get()))).not.toContain('bad-password-1');
  });

  it('shows audit readers a failed sign-in’s e-mail only when what was typed is an e-mail address', async () => {
    const auditor = await given(t.db).token((await given(t.db).user({ roles: ['admin'] })).id);
    // A password typed into the e-mail field, then a well-formed address of nobody.
    await request(t.app).post('/api/auth/login', { email: 'Tr0ub4dor&3-horse', password: 'x' });
    await request(t.app).post('/api/auth/login', { email: ' Nobody@Example.COM', password: 'x' });
    const rows = (await request(t.app, { token: auditor }).get('/api/audit?filters[action]=auth.loginFailed')).json()
      .rows as Array<{ id: number }>;
    const contexts = [];
    for (const row of rows.slice(0, 2)) {
      const shown = await request(t.app, { token: auditor }).get(`/api/audit/${row.id}`);
      expect(shown.body.toLowerCase()).not.toContain('tr0ub4dor');
      contexts.push(shown.json().item.context);
    }
    // Newest first.
    expect(contexts).toEqual([
      { email: 'nobody@example.com', user_agent: expect.any(String) },
      { email: null, email_withheld: true, user_agent: expect.any(String) },
    ]);
  });
});

describe('the session cookie', () => {
  it('is marked Secure when COOKIE_SECURE=true', async () => {
    const secure = await startTestApp({ COOKIE_SECURE: 'true' });
    const gus = await given(secure.db).user();
    const res = await request(secure.app).post('/api/auth/login', { email: gus.email, password: gus.password });
    expect(String(res.headers['set-cookie'])).toContain('Secure');
    await secure.close();
  });
});

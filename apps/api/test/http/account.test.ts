import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { outboxEvents, subscribe } from '../support/webhooks.js';

const NEW_PASSWORD = 'a-new-Password-7';
const change = (current: string, password = NEW_PASSWORD) => ({
  current_password: current,
  password,
  password_confirmation: password,
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_EMAIL: '4' });
});
afterAll(() => t.close());

describe('self-service: one’s own account', () => {
  it('shows a viewer their own account, no users.update needed', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'], name: 'Ann Viewer' });
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    const res = await request(t.app, { cookie }).get('/api/account');
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({
      id: ann.id,
      name: 'Ann Viewer',
      email: ann.email,
      roles: ['viewer'],
      two_factor: { enrolled: false, required: false },
    });
    expect(res.json().item.last_sign_in_at).toEqual(expect.any(String));
    const trpc = await t.app.inject({ method: 'GET', url: '/api/trpc/account.show', headers: { cookie } });
    expect(trpc.json().result.data).toEqual(res.json());
  });

  it('renames oneself (and only oneself), audited', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'], name: 'Ann Before' });
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    const res = await request(t.app, { cookie }).put('/api/account', { name: '  Ann After ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().item.name).toBe('Ann After');
    const blank = await request(t.app, { cookie }).put('/api/account', { name: ' ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors.name).toBeDefined();
    const rows = await t.db.sequelize.query<{ action: string; changes: unknown }>(
      `SELECT a.action FROM audit_logs a JOIN audit_targets g ON g.audit_id = a.id
        WHERE g.target_id = :id AND a.action = 'account.update'`,
      { replacements: { id: ann.id }, type: QueryTypes.SELECT },
    );
    expect(rows).toHaveLength(1);
  });

  it('tells webhook receivers about the new name as user.updated, as an administrator’s edit would', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'], name: 'Ann Old' });
    await subscribe(t.db, ['user.updated']);
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    expect((await request(t.app, { cookie }).put('/api/account', { name: 'Ann New' })).statusCode).toBe(200);
    const events = (await outboxEvents(t.db)).filter((e) => (e.payload.data.user as { id?: number })?.id === ann.id);
    expect(events.map((e) => e.payload.type)).toEqual(['user.updated']);
    expect(events[0]?.payload.data).toMatchObject({
      user: { name: 'Ann New' },
      changes: { name: { from: 'Ann Old', to: 'Ann New' } },
    });
  });

  it('needs a session or token: 401 without', async () => {
    expect((await request(t.app).get('/api/account')).statusCode).toBe(401);
    expect((await request(t.app).put('/api/account/password', change('x'))).statusCode).toBe(401);
  });
});

describe('self-service: one’s own password', () => {
  it('changes it with the current one; every other session and token ends, this one stays', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'] });
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    const other = await loginCookie(t.app, ann.email, ann.password);
    const token = await given(t.db).token(ann.id);
    const res = await request(t.app, { cookie }).put('/api/account/password', change(ann.password));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sessions_ended: 1, tokens_revoked: 1 });
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(200);
    expect((await request(t.app, { cookie: other }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { token }).get('/api/auth/me')).statusCode).toBe(401);
    const login = (password: string) => request(t.app).post('/api/auth/login', { email: ann.email, password });
    expect((await login(NEW_PASSWORD)).statusCode).toBe(200);
    expect((await login(ann.password)).statusCode).toBe(401);
  });

  it('refuses a wrong current password on its field, and a new one outside the policy', async () => {
    const ann = await given(t.db).user();
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    const wrong = await request(t.app, { cookie }).put('/api/account/password', change('not-my-password'));
    expect(wrong.statusCode).toBe(422);
    expect(Object.keys(wrong.json().errors)).toEqual(['current_password']);
    const short = await request(t.app, { cookie }).put('/api/account/password', change(ann.password, 'short'));
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password).toBeDefined();
    const mismatch = await request(t.app, { cookie }).put('/api/account/password', {
      ...change(ann.password),
      password_confirmation: 'something-else-1',
    });
    expect(mismatch.json().errors.password_confirmation).toBeDefined();
    // Nothing changed.
    expect(
      (await request(t.app).post('/api/auth/login', { email: ann.email, password: ann.password })).statusCode,
    ).toBe(200);
  });

  it('limits guesses of the current password like sign-in attempts', async () => {
    const ann = await given(t.db).user();
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    for (let i = 0; i < 4; i += 1) {
      expect((await request(t.app, { cookie }).put('/api/account/password', change(`guess-${i}-xx`))).statusCode).toBe(
        422,
      );
    }
    const limited = await request(t.app, { cookie }).put('/api/account/password', change(ann.password));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // The same counter as the sign-in page's.
    const login = await request(t.app).post('/api/auth/login', { email: ann.email, password: ann.password });
    expect(login.statusCode).toBe(429);
  });

  it('never records a password in the audit trail', async () => {
    const ann = await given(t.db).user();
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    await request(t.app, { cookie }).put('/api/account/password', change(ann.password, 'Another-secret-99'));
    const rows = await t.db.sequelize.query<{ context: unknown }>(
      "SELECT context FROM audit_logs WHERE action = 'account.passwordChange'",
      { type: QueryTypes.SELECT },
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain('Another-secret-99');
    expect(JSON.stringify(rows)).not.toContain(ann.password);
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { type Caller, request, sessionCookie } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Sessions: one's own (/auth/sessions) and, for administrators, another user's (/users/{id}/sessions). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SESSION_IDLE_MINUTES: '30', LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
});
afterAll(() => t.close());

interface Listed {
  id: string;
  user_agent: string | null;
  ip: string | null;
  last_seen_at: string;
  current: boolean;
}

/** Signs in as `user` from a browser of this user agent; the session cookie. */
async function signIn(user: { email: string; password: string }, userAgent = 'Mozilla/5.0 (Test) Firefox/140.0') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password },
    headers: { 'user-agent': userAgent },
  });
  expect(res.statusCode).toBe(200);
  return sessionCookie(res);
}

const listOwn = async (who: Caller) => (await request(t.app, who).get('/api/auth/sessions')).json().items as Listed[];
const cookieValue = (cookie: string) => decodeURIComponent(cookie.slice('sid='.length));

describe('my sessions', () => {
  it('are listed with the current one marked, most recently seen first, by a handle only', async () => {
    const ann = await given(t.db).user();
    const phone = await signIn(ann, 'Phone Safari');
    const desk = await signIn(ann, 'Desk Chrome');
    const laptop = await signIn(ann, 'Laptop Firefox');
    const seenAgo = (cookie: string, minutes: number) =>
      t.db.models.Session.update(
        { last_seen_at: new Date(Date.now() - minutes * 60_000) },
        { where: { id: createHash('sha256').update(cookieValue(cookie)).digest('hex') } },
      );
    await seenAgo(phone, 5);
    await seenAgo(desk, 10);
    const res = await request(t.app, { cookie: phone }).get('/api/auth/sessions');
    expect(res.statusCode).toBe(200);
    const items = res.json().items as Listed[];
    // The phone's request just now counts as seeing it (written at most once a minute).
    expect(items.map((s) => [s.user_agent, s.current])).toEqual([
      ['Phone Safari', true],
      ['Laptop Firefox', false],
      ['Desk Chrome', false],
    ]);
    expect(items[0]?.ip).toBe('127.0.0.1');
    for (const s of items) expect(s.id).toMatch(/^[\w-]{22}$/);
    // Neither cookie value nor stored hash appears anywhere in the answer.
    for (const cookie of [laptop, phone, desk]) {
      expect(res.body).not.toContain(cookieValue(cookie));
      expect(res.body).not.toContain(createHash('sha256').update(cookieValue(cookie)).digest('hex'));
    }
  });

  it('leave out sessions past their idle or absolute lifetime', async () => {
    const bob = await given(t.db).user();
    const current = await signIn(bob, 'Current');
    await signIn(bob, 'Idle');
    await signIn(bob, 'Expired');
    await t.db.models.Session.update(
      { last_seen_at: new Date(Date.now() - 31 * 60_000) },
      { where: { user_id: bob.id, user_agent: 'Idle' } },
    );
    await t.db.models.Session.update(
      { expires_at: new Date(Date.now() - 1_000) },
      { where: { user_id: bob.id, user_agent: 'Expired' } },
    );
    expect((await listOwn({ cookie: current })).map((s) => s.user_agent)).toEqual(['Current']);
  });

  it('end one at once: its cookie is refused on the very next request, the others go on', async () => {
    const cid = await given(t.db).user();
    const mine = await signIn(cid, 'Mine');
    const other = await signIn(cid, 'Other');
    const target = (await listOwn({ cookie: mine })).find((s) => s.user_agent === 'Other') as Listed;
    const res = await request(t.app, { cookie: mine }).delete(`/api/auth/sessions/${target.id}`);
    expect(res.statusCode).toBe(204);
    expect((await request(t.app, { cookie: other }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { cookie: mine }).get('/api/auth/me')).statusCode).toBe(200);
    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'session.revoke', actor_id: cid.id } });
    expect(audit).toMatchObject({ target_type: 'user', target_ids: [cid.id], context: { count: 1 } });
    const again = await request(t.app, { cookie: mine }).delete(`/api/auth/sessions/${target.id}`);
    expect(again.statusCode).toBe(404);
    expect((await request(t.app, { cookie: mine }).delete('/api/auth/sessions/not a handle')).statusCode).toBe(422);
  });

  it('ending the current one is signing out: the cookie is cleared too', async () => {
    const dee = await given(t.db).user();
    const cookie = await signIn(dee);
    const [current] = await listOwn({ cookie });
    const res = await request(t.app, { cookie }).delete(`/api/auth/sessions/${current?.id}`);
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/^sid=;/);
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
  });

  it('"end all others" keeps the current one and says how many ended, through either door', async () => {
    const eve = await given(t.db).user();
    const keep = await signIn(eve, 'Keep');
    const others = [await signIn(eve, 'Two'), await signIn(eve, 'Three')];
    const res = await request(t.app, { cookie: keep }).delete('/api/auth/sessions');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ revoked: 2 });
    for (const cookie of others) expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { cookie: keep }).get('/api/auth/me')).statusCode).toBe(200);
    expect((await listOwn({ cookie: keep })).map((s) => s.current)).toEqual([true]);
    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'session.revoke', actor_id: eve.id } });
    expect(audit?.context).toEqual({ count: 2 });
    const fourth = await signIn(eve, 'Four');
    const viaTrpc = await request(t.app, { cookie: keep }).post('/api/trpc/auth.revokeOtherSessions', {});
    expect(viaTrpc.json(), viaTrpc.body).toMatchObject({ result: { data: { revoked: 1 } } });
    expect((await request(t.app, { cookie: fourth }).get('/api/auth/me')).statusCode).toBe(401);
  });

  it('are seen, none marked current, by a caller with an API token, who can end them all', async () => {
    const fay = await given(t.db).user();
    const browser = await signIn(fay);
    const token = await given(t.db).token(fay.id);
    const viaTrpc = await request(t.app, { token }).get('/api/trpc/auth.sessions');
    expect(viaTrpc.json().result.data.items.map((s: Listed) => s.current)).toEqual([false]);
    expect((await request(t.app, { token }).delete('/api/auth/sessions')).json()).toEqual({ revoked: 1 });
    expect((await request(t.app, { cookie: browser }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { token }).get('/api/auth/me')).statusCode).toBe(200);
  });
});

describe("another user's sessions", () => {
  it('an administrator sees them and ends one or all; each cookie is refused on the next request', async () => {
    const admin = await given(t.db).user({ roles: ['admin'] });
    const adminCookie = await signIn(admin, 'Admin desk');
    const gus = await given(t.db).user({ roles: ['viewer'] });
    const first = await signIn(gus, 'First');
    const second = await signIn(gus, 'Second');
    const third = await signIn(gus, 'Third');
    const listed = await request(t.app, { cookie: adminCookie }).get(`/api/users/${gus.id}/sessions`);
    expect(listed.statusCode).toBe(200);
    const items = listed.json().items as Listed[];
    expect(items.map((s) => s.user_agent).sort()).toEqual(['First', 'Second', 'Third']);
    expect(items.every((s) => !s.current)).toBe(true);
    const one = items.find((s) => s.user_agent === 'First') as Listed;
    expect(
      (await request(t.app, { cookie: adminCookie }).delete(`/api/users/${gus.id}/sessions/${one.id}`)).statusCode,
    ).toBe(204);
    expect((await request(t.app, { cookie: first }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { cookie: second }).get('/api/auth/me')).statusCode).toBe(200);
    const all = await request(t.app, { cookie: adminCookie }).delete(`/api/users/${gus.id}/sessions`);
    expect(all.json()).toEqual({ revoked: 2 });
    for (const cookie of [second, third])
      expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { cookie: adminCookie }).get('/api/auth/me')).statusCode).toBe(200);
    const audits = await t.db.models.AuditLog.findAll({ where: { action: 'session.revoke', actor_id: admin.id } });
    expect(audits.map((a) => [a.target_ids, a.context])).toEqual([
      [[gus.id], { count: 1 }],
      [[gus.id], { count: 2 }],
    ]);
  });

  it('needs users.update (403 FORBIDDEN) and stops at the privilege ceiling (403 OUTRANKED)', async () => {
    const viewerToken = await given(t.db).token((await given(t.db).user({ roles: ['viewer'] })).id);
    const managerToken = await given(t.db).token((await given(t.db).user({ roles: ['manager'] })).id);
    const boss = await given(t.db).user({ roles: ['admin'] });
    const bossCookie = await signIn(boss);
    const peer = await given(t.db).user({ roles: ['viewer'] });
    await signIn(peer);
    const forbidden = await request(t.app, { token: viewerToken }).get(`/api/users/${peer.id}/sessions`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.update' });
    for (const res of [
      await request(t.app, { token: managerToken }).get(`/api/users/${boss.id}/sessions`),
      await request(t.app, { token: managerToken }).delete(`/api/users/${boss.id}/sessions`),
      await request(t.app, { token: managerToken }).delete(`/api/users/${boss.id}/sessions/abcdefghijklmnopqrstuv`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('OUTRANKED');
    }
    const viaTrpc = await request(t.app, { token: managerToken }).post('/api/trpc/sessions.revokeAllFor', {
      id: boss.id,
    });
    expect(viaTrpc.json().error.data.code).toBe('OUTRANKED');
    expect((await request(t.app, { cookie: bossCookie }).get('/api/auth/me')).statusCode).toBe(200);
    // Within reach: a manager ends a viewer's sessions.
    expect((await request(t.app, { token: managerToken }).delete(`/api/users/${peer.id}/sessions`)).json()).toEqual({
      revoked: 1,
    });
  });

  it('answers 404 for a deleted or unknown user, and for a handle of someone else', async () => {
    const adminToken = await given(t.db).token((await given(t.db).user({ roles: ['admin'] })).id);
    const gone = await given(t.db).user({ deleted: true });
    const hal = await given(t.db).user();
    const ivy = await given(t.db).user();
    const ivyCookie = await signIn(ivy);
    const [ivys] = await listOwn({ cookie: ivyCookie });
    for (const res of [
      await request(t.app, { token: adminToken }).get(`/api/users/${gone.id}/sessions`),
      await request(t.app, { token: adminToken }).get('/api/users/999999/sessions'),
      await request(t.app, { token: adminToken }).delete(`/api/users/${hal.id}/sessions/${ivys?.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await request(t.app, { cookie: ivyCookie }).get('/api/auth/me')).statusCode).toBe(200);
  });
});

describe('without credentials', () => {
  it('every session route answers 401', async () => {
    const anonymous = request(t.app);
    for (const res of [
      await anonymous.get('/api/auth/sessions'),
      await anonymous.delete('/api/auth/sessions'),
      await anonymous.delete('/api/auth/sessions/abcdefghijklmnopqrstuv'),
      await anonymous.get('/api/users/1/sessions'),
      await anonymous.delete('/api/users/1/sessions'),
      await anonymous.delete('/api/users/1/sessions/abcdefghijklmnopqrstuv'),
    ]) {
      expect(res.statusCode).toBe(401);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A user's login history: the audit log's sign-in events for that user, with IP and user agent. */
let t: TestApp;
let auditor: string;
beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  auditor = await given(t.db).token((await given(t.db).user({ roles: ['admin'] })).id);
});
afterAll(() => t.close());

const signIn = (email: string, password: string, userAgent: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: { 'user-agent': userAgent },
    remoteAddress: ip,
  });

const HISTORY = (userId: number) =>
  `/api/audit?filters[user_id]=${userId}&filters[action][]=auth.login&filters[action][]=auth.loginFailed`;

describe('the login history', () => {
  it('lists successes and failures, newest first, each with its IP and user agent', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'] });
    expect((await signIn(ann.email, 'wrong-password', 'curl/8.5.0', '198.51.100.4')).statusCode).toBe(401);
    expect((await signIn(ann.email, ann.password, 'Mozilla/5.0 (Phone) Safari', '203.0.113.9')).statusCode).toBe(200);
    // Another event of the same user that is not a sign-in stays out of the history.
    await request(t.app, { token: auditor }).patch(`/api/users/${ann.id}/active`, { active: true });
    await given(t.db).token(ann.id);
    const res = await request(t.app, { token: auditor }).get(HISTORY(ann.id));
    expect(res.statusCode).toBe(200);
    expect(
      res.json().rows.map((r: Record<string, unknown>) => [r.action, r.ip, r.user_agent, r.actor_id, r.target_ids]),
    ).toEqual([
      ['auth.login', '203.0.113.9', 'Mozilla/5.0 (Phone) Safari', ann.id, [ann.id]],
      ['auth.loginFailed', '198.51.100.4', 'curl/8.5.0', null, [ann.id]],
    ]);
    expect(res.json().meta).toMatchObject({ total: 2 });
    expect(res.body).not.toContain('wrong-password');
  });

  it('answers the same through the tRPC door', async () => {
    const bob = await given(t.db).user();
    await signIn(bob.email, bob.password, 'Desk Firefox', '192.0.2.1');
    const input = encodeURIComponent(
      JSON.stringify({ filters: { user_id: bob.id, action: ['auth.login', 'auth.loginFailed'] } }),
    );
    const res = await request(t.app, { token: auditor }).get(`/api/trpc/audit.list?input=${input}`);
    expect(res.json().result.data.rows).toMatchObject([
      { action: 'auth.login', user_agent: 'Desk Firefox', ip: '192.0.2.1' },
    ]);
  });

  it('keeps at most 255 characters of a user agent, and none for other events', async () => {
    const cid = await given(t.db).user();
    await signIn(cid.email, cid.password, `Agent/${'x'.repeat(400)}`, '192.0.2.2');
    const login = (await request(t.app, { token: auditor }).get(HISTORY(cid.id))).json().rows[0];
    expect(login.user_agent).toHaveLength(255);
    expect(login.user_agent.startsWith('Agent/xxx')).toBe(true);
    const shown = await request(t.app, { token: auditor }).get(`/api/audit/${login.id}`);
    expect(shown.json().item).toMatchObject({
      user_agent: login.user_agent,
      context: { user_agent: login.user_agent },
    });
    const others = (await request(t.app, { token: auditor }).get('/api/audit?filters[action]=user.create')).json().rows;
    for (const row of others) expect(row.user_agent).toBeNull();
  });

  it('records a sign-in with an empty user agent as null', async () => {
    const dee = await given(t.db).user();
    expect((await signIn(dee.email, dee.password, '', '192.0.2.3')).statusCode).toBe(200);
    const [row] = (await request(t.app, { token: auditor }).get(HISTORY(dee.id))).json().rows;
    expect(row).toMatchObject({ action: 'auth.login', user_agent: null });
  });
});

import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { callback, ssoSignIn } from '../support/sso-flow.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PUBLIC_URL = 'http://people.example.test';

describe('single sign-on with a real OpenID provider', () => {
  let t: TestApp;
  let op: TestProvider;
  let admin: string;
  let providerId: number;
  let creating: number;

  const addProvider = async (over: Record<string, unknown> = {}) => {
    const res = await request(t.app, { cookie: admin }).post('/api/auth/providers', {
      name: 'Staff login',
      issuer: op.issuer,
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      allowed_domains: ['example.com'],
      ...over,
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json().item.id as number;
  };
  /** A person at the provider, and (unless `account: false`) the product's account with that e-mail. */
  const person = async (subject: string, claims: { email: string; email_verified?: boolean }) => {
    op.accounts.set(subject, { email_verified: true, ...claims });
    op.signInAs(subject);
  };

  beforeAll(async () => {
    op = await startTestProvider(PUBLIC_URL);
    t = await startTestApp({ SSO_ALLOW_INSECURE_ISSUER: 'true', PUBLIC_URL });
    const a = await given(t.db).user({ roles: ['admin'] });
    admin = await loginCookie(t.app, a.email, a.password);
    providerId = await addProvider();
    creating = await addProvider({ name: 'Creates accounts', create_users: true, default_roles: ['viewer'] });
  });
  afterAll(async () => {
    await t.close();
    await op.close();
  });

  it('signs an existing, active account in: 302 to / with a session that answers /auth/me', async () => {
    const user = await given(t.db).user({ email: 'ann@example.com', name: 'Ann' });
    await person('ann', { email: 'ann@example.com' });
    const out = await ssoSignIn(t.app, providerId);
    expect(out.status).toBe(302);
    expect(out.location).toBe('/');
    expect(out.session).not.toBeNull();
    const me = await request(t.app, { cookie: out.session as string }).get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ id: user.id, email: 'ann@example.com' });
    const [row] = await t.db.sequelize.query<{ context: unknown }>(
      "SELECT context FROM audit_logs WHERE action = 'auth.ssoLogin' ORDER BY id DESC",
      { type: QueryTypes.SELECT },
    );
    // MariaDB hands JSON back parsed, SQLite as text.
    const context = typeof row?.context === 'string' ? row.context : JSON.stringify(row?.context);
    expect(context).toContain('Staff login');
  });

  it('starts with PKCE S256, a state and a nonce, and keeps them out of the browser', async () => {
    const start = await t.app.inject({ method: 'GET', url: `/api/auth/sso/${providerId}/start` });
    expect(start.statusCode).toBe(302);
    const to = new URL(start.headers.location as string);
    expect(to.origin).toBe(op.issuer);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/sso/${providerId}/callback`);
    const state = to.searchParams.get('state') as string;
    const nonce = to.searchParams.get('nonce') as string;
    expect(state.length).toBeGreaterThan(20);
    expect(nonce.length).toBeGreaterThan(20);
    const cookie = String(start.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).not.toContain(state);
    expect(cookie).not.toContain(nonce);
  });

  it('sends a network that started too many sign-ins back to the sign-in page, storing nothing more', async () => {
    const start = () =>
      t.app.inject({ method: 'GET', url: `/api/auth/sso/${providerId}/start`, remoteAddress: '203.0.113.77' });
    const attempts = async () =>
      Number(
        (
          await t.db.sequelize.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM sso_attempts', {
            type: QueryTypes.SELECT,
          })
        )[0]?.n,
      );
    for (let i = 0; i < t.config.LOGIN_MAX_ATTEMPTS_PER_IP; i++) {
      expect(new URL((await start()).headers.location as string).origin).toBe(op.issuer);
    }
    const before = await attempts();
    const refused = await start();
    expect(refused.statusCode).toBe(302);
    expect(refused.headers.location).toBe('/login?error=sso_rate_limited');
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(await attempts()).toBe(before);
    // Another network is not held back.
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/auth/sso/${providerId}/start`,
      remoteAddress: '198.51.100.4',
    });
    expect(new URL(other.headers.location as string).origin).toBe(op.issuer);
  });

  it('refuses a callback whose state is not the one this browser started with (sso_state, no session)', async () => {
    await given(t.db).user({ email: 'bo@example.com' });
    await person('bo', { email: 'bo@example.com' });
    const out = await ssoSignIn(t.app, providerId, { rewrite: (u) => u.searchParams.set('state', 'forged') });
    expect(out).toMatchObject({ status: 302, location: '/login?error=sso_state', session: null });
  });

  it('refuses a callback in a browser that did not start it (no sso cookie)', async () => {
    await given(t.db).user({ email: 'cy@example.com' });
    await person('cy', { email: 'cy@example.com' });
    const out = await ssoSignIn(t.app, providerId, { cookie: () => '' });
    expect(out).toMatchObject({ status: 302, location: '/login?error=sso_state', session: null });
  });

  it('refuses a replayed callback: the second use of the same answer signs no one in', async () => {
    await given(t.db).user({ email: 'di@example.com' });
    await person('di', { email: 'di@example.com' });
    const first = await ssoSignIn(t.app, providerId);
    expect(first.location).toBe('/');
    const again = await callback(t.app, first.callbackPath, first.ssoCookie);
    expect(again).toMatchObject({ status: 302, location: '/login?error=sso_state', session: null });
  });

  it('refuses an e-mail the provider has not verified', async () => {
    await given(t.db).user({ email: 'ed@example.com' });
    await person('ed', { email: 'ed@example.com', email_verified: false });
    const out = await ssoSignIn(t.app, providerId);
    expect(out).toMatchObject({ location: '/login?error=sso_email_unverified', session: null });
  });

  it('refuses an e-mail outside the allowed domains', async () => {
    await given(t.db).user({ email: 'fay@elsewhere.org' });
    await person('fay', { email: 'fay@elsewhere.org' });
    const out = await ssoSignIn(t.app, providerId);
    expect(out).toMatchObject({ location: '/login?error=sso_domain', session: null });
  });

  it('refuses an inactive account', async () => {
    await given(t.db).user({ email: 'gil@example.com', active: false });
    await person('gil', { email: 'gil@example.com' });
    const out = await ssoSignIn(t.app, providerId);
    expect(out).toMatchObject({ location: '/login?error=sso_inactive', session: null });
  });

  it('refuses an unknown person when the provider does not create accounts', async () => {
    await person('hal', { email: 'hal@example.com' });
    const out = await ssoSignIn(t.app, providerId);
    expect(out).toMatchObject({ location: '/login?error=sso_no_account', session: null });
    const [row] = await t.db.sequelize.query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM users WHERE email = 'hal@example.com'",
      { type: QueryTypes.SELECT },
    );
    expect(Number(row?.n)).toBe(0);
  });

  it('creates the account with the default roles when the provider creates accounts', async () => {
    await person('ivy', { email: 'ivy@example.com' });
    const out = await ssoSignIn(t.app, creating);
    expect(out.location).toBe('/');
    const me = await request(t.app, { cookie: out.session as string }).get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    const id = me.json().user.id as number;
    const shown = await request(t.app, { cookie: admin }).get(`/api/users/${id}`);
    expect(shown.json().item).toMatchObject({ email: 'ivy@example.com', is_active: true });
    const roles = await t.db.sequelize.query<{ name: string }>(
      'SELECT r.name FROM roles r JOIN user_roles ur ON ur.role_id = r.id WHERE ur.user_id = :id',
      { replacements: { id }, type: QueryTypes.SELECT },
    );
    expect(roles.map((r) => r.name)).toEqual(['viewer']);
    // No password was set: the password door stays shut.
    const pw = await request(t.app).post('/api/auth/login', { email: 'ivy@example.com', password: '' });
    expect(pw.statusCode).not.toBe(200);
  });

  it("meets a role's two-factor requirement when the provider's amr says mfa, and only then", async () => {
    await t.db.sequelize.query("UPDATE roles SET require_two_factor = :yes WHERE name = 'manager'", {
      replacements: { yes: true },
    });
    await given(t.db).user({ email: 'max@example.com', roles: ['manager'] });
    op.accounts.set('max', { email: 'max@example.com', email_verified: true });
    op.signInAs('max', ['pwd', 'mfa']);
    const strong = await ssoSignIn(t.app, providerId);
    expect(strong.location).toBe('/');
    const strongUsers = await request(t.app, { cookie: strong.session as string }).get('/api/users');
    expect(strongUsers.statusCode, strongUsers.body).toBe(200);
    op.signInAs('max', ['pwd']);
    const weak = await ssoSignIn(t.app, providerId);
    expect(weak.location).toBe('/');
    const held = await request(t.app, { cookie: weak.session as string }).get('/api/users');
    expect(held.statusCode).toBe(403);
    expect(held.json().code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
  });

  it('sends a provider that is gone to the sign-in page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sso/999/start' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?error=sso_provider');
  });
});

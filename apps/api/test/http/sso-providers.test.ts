import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PUBLIC_URL = 'http://people.example.test';

describe('single sign-on providers: CRUD under auth.manage', () => {
  let t: TestApp;
  let op: TestProvider;
  let admin: string;
  const body = (over: Record<string, unknown> = {}) => ({
    name: 'Staff login',
    issuer: op.issuer,
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    allowed_domains: ['example.com'],
    create_users: false,
    default_roles: [],
    ...over,
  });

  beforeAll(async () => {
    op = await startTestProvider(PUBLIC_URL);
    t = await startTestApp({ SSO_ALLOW_INSECURE_ISSUER: 'true', PUBLIC_URL });
    const a = await given(t.db).user({ roles: ['admin'] });
    admin = await loginCookie(t.app, a.email, a.password);
  });
  afterAll(async () => {
    await t.close();
    await op.close();
  });

  it('creates a provider (201 {item}), reading the discovery document, and never answers the secret', async () => {
    const res = await request(t.app, { cookie: admin }).post('/api/auth/providers', body());
    expect(res.statusCode).toBe(201);
    const { item } = res.json();
    expect(item).toMatchObject({
      name: 'Staff login',
      issuer: op.issuer,
      client_id: CLIENT_ID,
      client_secret_set: true,
      allowed_domains: ['example.com'],
      create_users: false,
      default_roles: [],
      redirect_uri: `${PUBLIC_URL}/api/auth/sso/${item.id}/callback`,
    });
    expect(res.body).not.toContain(CLIENT_SECRET);
    const shown = await request(t.app, { cookie: admin }).get(`/api/auth/providers/${item.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().item).toEqual(item);
    expect(shown.body).not.toContain(CLIENT_SECRET);
    const list = await request(t.app, { cookie: admin }).get('/api/auth/providers');
    expect(list.json().rows.map((r: { id: number }) => r.id)).toContain(item.id);
    expect(list.json().meta.total).toBeGreaterThanOrEqual(1);
    const pub = await request(t.app).get('/api/auth/providers/public');
    expect(pub.statusCode).toBe(200);
    expect(pub.json()).toContainEqual({ id: item.id, name: 'Staff login' });
  });

  it('keeps the secret sealed at rest and out of the audit trail', async () => {
    const { item } = (
      await request(t.app, { cookie: admin }).post('/api/auth/providers', body({ name: 'Sealed' }))
    ).json();
    const [row] = (await t.db.sequelize.query('SELECT client_secret FROM auth_providers WHERE id = ?', {
      replacements: [item.id],
    })) as [Array<{ client_secret: string }>, unknown];
    expect(row[0]?.client_secret).not.toBe('');
    const [audit] = (await t.db.sequelize.query(
      "SELECT changes, context FROM audit_logs WHERE action LIKE 'authProvider.%'",
    )) as [unknown[], unknown];
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain(CLIENT_SECRET);
  });

  it('updates without a secret (the stored one stays) and deletes', async () => {
    const { item } = (
      await request(t.app, { cookie: admin }).post('/api/auth/providers', body({ name: 'Old' }))
    ).json();
    const { client_secret: _omit, ...withoutSecret } = body({ name: 'New name', allowed_domains: ['example.org'] });
    const put = await request(t.app, { cookie: admin }).put(`/api/auth/providers/${item.id}`, withoutSecret);
    expect(put.statusCode).toBe(200);
    expect(put.json().item).toMatchObject({
      name: 'New name',
      allowed_domains: ['example.org'],
      client_secret_set: true,
    });
    const del = await request(t.app, { cookie: admin }).delete(`/api/auth/providers/${item.id}`);
    expect(del.statusCode).toBe(204);
    expect((await request(t.app, { cookie: admin }).get(`/api/auth/providers/${item.id}`)).statusCode).toBe(404);
  });

  it('refuses an issuer whose discovery document cannot be read (422 on issuer)', async () => {
    const res = await request(t.app, { cookie: admin }).post(
      '/api/auth/providers',
      body({ issuer: 'http://127.0.0.1:9/nothing-listens' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.issuer[0]).toMatch(/discovery document could not be read/);
  });

  it('refuses a new provider without a client secret', async () => {
    const { client_secret: _omit, ...rest } = body();
    const res = await request(t.app, { cookie: admin }).post('/api/auth/providers', rest);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.client_secret).toBeDefined();
  });

  it('refuses default roles that do not exist (422) or that the saver may not grant (403)', async () => {
    const unknown = await request(t.app, { cookie: admin }).post(
      '/api/auth/providers',
      body({ default_roles: ['nope'] }),
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors['default_roles.0']).toBeDefined();
    const lesser = await given(t.db).user({ permissions: ['auth.manage'] });
    const cookie = await loginCookie(t.app, lesser.email, lesser.password);
    const beyond = await request(t.app, { cookie }).post('/api/auth/providers', body({ default_roles: ['viewer'] }));
    expect(beyond.statusCode).toBe(403);
    expect(beyond.json().errors.default_roles[0]).toMatch(/viewer/);
  });

  it('needs auth.manage: a viewer gets 403, nobody signed in 401', async () => {
    const viewer = await given(t.db).user({ roles: ['viewer'] });
    const cookie = await loginCookie(t.app, viewer.email, viewer.password);
    expect((await request(t.app, { cookie }).get('/api/auth/providers')).statusCode).toBe(403);
    expect((await request(t.app, { cookie }).post('/api/auth/providers', body())).statusCode).toBe(403);
    expect((await request(t.app).get('/api/auth/providers')).statusCode).toBe(401);
  });
});

describe('single sign-on providers without SSO_ALLOW_INSECURE_ISSUER', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL });
    const a = await given(t.db).user({ roles: ['admin'] });
    admin = await loginCookie(t.app, a.email, a.password);
  });
  afterAll(() => t.close());

  it.each([
    ['http://127.0.0.1:8080', /https/],
    ['http://login.example.com', /https/],
    ['https://127.0.0.1', /private|loopback/],
    ['https://localhost/realms/x', /localhost/],
    ['https://169.254.169.254', /address/],
  ])('refuses %s as an issuer before fetching anything', async (issuer, message) => {
    const res = await request(t.app, { cookie: admin }).post('/api/auth/providers', {
      name: 'X',
      issuer,
      client_id: 'c',
      client_secret: 's',
      allowed_domains: ['example.com'],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.issuer[0]).toMatch(message);
  });
});

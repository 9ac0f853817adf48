import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/auth/api-tokens.js';
import { verifyPassword } from '../../src/auth/password.js';
import { given } from '../support/given.js';
import { filterQuery, scimClient } from '../support/scim-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

let t: TestApp;
let okta: ReturnType<typeof scimClient>;
let viewerScim: ReturnType<typeof scimClient>;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  const admin = await g.user({ roles: ['admin'], name: 'Root Admin' });
  await g.user({ roles: ['admin'], name: 'Spare Admin' });
  okta = scimClient(t.app, (await createApiToken(t.db, admin.id, 'okta-provisioning', null)).token);
  viewerScim = scimClient(t.app, await g.token((await g.user({ roles: ['viewer'] })).id));
});
afterAll(() => t.close());

const oktaUser = (email: string, more: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName: email,
  name: { givenName: 'Grace', familyName: 'Hopper' },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: 'Grace Hopper',
  locale: 'en-US',
  externalId: `00u${Math.random().toString(36).slice(2, 12)}`,
  groups: [],
  password: 'a-strong-password-1',
  active: true,
  ...more,
});

describe("Okta's provisioning sequence", () => {
  it('tests the connection, looks the user up, creates, reads, replaces, deactivates', async () => {
    const probe = await okta.get('/Users?startIndex=1&count=2');
    expect(probe.statusCode).toBe(200);
    expect(probe.headers['content-type']).toMatch(/^application\/scim\+json/);
    const listed = probe.json();
    expect(listed.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
    expect(listed).toMatchObject({ startIndex: 1, itemsPerPage: 2 });
    expect(listed.totalResults).toBeGreaterThanOrEqual(3);
    expect(listed.Resources).toHaveLength(2);

    const email = 'grace.hopper@example.com';
    const lookup = await okta.get(`/Users${filterQuery(`userName eq "${email}"`, '&startIndex=1&count=100')}`);
    expect(lookup.json()).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await okta.post('/Users', oktaUser(email));
    expect(created.statusCode).toBe(201);
    const user = created.json();
    expect(user).toMatchObject({
      schemas: [USER],
      userName: email,
      name: { formatted: 'Grace Hopper', givenName: 'Grace', familyName: 'Hopper' },
      emails: [{ value: email, type: 'work', primary: true }],
      active: true,
      groups: [],
      meta: { resourceType: 'User', version: 'W/"0"' },
    });
    expect(created.headers.location).toBe(user.meta.location);
    expect(created.headers.location).toMatch(new RegExp(`/api/scim/v2/Users/${user.id}$`));
    expect(created.headers.etag).toBe(user.meta.version);
    expect(created.body).not.toContain('a-strong-password-1');

    const found = await okta.get(`/Users${filterQuery(`userName eq "GRACE.HOPPER@example.com"`)}`);
    expect(found.json().Resources.map((r: { id: string }) => r.id)).toEqual([user.id]);
    expect((await okta.get(`/Users/${user.id}`)).json()).toEqual(user);

    const replaced = await okta.put(
      `/Users/${user.id}`,
      oktaUser(email, { name: { givenName: 'Grace B.', familyName: 'Hopper' }, externalId: user.externalId }),
    );
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().name).toEqual({ formatted: 'Grace B. Hopper', givenName: 'Grace B.', familyName: 'Hopper' });
    expect(replaced.json().meta.version).not.toBe(user.meta.version);

    const token = await given(t.db).token(Number(user.id));
    const deactivated = await okta.patch(`/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json().active).toBe(false);
    // Deactivation ends what the account could still use: its API tokens are revoked.
    const revoked = await t.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.statusCode).toBe(401);

    const audit = await t.db.models.AuditLog.findAll({ where: { via: 'scim' }, order: [['id', 'ASC']] });
    expect(audit.map((a) => a.action)).toEqual(['user.create', 'user.update', 'user.deactivate']);
    expect(new Set(audit.map((a) => a.via_name))).toEqual(new Set(['okta-provisioning']));
  });
});

describe("Entra ID's UPN userNames", () => {
  it('keeps a userName that differs from the e-mail, finds it by userName and by externalId', async () => {
    const created = await okta.post('/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: 'a1b2c3d4-0000-4000-8000-000000000001',
      userName: 'Alan.Turing@contoso.onmicrosoft.com',
      active: 'True',
      displayName: 'Alan Turing',
      emails: [{ primary: true, type: 'work', value: 'alan@contoso.com' }],
      name: { formatted: 'Alan Turing', familyName: 'Turing', givenName: 'Alan' },
    });
    expect(created.statusCode).toBe(201);
    const user = created.json();
    expect(user).toMatchObject({
      userName: 'Alan.Turing@contoso.onmicrosoft.com',
      emails: [{ value: 'alan@contoso.com' }],
    });
    for (const filter of [
      'userName eq "alan.turing@contoso.onmicrosoft.com"',
      'externalId eq "a1b2c3d4-0000-4000-8000-000000000001"',
    ]) {
      const res = await okta.get(`/Users${filterQuery(filter)}`);
      expect(
        res.json().Resources.map((r: { id: string }) => r.id),
        filter,
      ).toEqual([user.id]);
    }
  });
});

describe("Entra ID's PATCH", () => {
  it('applies capitalised ops, string booleans and a name part; a display name renames; a password is set', async () => {
    const user = (await okta.post('/Users', oktaUser('entra.patch@example.com'))).json();
    const patched = await okta.patch(`/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'Replace', path: 'name.familyName', value: 'Hopper-Murray' },
        { op: 'Add', path: 'externalId', value: 'entra-object-1' },
      ],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      active: false,
      externalId: 'entra-object-1',
      name: { formatted: 'Grace Hopper-Murray', givenName: 'Grace', familyName: 'Hopper-Murray' },
    });
    const renamed = await okta.patch(`/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'displayName', value: 'Rear Admiral Grace Hopper' }],
    });
    expect(renamed.json().displayName).toBe('Rear Admiral Grace Hopper');
    const password = await okta.patch(`/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'password', value: 'another-strong-password-2' }],
    });
    expect(password.statusCode).toBe(200);
    expect(password.body).not.toContain('another-strong-password-2');
    const row = await t.db.models.User.scope('withPassword').findByPk(Number(user.id));
    expect(await verifyPassword('another-strong-password-2', row?.password_hash)).toBe(true);
  });

  it('refuses a whole PATCH when one operation is bad: nothing of it is written', async () => {
    const user = (await okta.post('/Users', oktaUser('entra.atomic@example.com'))).json();
    const res = await okta.patch(`/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Should Not Stick' },
        { op: 'Replace', path: 'meta.created', value: '2020-01-01T00:00:00Z' },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ scimType: 'mutability' });
    expect((await okta.get(`/Users/${user.id}`)).json().displayName).toBe('Grace Hopper');
  });
});

describe('refusals in SCIM shape', () => {
  it('401 without a token, 403 naming the permission for a token that lacks it', async () => {
    const anonymous = await scimClient(t.app, null).get('/Users');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ schemas: [ERROR], status: '401' });
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    const denied = await viewerScim.post('/Users', oktaUser('nobody@example.com'));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toContain('users.create');
  });

  it('409 uniqueness for a taken userName or externalId, whatever the case', async () => {
    const first = (
      await okta.post('/Users', oktaUser('unique.one@example.com', { externalId: 'ext-unique-1' }))
    ).json();
    const sameName = await okta.post('/Users', oktaUser('UNIQUE.ONE@example.com'));
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });
    const sameExternal = await okta.post('/Users', oktaUser('unique.two@example.com', { externalId: 'ext-unique-1' }));
    expect(sameExternal.statusCode).toBe(409);
    expect(first.id).toBeDefined();
  });

  it('412 for a stale If-Match; the current ETag passes', async () => {
    const user = (await okta.post('/Users', oktaUser('etag.user@example.com'))).json();
    const stale = await okta.put(`/Users/${user.id}`, oktaUser('etag.user@example.com', { displayName: 'X' }), {
      'if-match': 'W/"99"',
    });
    expect(stale.statusCode).toBe(412);
    const fresh = await okta.patch(
      `/Users/${user.id}`,
      { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] },
      { 'if-match': user.meta.version },
    );
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().active).toBe(false);
  });

  it('400 invalidValue for a bad e-mail, invalidSyntax for a body that is not a User, invalidFilter for an unknown attribute', async () => {
    const badEmail = await okta.post(
      '/Users',
      oktaUser('not-an-email', { emails: [{ value: 'nope', primary: true }] }),
    );
    expect(badEmail.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect((await okta.post('/Users', { userName: 'x' })).json()).toMatchObject({ scimType: 'invalidSyntax' });
    const unknown = await okta.get(`/Users${filterQuery('shoeSize eq "9"')}`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ scimType: 'invalidFilter' });
  });

  it('deletes an active user as a deactivation then a deletion, each audited', async () => {
    const user = (await okta.post('/Users', oktaUser('active.delete@example.com'))).json();
    expect((await okta.delete(`/Users/${user.id}`)).statusCode).toBe(204);
    expect((await okta.get(`/Users/${user.id}`)).statusCode).toBe(404);
    const rows = await t.db.models.AuditLog.findAll({ where: { via: 'scim' }, order: [['id', 'ASC']] });
    const mine = rows.filter((r) => JSON.stringify(r.target_ids).includes(String(user.id))).map((r) => r.action);
    expect(mine).toEqual(['user.create', 'user.deactivate', 'user.delete']);
  });

  it('answers an unknown path in SCIM shape, and searches by POST .search', async () => {
    const unknown = await okta.get('/NoSuchThing/at/all');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(unknown.json()).toMatchObject({ schemas: [ERROR], status: '404' });
    await okta.post('/Users', oktaUser('searched.person@example.com'));
    const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
    const users = await okta.post('/Users/.search', {
      schemas: [SEARCH],
      filter: 'userName sw "searched."',
      attributes: ['userName'],
      count: 10,
    });
    expect(users.statusCode).toBe(200);
    expect(users.json()).toMatchObject({ totalResults: 1, Resources: [{ userName: 'searched.person@example.com' }] });
    expect(users.json().Resources[0]).not.toHaveProperty('emails');
    const everything = await okta.post('/.search', { schemas: [SEARCH], attributes: ['externalId'], count: 1000 });
    expect(everything.statusCode).toBe(200);
    const all = everything.json();
    expect(all.Resources).toHaveLength(all.totalResults);
    expect(
      all.Resources.some((r: { schemas: string[] }) =>
        r.schemas.includes('urn:ietf:params:scim:schemas:core:2.0:Group'),
      ),
    ).toBe(true);
  });

  it('deletes: 204, then 404 in SCIM shape', async () => {
    const user = (await okta.post('/Users', oktaUser('to.delete@example.com', { active: false }))).json();
    expect((await okta.delete(`/Users/${user.id}`)).statusCode).toBe(204);
    const gone = await okta.get(`/Users/${user.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ schemas: [ERROR], status: '404' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { filterQuery, scimClient } from '../support/scim-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { roleIdOf } from '../support/users-fixture.js';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

let t: TestApp;
let entra: ReturnType<typeof scimClient>;
let people: number[];
let adminId: number;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  adminId = (await g.user({ roles: ['admin'], name: 'Root Admin' })).id;
  entra = scimClient(t.app, await g.token(adminId));
  people = [];
  for (const name of ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']) people.push((await g.user({ name })).id);
});
afterAll(() => t.close());

const rolesOf = async (userId: number) =>
  (await t.db.models.UserRole.findAll({ where: { user_id: userId }, raw: true })).map((r) => Number(r.role_id));

describe("Entra ID's group sequence", () => {
  it('looks a group up without members, creates it, adds and removes members, renames, deletes', async () => {
    const lookup = await entra.get(
      `/Groups${filterQuery('displayName eq "Help Desk"', '&excludedAttributes=members')}`,
    );
    expect(lookup.json()).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await entra.post('/Groups', { schemas: [GROUP], displayName: 'Help Desk', members: [] });
    expect(created.statusCode).toBe(201);
    const group = created.json();
    expect(group).toMatchObject({ schemas: [GROUP], displayName: 'Help Desk' });
    // No members is an unassigned attribute: left out (RFC 7643 §2.5).
    expect(group).not.toHaveProperty('members');
    expect(created.headers.location).toBe(group.meta.location);
    expect(group.id).toMatch(/^g\d+$/);
    expect(group.meta.location).toMatch(new RegExp(`/Groups/${group.id}$`));
    const roleId = Number(group.id.slice(1));

    const [ada, alan, grace] = people as [number, number, number];
    const added = await entra.patch(`/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: String(ada) }, { value: String(alan) }] }],
    });
    expect(added.statusCode).toBe(200);
    expect(added.json().members.map((m: { value: string }) => Number(m.value))).toEqual([ada, alan]);
    // A membership change moves the group's version: a stale If-Match no longer passes.
    expect(added.headers.etag).not.toBe(created.headers.etag);
    const stale = await entra.patch(
      `/Groups/${group.id}`,
      { schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ value: String(grace) }] }] },
      { 'if-match': created.headers.etag as string },
    );
    expect(stale.statusCode).toBe(412);
    expect(await rolesOf(ada)).toContain(roleId);

    // Adding a member twice is no failure (a retried PATCH).
    const again = await entra.patch(`/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: String(ada) }, { value: String(grace) }] }],
    });
    expect(again.statusCode).toBe(200);

    const lean = await entra.get(`/Groups/${group.id}?excludedAttributes=members`);
    expect(lean.json()).not.toHaveProperty('members');
    expect(lean.json().displayName).toBe('Help Desk');

    const removed = await entra.patch(`/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Remove', path: `members[value eq "${alan}"]` }],
    });
    expect(removed.json().members.map((m: { value: string }) => Number(m.value))).toEqual([ada, grace]);
    expect(await rolesOf(alan)).not.toContain(roleId);

    const byMember = await entra.get(
      `/Groups${filterQuery(`members[value eq "${grace}"]`, '&excludedAttributes=members')}`,
    );
    expect(byMember.json().Resources.map((r: { id: string }) => r.id)).toEqual([group.id]);

    const renamed = await entra.patch(`/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'displayName', value: 'Sales – EMEA' }],
    });
    expect(renamed.json().displayName).toBe('Sales – EMEA');

    const via = await t.db.models.AuditLog.findAll({ where: { via: 'scim' }, order: [['id', 'ASC']] });
    // Each membership change is the user's own change, as a role change in bulk records it.
    expect(via.map((a) => a.action)).toEqual([
      'role.create',
      'user.update',
      'user.update',
      'user.update',
      'role.update',
    ]);

    expect((await entra.delete(`/Groups/${group.id}`)).statusCode).toBe(204);
    expect((await entra.get(`/Groups/${group.id}`)).statusCode).toBe(404);
    expect(await rolesOf(ada)).not.toContain(roleId);
  });
});

describe('groups under the same rules', () => {
  it('refuses a name taken whatever its case and spacing: 409 uniqueness', async () => {
    const group = (await entra.post('/Groups', { schemas: [GROUP], displayName: 'Field Ops' })).json();
    const found = await entra.get(
      `/Groups${filterQuery('displayName eq "field  OPS"', '&excludedAttributes=members')}`,
    );
    expect(found.json().Resources.map((r: { id: string }) => r.id)).toEqual([group.id]);
    const clash = await entra.post('/Groups', { schemas: [GROUP], displayName: 'field  OPS' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ scimType: 'uniqueness' });
  });

  it('keeps the administrator role: no rename, no deletion, and its last member stays', async () => {
    const admin = await roleIdOf(t.db, 'admin');
    const rename = await entra.patch(`/Groups/g${admin}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'displayName', value: 'Owners' }],
    });
    expect(rename.json()).toMatchObject({ status: '400', scimType: 'mutability' });
    const removeLast = await entra.patch(`/Groups/g${admin}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `members[value eq "${adminId}"]` }],
    });
    expect(removeLast.statusCode).toBeGreaterThanOrEqual(400);
    expect(await rolesOf(adminId)).toContain(admin);
    expect((await entra.delete(`/Groups/g${admin}`)).statusCode).toBe(400);
  });

  it('a token cannot put anyone in a role granting what it lacks (403), and nothing of the PATCH is written', async () => {
    const g = given(t.db);
    const limited = await g.role('people-desk', ['users.view', 'users.update', 'roles.view', 'roles.create']);
    const clerk = await g.user({ roles: ['people-desk'] });
    expect(limited).toBeGreaterThan(0);
    const clerkScim = scimClient(t.app, await g.token(clerk.id));
    const admin = await roleIdOf(t.db, 'admin');
    const [ada] = people as [number];
    const res = await clerkScim.patch(`/Groups/g${admin}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: String(ada) }] }],
    });
    expect(res.statusCode).toBe(403);
    expect(await rolesOf(ada)).not.toContain(admin);
  });

  it("keeps the provider's externalId: stored, answered, filtered, changed, unique", async () => {
    const created = await entra.post('/Groups', {
      schemas: [GROUP],
      displayName: 'Payroll',
      externalId: '8d1f7b6e-0000-4000-8000-000000000001',
    });
    expect(created.statusCode).toBe(201);
    const group = created.json();
    expect(group.externalId).toBe('8d1f7b6e-0000-4000-8000-000000000001');
    const found = await entra.get(`/Groups${filterQuery('externalId eq "8d1f7b6e-0000-4000-8000-000000000001"')}`);
    expect(found.json().Resources.map((r: { id: string }) => r.id)).toEqual([group.id]);
    const changed = await entra.patch(`/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'externalId', value: 'payroll-2' }],
    });
    expect(changed.json()).toMatchObject({ externalId: 'payroll-2', displayName: 'Payroll' });
    const clash = await entra.post('/Groups', {
      schemas: [GROUP],
      displayName: 'Payroll Two',
      externalId: 'payroll-2',
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ scimType: 'uniqueness' });
  });

  it('a member that is no user refuses the whole PATCH: 400 invalidValue', async () => {
    const group = (await entra.post('/Groups', { schemas: [GROUP], displayName: 'Night Shift' })).json();
    const [ada] = people as [number];
    const res = await entra.patch(`/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: String(ada) }, { value: '999999' }] }],
    });
    expect(res.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    expect(await rolesOf(ada)).not.toContain(Number(group.id.slice(1)));
  });
});

describe('ids unique across every resource (RFC 7643 §3.1)', () => {
  const idsOf = (res: { json(): { Resources: { id: string }[] } }) => res.json().Resources.map((r) => r.id);

  it('a user and a group on the same number answer different ids, and a root search lists each once', async () => {
    const shared = 1 + Math.max(Number(await t.db.models.User.max('id')), Number(await t.db.models.Role.max('id')));
    await t.db.models.User.create({
      id: shared,
      name: 'Twin Person',
      email: 'twin.person@example.com',
      password_hash: 'not-a-password',
      is_active: true,
    });
    await t.db.models.Role.create({ id: shared, name: 'Twin Group', guard_name: 'web' });
    await t.db.models.UserRole.create({ user_id: shared, role_id: shared });

    const user = (await entra.get(`/Users/${shared}`)).json();
    expect(user.id).toBe(String(shared));
    expect(user.groups).toEqual([
      { value: `g${shared}`, display: 'Twin Group', $ref: expect.stringMatching(new RegExp(`/Groups/g${shared}$`)) },
    ]);
    const group = await entra.get(`/Groups/g${shared}`);
    expect(group.statusCode).toBe(200);
    expect(group.json()).toMatchObject({ id: `g${shared}`, members: [{ value: String(shared) }] });

    const everything = await entra.post('/.search', { filter: 'displayName sw "Twin"', count: 100 });
    expect(everything.json().totalResults).toBe(2);
    expect(idsOf(everything)).toEqual([String(shared), `g${shared}`]);
  });

  it('reads a group only by its g-prefixed id: the plain number, or another spelling, finds nothing', async () => {
    const roleId = await roleIdOf(t.db, 'admin');
    expect((await entra.get(`/Groups/g${roleId}`)).statusCode).toBe(200);
    for (const id of [String(roleId), `G${roleId}`, `g0${roleId}`, `g${roleId}x`]) {
      const res = await entra.get(`/Groups/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ status: '404' });
      expect((await entra.delete(`/Groups/${id}`)).statusCode, id).toBe(404);
    }
  });

  it('filters groups by id and users by groups.value with the g-prefixed id only', async () => {
    const roleId = await roleIdOf(t.db, 'admin');
    const byId = await entra.get(`/Groups${filterQuery(`id eq "g${roleId}"`, '&excludedAttributes=members')}`);
    expect(idsOf(byId)).toEqual([`g${roleId}`]);
    const plain = await entra.get(`/Groups${filterQuery(`id eq "${roleId}"`, '&excludedAttributes=members')}`);
    expect(idsOf(plain)).toEqual([]);
    const members = await entra.get(`/Users${filterQuery(`groups.value eq "g${roleId}"`)}`);
    expect(idsOf(members)).toContain(String(adminId));
    expect(idsOf(await entra.get(`/Users${filterQuery(`groups.value eq "${roleId}"`)}`))).toEqual([]);
  });
});

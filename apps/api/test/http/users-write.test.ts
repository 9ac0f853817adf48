import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/auth/password.js';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { editedBody, usersApi } from '../support/users-api.js';
import { roleIdOf } from '../support/users-fixture.js';

let t: TestApp;
let admin: ReturnType<typeof usersApi>;
let manager: ReturnType<typeof usersApi>;
let viewer: ReturnType<typeof usersApi>;
let adminId: number;
const role: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  adminId = (await g.user({ roles: ['admin'], name: 'Root Admin' })).id;
  // A second administrator, so single-record tests are not stopped by the last-admin rule.
  await g.user({ roles: ['admin'], name: 'Spare Admin' });
  admin = usersApi(t.app, await g.token(adminId));
  manager = usersApi(t.app, await g.token((await g.user({ roles: ['manager'] })).id));
  viewer = usersApi(t.app, await g.token((await g.user({ roles: ['viewer'] })).id));
  for (const name of ['admin', 'manager', 'viewer']) role[name] = await roleIdOf(t.db, name);
});
afterAll(() => t.close());

const newUser = (over: Record<string, unknown> = {}) => ({
  name: 'New Person',
  email: `new-${Math.random().toString(36).slice(2)}@example.com`,
  password: 'a-strong-password',
  password_confirmation: 'a-strong-password',
  ...over,
});

describe('POST /users', () => {
  it('creates a user: 201 with the item and roles, a hashed password, an audit row', async () => {
    const body = newUser({ name: '  Trimmed Name ', roles_ids: [role.viewer] });
    const res = await admin.create(body);
    expect(res.statusCode).toBe(201);
    const { item } = res.json();
    expect(item).toMatchObject({
      name: 'Trimmed Name',
      email: body.email,
      is_active: true,
      roles: [{ id: role.viewer, name: 'viewer' }],
    });
    expect(res.body).not.toMatch(/password|scrypt/);
    const row = await t.db.models.User.scope('withPassword').findByPk(item.id);
    expect(await verifyPassword('a-strong-password', row?.password_hash)).toBe(true);
    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'user.create' } });
    expect(audit?.target_ids).toEqual([item.id]);
    expect(JSON.stringify(audit?.get())).not.toContain('a-strong-password');
  });

  it('refuses an e-mail already used, whatever its case, even by a deleted user', async () => {
    const gone = await given(t.db).user({ email: 'Taken@Example.com', deleted: true });
    expect(gone.id).toBeGreaterThan(0);
    const res = await admin.create(newUser({ email: 'taken@example.COM' }));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { email: ['This e-mail address is already used by another account.'] },
    });
  });

  it('stores the e-mail in its canonical form and refuses one with an invisible character', async () => {
    const res = await admin.create(newUser({ email: '  Ｃanon.Ical@Example.COM ' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().item.email).toBe('canon.ical@example.com');
    const hidden = await admin.create(newUser({ email: 'hid\u200bden@example.com' }));
    expect(hidden.statusCode).toBe(422);
    expect(hidden.json().errors.email).toEqual([
      'The e-mail address contains an invisible or control character. Type it again without it.',
    ]);
    const { item } = res.json();
    const renamed = await admin.update(
      item.id,
      await editedBody(admin, item.id, { email: 'NEW.Spelling@Example.com' }),
    );
    expect(renamed.json().item.email).toBe('new.spelling@example.com');
  });

  it('validates every field at once with messages an administrator can act on', async () => {
    const res = await admin.create({ name: '', email: 'nope', password: 'short', password_confirmation: 'other' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'name', 'password', 'password_confirmation']);
  });

  it('needs users.create, and users.setActive to create an inactive account', async () => {
    expect((await viewer.create(newUser())).statusCode).toBe(403);
    const g = given(t.db);
    const creator = usersApi(t.app, await g.token((await g.user({ permissions: ['users.create', 'users.view'] })).id));
    const inactive = await creator.create(newUser({ is_active: false }));
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json().permission).toBe('users.setActive');
    expect((await creator.create(newUser())).statusCode).toBe(201);
  });

  it('refuses granting a role with permissions the caller lacks', async () => {
    const g = given(t.db);
    const creator = usersApi(
      t.app,
      await g.token((await g.user({ roles: ['manager'], permissions: ['users.create'] })).id),
    );
    const res = await creator.create(newUser({ roles_ids: [role.admin] }));
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/^You cannot grant or remove the role admin/);
    expect(res.json().errors.roles_ids).toHaveLength(1);
    expect((await creator.create(newUser({ roles_ids: [role.viewer] }))).statusCode).toBe(201);
  });

  it('refuses unknown role ids at their index', async () => {
    const res = await admin.create(newUser({ roles_ids: [role.viewer, 9999] }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'roles_ids.1': ['There is no role with id 9999.'] });
  });
});

describe('PUT /users/{id}', () => {
  it('updates name, e-mail and roles; an absent password stays unchanged; the version moves on', async () => {
    const id = (await admin.create(newUser({ roles_ids: [role.viewer] }))).json().item.id;
    const before = (await admin.edit(id)).json().item.version;
    const res = await admin.update(
      id,
      await editedBody(admin, id, { name: 'Renamed', email: 'renamed@example.com', roles_ids: [role.manager] }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({
      name: 'Renamed',
      email: 'renamed@example.com',
      roles: [{ name: 'manager' }],
    });
    const row = await t.db.models.User.scope('withPassword').findByPk(id);
    expect(await verifyPassword('a-strong-password', row?.password_hash)).toBe(true);
    expect((await admin.edit(id)).json().item.version).not.toBe(before);
    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'user.update' }, order: [['id', 'DESC']] });
    expect(audit?.changes).toMatchObject({
      name: { before: 'New Person', after: 'Renamed' },
      roles: { before: ['viewer'], after: ['manager'] },
    });
  });

  it('changes the password when one is given, and never reports it', async () => {
    const id = (await admin.create(newUser())).json().item.id;
    const res = await admin.update(
      id,
      await editedBody(admin, id, { password: 'another-password', password_confirmation: 'another-password' }),
    );
    expect(res.statusCode).toBe(200);
    const row = await t.db.models.User.scope('withPassword').findByPk(id);
    expect(await verifyPassword('another-password', row?.password_hash)).toBe(true);
  });

  it('answers 409 to a stale version and changes nothing', async () => {
    const id = (await admin.create(newUser({ name: 'Original' }))).json().item.id;
    const stale = await editedBody(admin, id, { name: 'First edit' });
    expect((await admin.update(id, stale)).statusCode).toBe(200);
    const res = await admin.update(id, { ...stale, name: 'Second edit' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('VERSION_CONFLICT');
    expect((await t.db.models.User.findByPk(id))?.name).toBe('First edit');
  });

  it('needs users.setActive to change the status, and applies the activation rules', async () => {
    const id = (await admin.create(newUser())).json().item.id;
    const g = given(t.db);
    const editor = usersApi(t.app, await g.token((await g.user({ permissions: ['users.update', 'users.view'] })).id));
    const refused = await editor.update(id, await editedBody(admin, id, { is_active: false }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().permission).toBe('users.setActive');
    // Sending the unchanged status needs nothing more.
    expect((await editor.update(id, await editedBody(admin, id, { is_active: true }))).statusCode).toBe(200);
    const self = await admin.update(adminId, await editedBody(admin, adminId, { is_active: false }));
    expect(self.json().code).toBe('SELF_DEACTIVATION');
  });

  it('refuses taking an e-mail another user has', async () => {
    const a = (await admin.create(newUser({ email: 'first@example.com' }))).json().item.id;
    await admin.create(newUser({ email: 'second@example.com' }));
    const res = await admin.update(a, await editedBody(admin, a, { email: 'SECOND@example.com' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toBeDefined();
  });

  it('refuses removing a role the caller could not grant', async () => {
    const id = (await admin.create(newUser({ roles_ids: [role.admin] }))).json().item.id;
    const res = await manager.update(id, await editedBody(admin, id, { roles_ids: [] }));
    expect(res.statusCode).toBe(403);
    expect(await t.db.models.UserRole.count({ where: { user_id: id, role_id: role.admin } })).toBe(1);
  });

  it('answers 404 for a deleted user', async () => {
    const gone = await given(t.db).user({ deleted: true });
    const res = await admin.update(gone.id, { name: 'X', email: 'x@example.com', version: 'x' });
    expect(res.statusCode).toBe(404);
  });
});

describe('PATCH /users/{id}/active', () => {
  it('deactivates and activates, and a deactivated user loses its sessions and tokens at once', async () => {
    const g = given(t.db);
    const ann = await g.user({ roles: ['viewer'] });
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    const token = await g.token(ann.id);
    const off = await admin.setActive(ann.id, false);
    expect(off.statusCode).toBe(200);
    expect(off.json().item.is_active).toBe(false);
    expect((await request(t.app, { cookie }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { token }).get('/api/auth/me')).statusCode).toBe(401);
    expect(await t.db.models.Session.count({ where: { user_id: ann.id } })).toBe(0);
    expect(await t.db.models.ApiToken.count({ where: { user_id: ann.id } })).toBe(0);
    const on = await admin.setActive(ann.id, true);
    expect(on.json().item.is_active).toBe(true);
    const audit = await t.db.models.AuditLog.findAll({
      where: { action: ['user.deactivate', 'user.activate'] },
      order: [['id', 'ASC']],
    });
    const mine = audit.filter((a) => a.target_ids.includes(ann.id));
    expect(mine.map((a) => [a.action, a.changes])).toEqual([
      ['user.deactivate', { is_active: { before: true, after: false } }],
      ['user.activate', { is_active: { before: false, after: true } }],
    ]);
  });

  it('refuses without users.setActive, changing nothing', async () => {
    const bob = await given(t.db).user();
    const res = await viewer.setActive(bob.id, false);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.setActive' });
    expect((await t.db.models.User.findByPk(bob.id))?.is_active).toBe(true);
  });

  it('refuses self-deactivation', async () => {
    const res = await admin.setActive(adminId, false);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'SELF_DEACTIVATION', detail: 'You cannot deactivate your own account.' });
  });

  it('validates the body', async () => {
    const bob = await given(t.db).user();
    const res = await request(t.app, { token: await given(t.db).token(adminId) }).patch(`/api/users/${bob.id}/active`, {
      active: 'yes',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.active).toBeDefined();
  });
});

describe('DELETE /users/{id}', () => {
  it('refuses self-delete, then an active user; soft-deletes an inactive one, which leaves the list for the trash', async () => {
    expect((await admin.remove(adminId)).json().code).toBe('SELF_DELETE');
    const cid = await given(t.db).user({ name: 'Cid Deletable' });
    const active = await admin.remove(cid.id);
    expect(active.statusCode).toBe(422);
    expect(active.json()).toMatchObject({
      code: 'NOT_INACTIVE',
      detail: 'Cid Deletable is active: deactivate the account before deleting it.',
    });
    await admin.setActive(cid.id, false);
    const res = await admin.remove(cid.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await admin.list(`?filters[email]=${encodeURIComponent(cid.email)}`)).json().rows).toEqual([]);
    expect(
      (await admin.list(`?filters[email]=${encodeURIComponent(cid.email)}&filters[trashed]=only`)).json().rows,
    ).toHaveLength(1);
    expect((await admin.show(cid.id)).statusCode).toBe(404);
    expect((await admin.remove(cid.id)).statusCode).toBe(404);
  });

  it('needs users.delete', async () => {
    const dee = await given(t.db).user({ active: false });
    expect((await manager.remove(dee.id)).statusCode).toBe(403);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/auth/password.js';
import { given, PASSWORD } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { editedBody, usersApi } from '../support/users-api.js';

/**
 * Finding 1: a manager (users.update, not an administrator) took an administrator's account over
 * by changing its password or e-mail, and deactivated administrators one by one. The privilege
 * ceiling refuses every change to an account holding a permission the actor lacks, on both doors.
 */
let t: TestApp;
let admin: { id: number; email: string };
let managerToken: string;
let manager: ReturnType<typeof usersApi>;

const trpc = (token: string, procedure: string, input: object) =>
  request(t.app, { token }).post(`/api/trpc/${procedure}`, input);

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  admin = await g.user({ roles: ['admin'], name: 'Grace Admin' });
  for (let i = 0; i < 3; i++) await g.user({ roles: ['admin'] });
  managerToken = await g.token((await g.user({ roles: ['manager'] })).id);
  manager = usersApi(t.app, managerToken);
});
afterAll(() => t.close());

async function passwordStillWorks(id: number) {
  const row = await t.db.models.User.scope('withPassword').findByPk(id);
  return verifyPassword(PASSWORD, row?.password_hash);
}

describe('the privilege ceiling', () => {
  it('refuses a manager setting an administrator’s password (REST), and the administrator’s password still works', async () => {
    const body = await editedBody(manager, admin.id, {
      password: 'taken-over-42',
      password_confirmation: 'taken-over-42',
    });
    const res = await manager.update(admin.id, body);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'OUTRANKED',
      detail: expect.stringMatching(/^Grace Admin holds permissions you do not have \(users\.create, users\.delete/),
    });
    expect(await passwordStillWorks(admin.id)).toBe(true);
    const login = await request(t.app).post('/api/auth/login', { email: admin.email, password: 'taken-over-42' });
    expect(login.statusCode).toBe(401);
  });

  it('refuses a manager changing an administrator’s e-mail (tRPC)', async () => {
    const body = await editedBody(manager, admin.id, { email: 'attacker@evil.test' });
    const res = await trpc(managerToken, 'users.update', { id: admin.id, ...body });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.data.code).toBe('OUTRANKED');
    expect((await t.db.models.User.findByPk(admin.id))?.email).toBe(admin.email);
  });

  it('refuses a user holding only users.view and users.update changing user 1', async () => {
    const g = given(t.db);
    const first = await t.db.models.User.findOne({ order: [['id', 'ASC']] });
    const editor = usersApi(t.app, await g.token((await g.user({ permissions: ['users.view', 'users.update'] })).id));
    const body = await editedBody(editor, first?.id as number, {
      password: 'mine-now-42',
      password_confirmation: 'mine-now-42',
    });
    const res = await editor.update(first?.id as number, body);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('OUTRANKED');
  });

  it('refuses a manager deactivating administrators one by one, through both doors and in bulk', async () => {
    const admins = await t.db.models.UserRole.findAll({ include: [] });
    const adminRole = await t.db.models.Role.findOne({ where: { name: 'admin' } });
    const adminIds = admins.filter((ur) => ur.role_id === adminRole?.id).map((ur) => Number(ur.user_id));
    for (const id of adminIds) {
      const rest = await manager.setActive(id, false);
      expect(rest.statusCode).toBe(403);
      expect(rest.json().code).toBe('OUTRANKED');
      const viaTrpc = await trpc(managerToken, 'users.setActive', { id, active: false });
      expect(viaTrpc.json().error.data.code).toBe('OUTRANKED');
    }
    const dry = (await manager.bulk({ operation: 'setActive', ids: adminIds, active: false, dryRun: true })).json();
    expect(dry.affected).toEqual([]);
    expect(dry.skipped.map((s: { code: string }) => s.code)).toEqual(adminIds.map(() => 'OUTRANKED'));
    const real = (await manager.bulk({ operation: 'setActive', ids: adminIds, active: false })).json();
    expect(real.affected).toEqual([]);
    expect(await t.db.models.User.count({ where: { id: adminIds, is_active: true } })).toBe(adminIds.length);
  });

  it('still lets a manager change a viewer’s password, since it holds everything a viewer holds', async () => {
    const viewer = await given(t.db).user({ roles: ['viewer'] });
    const body = await editedBody(manager, viewer.id, {
      password: 'fresh-pass-42',
      password_confirmation: 'fresh-pass-42',
    });
    expect((await manager.update(viewer.id, body)).statusCode).toBe(200);
  });

  it('tells the edit form and the record page that the manager may change nothing of an administrator', async () => {
    const edit = (await manager.edit(admin.id)).json();
    expect(edit.can).toEqual({ update: false, setActive: false, delete: false, restore: false, forceDelete: false });
    const show = (await manager.show(admin.id)).json();
    expect(show.item.actions.update.code).toBe('OUTRANKED');
    expect(show.item.actions.setActive.code).toBe('OUTRANKED');
    expect(show.item.actions.delete.code).toBe('FORBIDDEN');
    const row = (await manager.list(`?filters[email]=${encodeURIComponent(admin.email)}`)).json().rows[0];
    expect(row.actions.setActive).toMatchObject({ allowed: false, code: 'OUTRANKED' });
  });
});

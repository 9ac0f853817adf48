import { PERMISSIONS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given, PASSWORD } from '../support/given.js';
import { loginCookie } from '../support/http.js';
import { snapshot } from '../support/snapshot.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

let t: TestApp;
let admin: ReturnType<typeof usersApi>;
let me: number;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  me = (await g.user({ roles: ['admin'], name: 'Acting Admin' })).id;
  admin = usersApi(t.app, await g.token(me));
});
afterAll(() => t.close());

const users = async (n: number, spec: Parameters<ReturnType<typeof given>['user']>[0] = {}) => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await given(t.db).user(spec)).id);
  return out;
};

describe('POST /users/bulk', () => {
  it('applies what passes and skips the rest with a code and a message', async () => {
    const [a, b] = (await users(2, { active: false })) as [number, number];
    const [active] = await users(1);
    const [gone] = await users(1, { active: false, deleted: true });
    const res = await admin.bulk({ operation: 'delete', ids: [a, active, 999_999, me, b, gone] });
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ operation: 'delete', dryRun: false, requested: 6, affected: [a, b] });
    expect(report.skipped.map((s: { id: number; code: string }) => [s.id, s.code])).toEqual([
      [999_999, 'NOT_FOUND'],
      [gone, 'NOT_FOUND'],
      [active, 'NOT_INACTIVE'],
      [me, 'SELF_DELETE'],
    ]);
    expect(report.skipped.every((s: { message: string }) => s.message.length > 10)).toBe(true);
    expect(await t.db.models.User.count({ where: { id: [a, b] } })).toBe(0);
    expect(await t.db.models.User.count({ where: { id: [a, b] }, paranoid: false })).toBe(2);
  });

  it('restores only deleted users and purges only soft-deleted ones', async () => {
    const [live] = await users(1, { active: false });
    const [trashed1, trashed2] = await users(2, { active: false, deleted: true });
    const restore = (await admin.bulk({ operation: 'restore', ids: [trashed1, live] })).json();
    expect(restore.affected).toEqual([trashed1]);
    expect(restore.skipped).toEqual([
      { id: live, code: 'NOT_DELETED', message: expect.stringContaining('is not deleted') },
    ]);
    expect((await t.db.models.User.findByPk(trashed1))?.is_active).toBe(false);
    const purge = (await admin.bulk({ operation: 'forceDelete', ids: [trashed2, live] })).json();
    expect(purge.affected).toEqual([trashed2]);
    expect(purge.skipped.map((s: { code: string }) => s.code)).toEqual(['NOT_DELETED']);
    expect(await t.db.models.User.findByPk(trashed2, { paranoid: false })).toBeNull();
  });

  it('never deactivates or deletes every administrator: one always remains', async () => {
    const own = await startTestApp();
    const g = given(own.db);
    const admins = [];
    for (let i = 0; i < 3; i++) admins.push((await g.user({ roles: ['admin'] })).id);
    // An actor holding every permission directly, but not the admin role: the ceiling lets it
    // act on administrators, and it is not one of them itself.
    const actor = usersApi(own.app, await g.token((await g.user({ permissions: [...PERMISSIONS] })).id));
    const report = (await actor.bulk({ operation: 'setActive', ids: admins, active: false })).json();
    expect(report.affected).toEqual(admins.slice(0, 2));
    expect(report.skipped).toEqual([
      { id: admins[2], code: 'LAST_ADMIN', message: expect.stringContaining('last active administrator') },
    ]);
    expect(await own.db.models.User.count({ where: { id: admins, is_active: true } })).toBe(1);
    await own.close();
  });

  it('deactivates many users and signs them all out', async () => {
    const ids = await users(5);
    for (const id of ids) await given(t.db).token(id);
    const report = (await admin.bulk({ operation: 'setActive', ids, active: false })).json();
    expect(report.affected).toEqual(ids);
    expect(await t.db.models.User.count({ where: { id: ids, is_active: false } })).toBe(5);
    expect(await t.db.models.ApiToken.count({ where: { user_id: ids } })).toBe(0);
    const audit = await t.db.models.AuditLog.findOne({
      where: { action: 'users.bulk.setActive' },
      order: [['id', 'DESC']],
    });
    expect(audit?.target_ids).toEqual(ids);
  });

  it('computes the same report in a dry run and leaves the database byte-for-byte unchanged', async () => {
    const ids = [...(await users(3)), ...(await users(2, { active: false })), me, 424_242];
    const before = await snapshot(t.db);
    const dry = await admin.bulk({ operation: 'setActive', ids, active: false, dryRun: true });
    expect(dry.statusCode).toBe(200);
    expect(await snapshot(t.db)).toBe(before);
    const real = await admin.bulk({ operation: 'setActive', ids, active: false });
    expect({ ...dry.json(), dryRun: false }).toEqual(real.json());
    expect(dry.json().dryRun).toBe(true);
  });

  it('changes nothing when the database fails in the middle of a batch', async () => {
    const ids = await users(30);
    const victim = ids[17] as number;
    const victimUser = await t.db.models.User.findByPk(victim);
    await loginCookie(t.app, victimUser?.email as string, PASSWORD);
    // The users are updated first; revoking the victim's session then fails: the whole batch,
    // including the updates already made, must roll back.
    const failing =
      t.db.dialect === 'mysql'
        ? `CREATE TRIGGER fail_mid BEFORE DELETE ON sessions FOR EACH ROW BEGIN IF OLD.user_id = ${victim} THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected'; END IF; END`
        : `CREATE TRIGGER fail_mid BEFORE DELETE ON sessions FOR EACH ROW WHEN OLD.user_id = ${victim} BEGIN SELECT RAISE(ABORT, 'injected'); END`;
    await t.db.sequelize.query(failing);
    const before = await snapshot(t.db);
    const res = await admin.bulk({ operation: 'setActive', ids, active: false });
    await t.db.sequelize.query('DROP TRIGGER fail_mid');
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('INTERNAL');
    expect(res.body).not.toMatch(/injected|SIGNAL|DELETE/);
    expect(await snapshot(t.db)).toBe(before);
    expect(await t.db.models.User.count({ where: { id: ids, is_active: true } })).toBe(30);
  });

  it('refuses bad bodies with 422 at the failing path', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ operation: 'delete', ids: Array.from({ length: 10_001 }, (_, i) => i + 1) }, 'ids'],
      [{ operation: 'delete', ids: [3, 4, 3] }, 'ids.2'],
      [{ operation: 'delete', ids: [-1] }, 'ids.0'],
      [{ operation: 'delete', ids: [] }, 'ids'],
      [{ operation: 'setActive', ids: [1] }, 'active'],
      [{ operation: 'explode', ids: [1] }, 'operation'],
    ];
    for (const [body, path] of cases) {
      const res = await admin.bulk(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(Object.keys(res.json().errors)).toContain(path);
    }
  });

  it('needs the permission of its operation', async () => {
    const g = given(t.db);
    const restorer = usersApi(t.app, await g.token((await g.user({ permissions: ['users.restore'] })).id));
    const res = await restorer.bulk({ operation: 'delete', ids: [1] });
    expect(res.statusCode).toBe(403);
    expect(res.json().permission).toBe('users.delete');
    expect((await restorer.bulk({ operation: 'restore', ids: [1] })).statusCode).toBe(200);
  });
});

import { PERMISSIONS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { answerOf, DOORS, type Door } from '../support/roles-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * POST /roles/{id}/preview and POST /roles/preview through both doors: who gains and who loses
 * each permission (exact counts, the first 20 by id), who comes to be outranked, and the
 * refusal the write would answer — nothing written.
 */

let t: TestApp;
const tokens = { admin: '', keeper: '', blind: '', viewer: '' };
/** The role previewed (grants users.view) and its members. */
let teamId = 0;
let sideId = 0;
/** A role held only by the member granted users.export and users.view directly. */
let echoId = 0;
/** Members holding nothing else, by id; the one holding users.export and users.view through `side`; the one holding them directly. */
const plain: number[] = [];
let viaRole = 0;
let direct = 0;
/** A manager lacking users.export (outranked once members gain it). */
let lacking = 0;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  await g.role('keeper', ['users.view', 'roles.view', 'roles.create', 'roles.update']);
  await g.role('mgr', ['users.view', 'users.update']);
  teamId = await g.role('team', ['users.view']);
  sideId = await g.role('side', ['users.export', 'users.view']);
  echoId = await g.role('echo', []);
  tokens.admin = await g.token((await g.user({ roles: ['admin'] })).id);
  tokens.keeper = await g.token((await g.user({ roles: ['keeper'] })).id);
  // Edits roles without looking users up: told how many a change reaches, never who.
  await g.role('blind', ['roles.view', 'roles.create', 'roles.update', 'users.export', 'audit.view']);
  tokens.blind = await g.token((await g.user({ roles: ['blind'] })).id);
  tokens.viewer = await g.token((await g.user({ roles: ['viewer'] })).id);

  viaRole = (await g.user({ roles: ['team', 'side'] })).id;
  for (let i = 0; i < 11; i++) plain.push((await g.user({ roles: ['team'] })).id);
  direct = (await g.user({ roles: ['team', 'echo'], permissions: ['users.export', 'users.view'] })).id;
  for (let i = 0; i < 11; i++) plain.push((await g.user({ roles: ['team'] })).id);
  await g.user({ roles: ['team'], deleted: true });

  lacking = (await g.user({ roles: ['mgr'] })).id;
  // Not outranked: holds users.export directly; is inactive; is in the trash; is the seeded manager (holds users.export).
  await g.user({ roles: ['mgr'], permissions: ['users.export'] });
  await g.user({ roles: ['mgr'], active: false });
  await g.user({ roles: ['mgr'], deleted: true });
  await g.user({ roles: ['manager'] });
});
afterAll(() => t.close());

function preview(who: keyof typeof tokens | null, door: Door, roleId: number | null, body: object) {
  const caller = request(t.app, who ? { token: tokens[who] } : {});
  const res =
    roleId === null
      ? door === 'rest'
        ? caller.post('/api/roles/preview', body)
        : caller.post('/api/trpc/roles.previewNew', body)
      : door === 'rest'
        ? caller.post(`/api/roles/${roleId}/preview`, body)
        : caller.post('/api/trpc/roles.preview', { id: roleId, ...body });
  return res.then((r) => answerOf(r, door));
}

const ids = (users: Array<{ id: number }>) => users.map((u) => u.id);

describe.each(DOORS)('role preview through %s', (door: Door) => {
  it('counts the members gaining and losing each permission, not those holding it another way nor the trashed', async () => {
    const res = await preview('admin', door, teamId, { permissions: ['users.export'] });
    expect(res.status).toBe(200);
    const { gains, losses, refusal } = res.data;
    expect(refusal).toEqual({ allowed: true });
    // 25 members: 22 plain, one through `side`, one direct; one more in the trash.
    expect(gains).toHaveLength(1);
    expect(gains[0]).toMatchObject({ permission: 'users.export', count: 22 });
    expect(gains[0].user_ids).toEqual([...plain].sort((a, b) => a - b).slice(0, 20));
    // Each user reached is named once, whatever the number of permissions reaching them.
    const reached = [...gains, ...losses, res.data.outranks].flatMap((part) => part.user_ids);
    expect(ids(res.data.users)).toEqual([...new Set(reached)].sort((a, b) => a - b));
    expect(res.data.users[0]).toEqual({ id: plain[0], name: expect.any(String), email: expect.any(String) });
    expect(res.data.people).toEqual({ allowed: true });
    expect(losses).toHaveLength(1);
    expect(losses[0]).toMatchObject({ permission: 'users.view', count: 22 });
    expect(losses[0].user_ids).toEqual(gains[0].user_ids);
    expect(losses[0].user_ids).not.toContain(viaRole);
    expect(losses[0].user_ids).not.toContain(direct);
  });

  it('names nothing for a set that changes nothing, and counts every member when nobody holds it elsewhere', async () => {
    const same = await preview('admin', door, teamId, { permissions: ['users.view'] });
    expect(same.data).toMatchObject({ gains: [], losses: [], outranks: { count: 0, user_ids: [] }, users: [] });
    const more = await preview('admin', door, teamId, { permissions: ['users.view', 'audit.view'] });
    expect(more.data.gains).toEqual([{ permission: 'audit.view', count: 24, user_ids: expect.any(Array) }]);
    expect(more.data.gains[0].user_ids).toHaveLength(20);
    expect(more.data.gains[0].user_ids).toEqual([viaRole, ...plain.slice(0, 11), direct, ...plain.slice(11, 18)]);
  });

  it('counts the managers a member gaining a permission would come to outrank', async () => {
    const res = await preview('admin', door, teamId, { permissions: ['users.view', 'users.export'] });
    expect(res.data.outranks).toEqual({ count: 1, user_ids: [lacking] });
    expect(res.data.users).toContainEqual(expect.objectContaining({ id: lacking }));
    // Members who all hold it already create no new rank.
    const held = await preview('admin', door, echoId, { permissions: ['users.export'] });
    expect(held.data.gains).toEqual([{ permission: 'users.export', count: 0, user_ids: [] }]);
    expect(held.data.outranks).toEqual({ count: 0, user_ids: [] });
  });

  it('counts but never names the users reached for a caller without users.view', async () => {
    const res = await preview('blind', door, teamId, { permissions: ['users.export', 'audit.view'] });
    expect(res.status).toBe(200);
    expect(res.data.gains).toEqual([
      { permission: 'users.export', count: 22, user_ids: [] },
      { permission: 'audit.view', count: 24, user_ids: [] },
    ]);
    expect(res.data.losses).toEqual([{ permission: 'users.view', count: 22, user_ids: [] }]);
    // Gaining audit.view outranks every manager but the administrators: the lacking one, the one granted users.export, the seeded one.
    expect(res.data.outranks).toEqual({ count: 3, user_ids: [] });
    expect(res.data.users).toEqual([]);
    expect(res.data.people).toMatchObject({ allowed: false, code: 'FORBIDDEN' });
    expect(res.data.people.message).toContain('users.view');
    // Nothing in the answer is an e-mail address.
    expect(JSON.stringify(res.data)).not.toMatch(/@/);
  });

  it('answers the refusal the write would give, still with the impact', async () => {
    const beyond = await preview('keeper', door, teamId, { permissions: ['users.view', 'users.export'] });
    expect(beyond.status).toBe(200);
    expect(beyond.data.refusal).toMatchObject({ allowed: false, code: 'FORBIDDEN' });
    expect(beyond.data.refusal.message).toContain('users.export');
    expect(beyond.data.gains[0]).toMatchObject({ permission: 'users.export', count: 22 });
    const ceiling = await preview('keeper', door, sideId, { permissions: ['users.view'] });
    expect(ceiling.data.refusal).toMatchObject({ allowed: false, code: 'OUTRANKED' });
    const allowed = await preview('keeper', door, teamId, { permissions: [] });
    expect(allowed.data.refusal).toEqual({ allowed: true });
    const adminRole = (await t.db.models.Role.findOne({ where: { name: 'admin' } }))?.id as number;
    const admin = await preview('admin', door, adminRole, { permissions: ['users.view'] });
    expect(admin.data.refusal).toMatchObject({ allowed: false, code: 'ROLE_PROTECTED' });
  });

  it('previews a new role: nobody gains anything, the permissions judged as POST /roles would', async () => {
    const res = await preview('keeper', door, null, { permissions: ['users.view', 'users.export'] });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({
      gains: [
        { permission: 'users.view', count: 0, user_ids: [] },
        { permission: 'users.export', count: 0, user_ids: [] },
      ],
      losses: [],
      outranks: { count: 0, user_ids: [] },
      two_factor: { held: { count: 0, user_ids: [] }, released: { count: 0, user_ids: [] } },
      users: [],
      people: { allowed: true },
      refusal: { allowed: false, code: 'FORBIDDEN', message: expect.stringContaining('users.export') },
    });
    const fine = await preview('keeper', door, null, { permissions: ['users.view'] });
    expect(fine.data.refusal).toEqual({ allowed: true });
  });

  it('refuses without credentials (401), without the permission (403), an unknown role (404), a bad set (422)', async () => {
    expect((await preview(null, door, teamId, { permissions: [] })).status).toBe(401);
    expect((await preview(null, door, null, { permissions: [] })).status).toBe(401);
    const denied = await preview('viewer', door, teamId, { permissions: [] });
    expect(denied).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await preview('viewer', door, null, { permissions: [] })).status).toBe(403);
    expect((await preview('admin', door, 999_999, { permissions: [] })).status).toBe(404);
    const bad = await preview('admin', door, teamId, { permissions: ['users.fly'] });
    expect(bad.status).toBe(422);
  });
});

it('answers the same through both doors, and writes nothing', async () => {
  const body = { permissions: ['users.export', 'audit.view'] };
  const [rest, trpc] = await Promise.all(DOORS.map((door) => preview('keeper', door, teamId, body)));
  expect(rest?.data).toEqual(trpc?.data);
  const granted = await t.db.models.RolePermission.count({ where: { role_id: teamId } });
  expect(granted).toBe(1);
});

it('refuses with LAST_ADMIN a set after which nobody active would hold every permission', async () => {
  const g = given(t.db);
  const fullId = await g.role('everything', [...PERMISSIONS]);
  const holder = await g.user({ roles: ['everything'] });
  const token = await g.token(holder.id);
  // The administrators step away: the holder of `everything` is the last to hold every permission.
  await t.db.sequelize.query(
    'UPDATE users SET is_active = 0 WHERE id IN (SELECT user_id FROM user_roles WHERE role_id = (SELECT id FROM roles WHERE name = :name))',
    { replacements: { name: 'admin' } },
  );
  tokens.admin = token;
  const less = PERMISSIONS.filter((p) => p !== 'audit.view');
  for (const door of DOORS) {
    const res = await preview('admin', door, fullId, { permissions: less });
    expect(res.data.refusal).toMatchObject({ allowed: false, code: 'LAST_ADMIN' });
    expect(res.data.losses).toEqual([{ permission: 'audit.view', count: 1, user_ids: [holder.id] }]);
    expect(ids(res.data.users)).toEqual([holder.id]);
    const kept = await preview('admin', door, fullId, { permissions: [...PERMISSIONS] });
    expect(kept.data.refusal).toEqual({ allowed: true });
  }
});

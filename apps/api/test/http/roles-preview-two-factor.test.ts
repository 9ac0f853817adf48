import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { answerOf, DOORS, type Door } from '../support/roles-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The role impact preview with `require_two_factor`: who switching the requirement on would hold
 * at enrolment (`two_factor.held`), who switching it off would let go (`two_factor.released`) —
 * exact counts, the first 20 by id, named only for a caller holding users.view.
 */

let t: TestApp;
const tokens = { admin: '', blind: '' };
/** No requirement: 22 members it would hold, and members it would not. */
let crewId = 0;
/** Requires a second factor: two members held by it alone, one held by `strict` too. */
let guardedId = 0;
/** Members of `crew` without a second factor and no other requiring role (one with a set-up still waiting for its code). */
const wouldHold: number[] = [];
/** Members of `guarded` held by it alone. */
const heldByGuarded: number[] = [];

const sql = (query: string, replacements: Record<string, unknown>) => t.db.sequelize.query(query, { replacements });
const enrol = (id: number) =>
  sql('UPDATE users SET two_factor_enrolled_at = :now WHERE id = :id', { id, now: new Date() });
const requireOn = (roleId: number) => sql('UPDATE roles SET require_two_factor = 1 WHERE id = :roleId', { roleId });

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  crewId = await g.role('crew', ['users.view']);
  guardedId = await g.role('guarded', ['users.view']);
  await requireOn(guardedId);
  await requireOn(await g.role('strict', []));
  tokens.admin = await g.token((await g.user({ roles: ['admin'] })).id);
  await g.role('blind', ['roles.view', 'roles.create', 'roles.update']);
  tokens.blind = await g.token((await g.user({ roles: ['blind'] })).id);

  for (let i = 0; i < 21; i++) wouldHold.push((await g.user({ roles: ['crew'] })).id);
  // A set-up waiting for its code is no confirmed second factor.
  const pending = (await g.user({ roles: ['crew'] })).id;
  await sql("UPDATE users SET two_factor_secret = 'sealed' WHERE id = :pending", { pending });
  wouldHold.push(pending);
  // Not held by `crew`: a confirmed second factor; inactive; in the trash; required already by `guarded`.
  await enrol((await g.user({ roles: ['crew'] })).id);
  await g.user({ roles: ['crew'], active: false });
  await g.user({ roles: ['crew'], deleted: true });
  heldByGuarded.push((await g.user({ roles: ['crew', 'guarded'] })).id);

  heldByGuarded.push((await g.user({ roles: ['guarded'] })).id);
  // Not released by `guarded`: `strict` holds them too; a confirmed second factor; inactive.
  await g.user({ roles: ['guarded', 'strict'] });
  await enrol((await g.user({ roles: ['guarded'] })).id);
  await g.user({ roles: ['guarded'], active: false });
});
afterAll(() => t.close());

function preview(who: keyof typeof tokens, door: Door, roleId: number | null, body: object) {
  const caller = request(t.app, { token: tokens[who] });
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

const byId = (ids: number[]) => [...ids].sort((a, b) => a - b);
const nobody = { count: 0, user_ids: [] };

describe.each(DOORS)('role preview of a second-factor requirement through %s', (door: Door) => {
  it('counts whom switching it on would hold: not those with a second factor, inactive, trashed or required already', async () => {
    const res = await preview('admin', door, crewId, { permissions: ['users.view'], require_two_factor: true });
    expect(res.status).toBe(200);
    const { held, released } = res.data.two_factor;
    expect(held).toEqual({ count: 22, user_ids: byId(wouldHold).slice(0, 20) });
    expect(released).toEqual(nobody);
    // Each one sampled is named, once.
    expect(res.data.users.map((u: { id: number }) => u.id)).toEqual(held.user_ids);
    // The permissions are unchanged: nothing else is reached.
    expect(res.data).toMatchObject({ gains: [], losses: [], outranks: nobody });
  });

  it('counts whom switching it off would let go: held today by this role alone', async () => {
    const res = await preview('admin', door, guardedId, { permissions: ['users.view'], require_two_factor: false });
    expect(res.data.two_factor).toEqual({ held: nobody, released: { count: 2, user_ids: byId(heldByGuarded) } });
    expect(res.data.users.map((u: { id: number }) => u.id)).toEqual(byId(heldByGuarded));
  });

  it('reaches nobody when the setting stays as it is, or is left out', async () => {
    for (const [roleId, same] of [
      [crewId, false],
      [guardedId, true],
    ] as const) {
      const kept = await preview('admin', door, roleId, { permissions: ['users.view'], require_two_factor: same });
      expect(kept.data.two_factor).toEqual({ held: nobody, released: nobody });
      const left = await preview('admin', door, roleId, { permissions: ['users.view'] });
      expect(left.data.two_factor).toEqual({ held: nobody, released: nobody });
      expect(left.data.users).toEqual([]);
    }
  });

  it('counts but never names them for a caller without users.view', async () => {
    const on = await preview('blind', door, crewId, { permissions: ['users.view'], require_two_factor: true });
    expect(on.status).toBe(200);
    expect(on.data.two_factor).toEqual({ held: { count: 22, user_ids: [] }, released: nobody });
    const off = await preview('blind', door, guardedId, { permissions: ['users.view'], require_two_factor: false });
    expect(off.data.two_factor).toEqual({ held: nobody, released: { count: 2, user_ids: [] } });
    expect(on.data.users).toEqual([]);
    expect(off.data.users).toEqual([]);
    expect(on.data.people).toMatchObject({ allowed: false, code: 'FORBIDDEN' });
  });

  it('holds nobody with a new role: it has no members', async () => {
    const res = await preview('admin', door, null, { permissions: ['users.view'], require_two_factor: true });
    expect(res.status).toBe(200);
    expect(res.data.two_factor).toEqual({ held: nobody, released: nobody });
  });

  it('refuses a require_two_factor that is not true or false (422)', async () => {
    const res = await preview('admin', door, crewId, { permissions: [], require_two_factor: 'yes' });
    expect(res.status).toBe(422);
  });
});

it('counts the same when most members have a second factor (the count walks those without one)', async () => {
  // A role everyone holds: the users without a second factor are fewer than its members, so the
  // count is driven from them, not from the members.
  const g = given(t.db);
  const everyoneId = await g.role('everyone', []);
  await sql('INSERT INTO user_roles (user_id, role_id) SELECT id, :everyoneId FROM users', { everyoneId });
  for (let i = 0; i < 3; i++) await enrol((await g.user({ roles: ['everyone'] })).id);
  // What it should be, worked out here from the rows: active, not trashed, no confirmed factor, no requiring role.
  const [users] = (await sql('SELECT id, is_active, deleted_at, two_factor_enrolled_at FROM users', {})) as [
    Array<{ id: number; is_active: number | boolean; deleted_at: unknown; two_factor_enrolled_at: unknown }>,
    unknown,
  ];
  const [required] = (await sql(
    'SELECT ur.user_id FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE r.require_two_factor = 1',
    {},
  )) as [Array<{ user_id: number }>, unknown];
  const requiredIds = new Set(required.map((r) => Number(r.user_id)));
  const expected = users
    .filter((u) => Number(u.is_active) === 1 && u.deleted_at === null && u.two_factor_enrolled_at === null)
    .map((u) => Number(u.id))
    .filter((id) => !requiredIds.has(id));
  expect(expected.length).toBeGreaterThan(20);
  for (const door of DOORS) {
    const res = await preview('admin', door, everyoneId, { permissions: [], require_two_factor: true });
    expect(res.data.two_factor.held).toEqual({ count: expected.length, user_ids: byId(expected).slice(0, 20) });
  }
});

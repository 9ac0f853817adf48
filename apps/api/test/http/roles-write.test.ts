import { PERMISSIONS } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { given } from '../support/given.js';
import { DOORS, type Door, doneStatus, roleState, rolesApi } from '../support/roles-api.js';
import { engine } from '../support/test-db.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { outboxEvents, subscribe } from '../support/webhooks.js';

/**
 * POST /roles, PUT /roles/{id}, DELETE /roles/{id} through both doors: the changes with their
 * audit rows and webhook events, and every refusal with what it names.
 */

const KEEPER = ['users.view', 'roles.view', 'roles.create', 'roles.update', 'roles.delete'];

let t: TestApp;
const tokens: Record<'admin' | 'keeper' | 'viewer', string> = { admin: '', keeper: '', viewer: '' };
let roleId: (name: string) => Promise<number>;
let serial = 0;
const fresh = (prefix: string) => `${prefix}-${++serial}`;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  await g.role('keeper', KEEPER);
  tokens.admin = await g.token((await g.user({ roles: ['admin'] })).id);
  await g.user({ roles: ['admin'] });
  tokens.keeper = await g.token((await g.user({ roles: ['keeper'] })).id);
  tokens.viewer = await g.token((await g.user({ roles: ['viewer'] })).id);
  await subscribe(t.db, ['role.created', 'role.updated', 'role.deleted']);
  roleId = async (name) => (await t.db.models.Role.findOne({ where: { name } }))?.id as number;
});
afterAll(() => t.close());

async function auditOf(db: Database, action: string, id: number) {
  const rows = await db.models.AuditLog.findAll({ where: { action }, order: [['id', 'DESC']] });
  return rows.find((r) => r.target_ids?.[0] === id) ?? null;
}

async function eventsOf(db: Database, type: string, id: number) {
  return (await outboxEvents(db)).filter(
    (e) => e.type === type && (e.payload.data.role as { id: number } | undefined)?.id === id,
  );
}

/** A role made straight in the database, given to `members` new users (the last `trashed` of them in the trash). */
async function roleWith(permissions: string[], members = 0, trashed = 0) {
  const g = given(t.db);
  const name = fresh('team');
  const id = await g.role(name, permissions);
  const users: number[] = [];
  for (let i = 0; i < members; i++) users.push((await g.user({ roles: [name], deleted: i >= members - trashed })).id);
  return { id, name, users };
}

describe.each(DOORS)('role writes through %s', (door: Door) => {
  const as = (who: keyof typeof tokens) => rolesApi(t.app, tokens[who], door);

  it('creates a role: the item, a role.create audit row and a role.created event', async () => {
    const name = fresh('Ops');
    const res = await as('admin').create({
      name,
      description: '  Runs the night shift. ',
      permissions: ['users.view', 'users.export', 'users.view'],
    });
    expect(res.status).toBe(doneStatus(door, 'create'));
    const { item } = res.data;
    expect(item).toMatchObject({
      name,
      description: 'Runs the night shift.',
      guard_name: 'web',
      permissions_count: 2,
      permissions: [expect.objectContaining({ name: 'users.export' }), expect.objectContaining({ name: 'users.view' })],
    });
    expect(await roleState(t.db, item.id)).toMatchObject({ version: item.version });
    const audit = await auditOf(t.db, 'role.create', item.id);
    expect(audit?.changes).toEqual({
      name: { before: null, after: name },
      description: { before: null, after: 'Runs the night shift.' },
      permissions: { before: null, after: ['users.export', 'users.view'] },
    });
    expect(audit?.target_type).toBe('role');
    const [event] = await eventsOf(t.db, 'role.created', item.id);
    expect(event?.payload.data.role).toMatchObject({
      id: item.id,
      name,
      description: 'Runs the night shift.',
      permissions: ['users.export', 'users.view'],
    });
  });

  it('updates a role: a new version, the before → after diff in the audit row and the event', async () => {
    const role = await roleWith(['users.view', 'users.export']);
    const before = await roleState(t.db, role.id);
    const name = fresh('Renamed');
    const res = await as('admin').update(role.id, {
      name,
      description: 'Reads and downloads.',
      permissions: ['users.view', 'jobs.view'],
      version: before?.version,
    });
    expect(res.status).toBe(200);
    expect(res.data.item).toMatchObject({
      id: role.id,
      name,
      description: 'Reads and downloads.',
      permissions_count: 2,
    });
    expect(res.data.item.version).not.toBe(before?.version);
    expect(await roleState(t.db, role.id)).toEqual({
      name,
      description: 'Reads and downloads.',
      version: res.data.item.version,
      permissions: ['jobs.view', 'users.view'],
    });
    const changes = {
      name: { before: role.name, after: name },
      description: { before: null, after: 'Reads and downloads.' },
      permissions: { before: ['users.export', 'users.view'], after: ['jobs.view', 'users.view'] },
    };
    expect((await auditOf(t.db, 'role.update', role.id))?.changes).toEqual(changes);
    const [event] = await eventsOf(t.db, 'role.updated', role.id);
    expect(event?.payload.data).toMatchObject({
      role: { id: role.id, name, permissions: ['jobs.view', 'users.view'] },
      changes: {
        name: { from: role.name, to: name },
        permissions: { from: changes.permissions.before, to: changes.permissions.after },
      },
    });
    // A description left out stays; null clears it.
    const kept = await as('admin').update(role.id, { name, permissions: [], version: res.data.item.version });
    expect(kept.data.item.description).toBe('Reads and downloads.');
    const cleared = await as('admin').update(role.id, {
      name,
      description: null,
      permissions: [],
      version: kept.data.item.version,
    });
    expect(cleared.data.item.description).toBeNull();
  });

  it('deletes a role nobody holds: gone, a role.delete audit row and a role.deleted event', async () => {
    const role = await roleWith(['users.view']);
    const res = await as('admin').remove(role.id);
    expect(res.status).toBe(doneStatus(door, 'delete'));
    expect(await roleState(t.db, role.id)).toBeNull();
    const audit = await auditOf(t.db, 'role.delete', role.id);
    expect(audit?.changes).toMatchObject({
      name: { before: role.name, after: null },
      permissions: { before: ['users.view'], after: null },
    });
    const [event] = await eventsOf(t.db, 'role.deleted', role.id);
    expect(event?.payload.data).toEqual({ role: { id: role.id, name: role.name } });
  });

  it('refuses a name another role has in another case (422 at name), on create and on rename', async () => {
    const role = await roleWith(['users.view']);
    const created = await as('admin').create({ name: role.name.toUpperCase(), permissions: [] });
    expect(created).toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
      errors: { name: [`A role named ${role.name} already exists.`] },
    });
    const other = await roleWith([]);
    const renamed = await as('admin').update(other.id, {
      name: role.name.toUpperCase(),
      permissions: [],
      version: (await roleState(t.db, other.id))?.version,
    });
    expect(renamed).toMatchObject({ status: 422, errors: { name: [`A role named ${role.name} already exists.`] } });
    // Its own name in another case is no clash.
    const recased = await as('admin').update(role.id, {
      name: role.name.toUpperCase(),
      permissions: ['users.view'],
      version: (await roleState(t.db, role.id))?.version,
    });
    expect(recased.status).toBe(200);
  });

  it('refuses a stale version with 409 VERSION_CONFLICT, changing nothing', async () => {
    const role = await roleWith(['users.view']);
    const stale = (await roleState(t.db, role.id))?.version;
    const first = await as('admin').update(role.id, { name: role.name, permissions: [], version: stale });
    expect(first.status).toBe(200);
    const before = await roleState(t.db, role.id);
    const second = await as('admin').update(role.id, { name: fresh('late'), permissions: [], version: stale });
    expect(second).toMatchObject({ status: 409, code: 'VERSION_CONFLICT' });
    expect(await roleState(t.db, role.id)).toEqual(before);
  });

  it('refuses granting permissions the caller lacks: 403 FORBIDDEN naming them', async () => {
    const name = fresh('escalated');
    const created = await as('keeper').create({ name, permissions: ['users.view', 'users.delete', 'audit.view'] });
    expect(created).toMatchObject({ status: 403, code: 'FORBIDDEN', permission: 'users.delete' });
    expect(created.detail).toContain('users.delete, audit.view');
    expect(created.errors?.permissions?.[0]).toContain('users.delete, audit.view');
    expect(await roleId(name)).toBeUndefined();
    const role = await roleWith(['users.view']);
    const before = await roleState(t.db, role.id);
    const updated = await as('keeper').update(role.id, {
      name: role.name,
      permissions: ['users.view', 'users.forceDelete'],
      version: before?.version,
    });
    expect(updated).toMatchObject({ status: 403, code: 'FORBIDDEN', permission: 'users.forceDelete' });
    expect(await roleState(t.db, role.id)).toEqual(before);
    // Within what it holds, the keeper may.
    expect((await as('keeper').create({ name: fresh('small'), permissions: ['users.view'] })).status).toBe(
      doneStatus(door, 'create'),
    );
  });

  it('refuses changing or deleting a role granting more than the caller holds: 403 OUTRANKED', async () => {
    const role = await roleWith(['users.view', 'users.update', 'users.setActive']);
    const before = await roleState(t.db, role.id);
    const updated = await as('keeper').update(role.id, {
      name: role.name,
      permissions: ['users.view'],
      version: before?.version,
    });
    expect(updated).toMatchObject({ status: 403, code: 'OUTRANKED', permission: 'users.update' });
    expect(updated.detail).toContain('users.update, users.setActive');
    const deleted = await as('keeper').remove(role.id);
    expect(deleted).toMatchObject({ status: 403, code: 'OUTRANKED' });
    expect(await roleState(t.db, role.id)).toEqual(before);
  });

  it('protects the administrator role: no rename, no permission lost, no delete (422 ROLE_PROTECTED)', async () => {
    const admin = await roleId('admin');
    const version = (await roleState(t.db, admin))?.version;
    const renamed = await as('admin').update(admin, { name: 'root', permissions: [...PERMISSIONS], version });
    expect(renamed).toMatchObject({ status: 422, code: 'ROLE_PROTECTED', errors: { name: [expect.any(String)] } });
    const lessened = await as('admin').update(admin, {
      name: 'admin',
      permissions: PERMISSIONS.filter((p) => p !== 'jobs.view'),
      version,
    });
    expect(lessened).toMatchObject({ status: 422, code: 'ROLE_PROTECTED' });
    expect(lessened.errors?.permissions?.[0]).toContain('jobs.view');
    const deleted = await as('admin').remove(admin, true);
    expect(deleted).toMatchObject({ status: 422, code: 'ROLE_PROTECTED' });
    expect(await roleState(t.db, admin)).toMatchObject({
      name: 'admin',
      version,
      permissions: [...PERMISSIONS].sort(),
    });
  });

  it('refuses to delete a role its users hold without detach (409 ROLE_IN_USE, naming how many)', async () => {
    const role = await roleWith(['users.view'], 3, 1);
    const refused = await as('admin').remove(role.id);
    expect(refused).toMatchObject({ status: 409, code: 'ROLE_IN_USE' });
    expect(refused.detail).toBe(
      `The role ${role.name} is given to 3 users (1 of them in the trash). Delete it with detach=true to take it from them.`,
    );
    expect((await as('admin').remove(role.id, false)).code).toBe('ROLE_IN_USE');
    expect(await roleState(t.db, role.id)).not.toBeNull();
  });

  it('with detach, takes the role from each member and deletes it, in one transaction', async () => {
    const role = await roleWith(['users.view'], 3, 1);
    const res = await as('admin').remove(role.id, true);
    expect(res.status).toBe(doneStatus(door, 'delete'));
    expect(await roleState(t.db, role.id)).toBeNull();
    expect(await t.db.models.UserRole.count({ where: { role_id: role.id } })).toBe(0);
    expect(await t.db.models.RolePermission.count({ where: { role_id: role.id } })).toBe(0);
    const [counters] = await t.db.sequelize.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM role_member_counts WHERE role_id = :id',
      { replacements: { id: role.id }, type: QueryTypes.SELECT },
    );
    expect(Number(counters?.n)).toBe(0);
    const audit = await auditOf(t.db, 'role.delete', role.id);
    expect(audit?.context).toMatchObject({ detached: 3, detached_ids: role.users });
  });

  it('answers 404 for a role that does not exist', async () => {
    expect((await as('admin').update(999_999, { name: 'ghost', permissions: [], version: 'x' })).status).toBe(404);
    expect((await as('admin').remove(999_999)).status).toBe(404);
  });

  it('needs the permission of each write (403 FORBIDDEN naming it)', async () => {
    const role = await roleWith(['users.view']);
    expect(await as('viewer').create({ name: fresh('nope'), permissions: [] })).toMatchObject({
      status: 403,
      permission: 'roles.create',
    });
    expect(await as('viewer').remove(role.id)).toMatchObject({ status: 403, permission: 'roles.delete' });
  });
});

describe('the last holder of every permission', () => {
  // An installation of its own: nobody holds the administrator role, so a role of everything
  // and its one member are all that stands between it and nobody holding every permission.
  let own: TestApp;
  let superId: number;
  let superToken: string;
  beforeAll(async () => {
    own = await startTestApp();
    const g = given(own.db);
    superId = await g.role('super', [...PERMISSIONS]);
    superToken = await g.token((await g.user({ roles: ['super'] })).id);
    // Holders who do not count: inactive, or in the trash.
    await g.user({ roles: ['super'], active: false });
    await g.user({ roles: ['admin'], deleted: true });
  });
  afterAll(() => own.close());

  it.each(DOORS)(
    'refuses (422 LAST_ADMIN) taking a permission from the only such role, and deleting it (%s)',
    async (door) => {
      const api = rolesApi(own.app, superToken, door);
      const before = await roleState(own.db, superId);
      const lessened = await api.update(superId, {
        name: 'super',
        permissions: PERMISSIONS.filter((p) => p !== 'jobs.view'),
        version: before?.version,
      });
      expect(lessened).toMatchObject({ status: 422, code: 'LAST_ADMIN' });
      expect(await api.remove(superId, true)).toMatchObject({ status: 422, code: 'LAST_ADMIN' });
      expect(await roleState(own.db, superId)).toEqual(before);
      expect(await own.db.models.UserRole.count({ where: { role_id: superId } })).toBe(2);
    },
  );

  it('allows it once someone else holds every permission', async () => {
    const g = given(own.db);
    const other = await g.user({ permissions: [...PERMISSIONS] });
    const api = rolesApi(own.app, superToken, 'rest');
    const res = await api.update(superId, {
      name: 'super',
      permissions: PERMISSIONS.filter((p) => p !== 'jobs.view'),
      version: (await roleState(own.db, superId))?.version,
    });
    expect(res.status).toBe(200);
    await own.db.models.User.update({ is_active: false }, { where: { id: other.id } });
  });

  it('two changes racing, each leaving one holder: exactly one wins, someone still holds everything', async () => {
    const g = given(own.db);
    const rounds = engine() === 'mysql' ? 10 : 3;
    for (let round = 0; round < rounds; round++) {
      const left = await g.role(`left-${round}`, [...PERMISSIONS]);
      const right = await g.role(`right-${round}`, [...PERMISSIONS]);
      // Nobody else holds everything: super lost a permission above, its members stay as they are.
      const a = await g.user({ roles: [`left-${round}`] });
      const b = await g.user({ roles: [`right-${round}`] });
      const fewer = PERMISSIONS.filter((p) => p !== 'jobs.view');
      const [versionLeft, versionRight] = [
        (await roleState(own.db, left))?.version,
        (await roleState(own.db, right))?.version,
      ];
      const results = await Promise.all([
        rolesApi(own.app, await g.token(a.id), 'rest').update(right, {
          name: `right-${round}`,
          permissions: fewer,
          version: versionRight,
        }),
        rolesApi(own.app, await g.token(b.id), 'trpc').update(left, {
          name: `left-${round}`,
          permissions: fewer,
          version: versionLeft,
        }),
      ]);
      const won = results.filter((r) => r.status === 200);
      expect(won, `round ${round}: ${JSON.stringify(results)}`).toHaveLength(1);
      // The loser read, under the turn, what the winner left: nobody else (LAST_ADMIN), or was
      // itself already outranked by the role it lost (OUTRANKED, when its actor was read after).
      const lost = results.find((r) => r.status !== 200);
      expect(['LAST_ADMIN', 'OUTRANKED']).toContain(lost?.code);
      const holders = await Promise.all([left, right].map((id) => roleState(own.db, id)));
      expect(holders.filter((h) => h?.permissions.length === PERMISSIONS.length)).toHaveLength(1);
      // Step aside for the next round.
      await own.db.models.User.update({ is_active: false }, { where: { id: [a.id, b.id] } });
    }
  });
});

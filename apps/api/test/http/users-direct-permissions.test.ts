import { PERMISSIONS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { answerOf, DOORS, type Door } from '../support/roles-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A user's direct permissions (granted to them, beside their roles'), edited with PUT /users/{id}
 * through both doors: the whole list replaces the grants, the caller gives or takes only what it
 * holds, the change is audited and holds on the user's very next request.
 */

// A manager who may edit users and holds users.export, but not users.delete.
const MANAGER = ['users.view', 'users.update', 'users.export'];

let t: TestApp;
let adminToken = '';
let managerToken = '';

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  await g.role('grant-manager', MANAGER);
  adminToken = await g.token((await g.user({ roles: ['admin'] })).id);
  managerToken = await g.token((await g.user({ roles: ['grant-manager'] })).id);
});
afterAll(() => t.close());

/** PUT /users/{id} through `door` with the edit data and `changes` on top, as the edit form sends it. */
async function put(door: Door, token: string, id: number, changes: Record<string, unknown>) {
  const caller = request(t.app, { token });
  const { item } = (await caller.get(`/api/users/${id}/edit`)).json();
  const body = { name: item.name, email: item.email, version: item.version, ...changes };
  const res =
    door === 'rest' ? caller.put(`/api/users/${id}`, body) : caller.post('/api/trpc/users.update', { id, ...body });
  return answerOf(await res, door);
}

const directOf = async (token: string, id: number): Promise<string[]> =>
  (await request(t.app, { token }).get(`/api/users/${id}/edit`)).json().item.permissions;

describe.each(DOORS)('direct permissions through %s', (door) => {
  it('grants and takes away: the edit data, the access sources, the audit row, the next request', async () => {
    const g = given(t.db);
    const viewer = await g.user({ roles: ['viewer'] });
    const viewerToken = await g.token(viewer.id);
    const exportAsViewer = () => request(t.app, { token: viewerToken }).get('/api/users/export?format=json');
    expect((await exportAsViewer()).statusCode).toBe(403);

    const granted = await put(door, adminToken, viewer.id, {
      permissions: ['users.export', 'audit.view', 'users.export'],
    });
    expect(granted.status).toBe(200);
    expect(await directOf(adminToken, viewer.id)).toEqual(['users.export', 'audit.view']);
    // Held at once: permissions are read on each request, not cached in the token or session.
    expect((await exportAsViewer()).statusCode).toBe(200);
    const access = (await request(t.app, { token: adminToken }).get(`/api/users/${viewer.id}/access`)).json();
    expect(access.item.permissions).toContainEqual({ name: 'users.export', sources: [{ kind: 'direct' }] });

    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'user.update' }, order: [['id', 'DESC']] });
    expect(audit?.target_ids).toEqual([viewer.id]);
    expect(audit?.changes).toMatchObject({ permissions: { before: [], after: ['users.export', 'audit.view'] } });

    expect((await put(door, adminToken, viewer.id, { permissions: ['audit.view'] })).status).toBe(200);
    expect(await directOf(adminToken, viewer.id)).toEqual(['audit.view']);
    expect((await exportAsViewer()).statusCode).toBe(403);
  });

  it('leaves the grants alone when the PUT does not name them', async () => {
    const user = await given(t.db).user({ roles: ['viewer'], permissions: ['users.export'] });
    expect((await put(door, adminToken, user.id, { name: 'Renamed Only' })).status).toBe(200);
    expect(await directOf(adminToken, user.id)).toEqual(['users.export']);
  });

  it('lets a manager give and take only permissions it holds (403 naming the first it lacks)', async () => {
    const g = given(t.db);
    const user = await g.user();
    expect((await put(door, managerToken, user.id, { permissions: ['users.export'] })).status).toBe(200);

    // The edit form is told the same: what the manager may tick, and why not the rest.
    const { options } = (await request(t.app, { token: managerToken }).get(`/api/users/${user.id}/edit`)).json();
    expect(options.permissions).toHaveLength(PERMISSIONS.length);
    expect(options.permissions).toContainEqual({ name: 'users.export', grantable: true });
    const locked = options.permissions.find((o: { name: string }) => o.name === 'users.delete');
    expect(locked).toMatchObject({ grantable: false, reason: expect.stringContaining('you do not hold users.delete') });

    const beyond = await put(door, managerToken, user.id, { permissions: ['users.export', 'users.delete'] });
    expect(beyond).toMatchObject({ status: 403, code: 'FORBIDDEN', permission: 'users.delete' });
    expect(beyond.errors?.permissions?.[0]).toContain('you do not hold users.delete');

    // A user granted users.delete directly outranks the manager (the privilege ceiling counts
    // direct grants as roles'): the manager may not touch their grants at all.
    const other = await g.user({ permissions: ['users.delete'] });
    for (const permissions of [[], ['users.delete', 'users.export']]) {
      expect(await put(door, managerToken, other.id, { permissions })).toMatchObject({
        status: 403,
        code: 'OUTRANKED',
      });
    }
    expect(await directOf(adminToken, other.id)).toEqual(['users.delete']);
  });

  it('refuses unknown permission names at the door (422 at permissions.<i>)', async () => {
    const user = await given(t.db).user({ roles: ['viewer'] });
    const res = await put(door, adminToken, user.id, { permissions: ['users.view', 'users.fly'] });
    expect(res).toMatchObject({ status: 422 });
    expect(Object.keys(res.errors ?? {})).toContain('permissions.1');
  });
});

describe('the last holder of every permission', () => {
  // An installation of its own where one active user holds everything only through direct grants.
  let own: TestApp;
  let holderId = 0;
  let holderToken = '';
  beforeAll(async () => {
    own = await startTestApp();
    const g = given(own.db);
    const holder = await g.user({ permissions: [...PERMISSIONS] });
    holderId = holder.id;
    holderToken = await g.token(holder.id);
    await g.user({ roles: ['admin'], active: false });
  });
  afterAll(() => own.close());

  it('refuses (422 LAST_ADMIN) taking a grant from the only user holding everything, and writes nothing', async () => {
    const caller = request(own.app, { token: holderToken });
    const { item } = (await caller.get(`/api/users/${holderId}/edit`)).json();
    const res = await caller.put(`/api/users/${holderId}`, {
      name: item.name,
      email: item.email,
      version: item.version,
      permissions: PERMISSIONS.filter((p) => p !== 'jobs.view'),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('LAST_ADMIN');
    expect((await caller.get(`/api/users/${holderId}/edit`)).json().item.permissions).toHaveLength(PERMISSIONS.length);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { answerOf, DOORS, type Door } from '../support/roles-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { clearOutbox, outboxEvents, subscribe } from '../support/webhooks.js';

/**
 * A new user's direct permissions, given with POST /users through both doors under the edit's
 * rule: the caller grants only permissions it holds (403 naming the first it lacks, in the
 * sentence PUT /users/{id} answers with); the grants are audited and sent with user.created.
 */

// A manager who may create and edit users and holds users.export, but not users.delete.
const MANAGER = ['users.view', 'users.create', 'users.update', 'users.export'];

let t: TestApp;
let adminToken = '';
let managerToken = '';
let serial = 0;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  await g.role('create-manager', MANAGER);
  adminToken = await g.token((await g.user({ roles: ['admin'] })).id);
  managerToken = await g.token((await g.user({ roles: ['create-manager'] })).id);
});
afterAll(() => t.close());
beforeEach(() => clearOutbox(t.db));

/** POST /users (or tRPC users.create) as the create form sends it, with `extra` on top. */
async function create(door: Door, token: string, extra: Record<string, unknown>) {
  serial += 1;
  const body = {
    name: `Granted ${serial}`,
    email: `granted-${serial}-${door}@example.com`,
    password: 'long-enough-pw',
    password_confirmation: 'long-enough-pw',
    ...extra,
  };
  const caller = request(t.app, { token });
  const res = door === 'rest' ? caller.post('/api/users', body) : caller.post('/api/trpc/users.create', body);
  return { email: body.email, answer: answerOf(await res, door) };
}

const directOf = async (id: number): Promise<string[]> =>
  (await request(t.app, { token: adminToken }).get(`/api/users/${id}/edit`)).json().item.permissions;

describe.each(DOORS)('POST /users with permissions through %s', (door) => {
  it('grants them: the edit data, the next request, the audit row and the user.created event', async () => {
    await subscribe(t.db, ['user.created']);
    const { answer } = await create(door, adminToken, { permissions: ['users.export', 'audit.view', 'users.export'] });
    expect(answer.status).toBe(door === 'rest' ? 201 : 200);
    const id: number = answer.data.item.id;
    expect(await directOf(id)).toEqual(['users.export', 'audit.view']);

    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'user.create' }, order: [['id', 'DESC']] });
    expect(audit?.target_ids).toEqual([id]);
    expect(audit?.changes).toMatchObject({ permissions: { before: null, after: ['users.export', 'audit.view'] } });

    const [event] = await outboxEvents(t.db);
    expect(event?.payload.data).toMatchObject({
      user: { id },
      changes: { permissions: { from: null, to: ['users.export', 'audit.view'] } },
    });

    // Held at once: the new user's own token may export.
    const token = await given(t.db).token(id);
    expect((await request(t.app, { token }).get('/api/users/export?format=json')).statusCode).toBe(200);
  });

  it('grants none when the body names none, as before', async () => {
    const { answer } = await create(door, adminToken, {});
    expect(answer.status).toBe(door === 'rest' ? 201 : 200);
    expect(await directOf(answer.data.item.id)).toEqual([]);
  });

  it('lets a manager grant only permissions it holds: 403 naming the first it lacks, as the edit answers', async () => {
    const allowed = await create(door, managerToken, { permissions: ['users.export'] });
    expect(allowed.answer.status).toBe(door === 'rest' ? 201 : 200);
    expect(await directOf(allowed.answer.data.item.id)).toEqual(['users.export']);

    const beyond = await create(door, managerToken, { permissions: ['users.export', 'users.delete'] });
    expect(beyond.answer).toMatchObject({ status: 403, code: 'FORBIDDEN', permission: 'users.delete' });
    expect(beyond.answer.errors?.permissions?.[0]).toContain('you do not hold users.delete');
    expect(await t.db.models.User.findOne({ where: { email: beyond.email } })).toBeNull();

    // The same refusal, word for word, as the edit gives for the same grant.
    const target = allowed.answer.data.item;
    const { item } = (await request(t.app, { token: managerToken }).get(`/api/users/${target.id}/edit`)).json();
    const edit = await request(t.app, { token: managerToken }).put(`/api/users/${target.id}`, {
      name: item.name,
      email: item.email,
      version: item.version,
      permissions: ['users.export', 'users.delete'],
    });
    expect(edit.statusCode).toBe(403);
    expect(beyond.answer.detail).toBe(edit.json().detail);
  });

  it('refuses unknown permission names at the door (422 at permissions.<i>)', async () => {
    const { answer, email } = await create(door, adminToken, { permissions: ['users.view', 'users.fly'] });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.errors ?? {})).toContain('permissions.1');
    expect(await t.db.models.User.findOne({ where: { email } })).toBeNull();
  });
});

describe('the OpenAPI document', () => {
  it('lists permissions on the create body and the permission options of the create form', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const body = doc.paths['/api/users'].post.requestBody.content['application/json'].schema;
    expect(body.properties.permissions).toMatchObject({ type: 'array', items: { enum: expect.any(Array) } });
    expect(body.required).not.toContain('permissions');
    const form = doc.paths['/api/users/new'].get.responses['200'].content['application/json'].schema;
    expect(form.properties.options.required).toEqual(expect.arrayContaining(['roles', 'permissions']));
  });
});

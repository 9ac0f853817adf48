import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

let t: TestApp;
let admin: ReturnType<typeof usersApi>;
/** Holds the trash permissions but not every permission an administrator holds. */
let janitor: ReturnType<typeof usersApi>;
let janitorToken: string;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  admin = usersApi(t.app, await g.token((await g.user({ roles: ['admin'] })).id));
  await g.user({ roles: ['admin'] });
  janitorToken = await g.token(
    (await g.user({ permissions: ['users.view', 'users.restore', 'users.forceDelete'] })).id,
  );
  janitor = usersApi(t.app, janitorToken);
});
afterAll(() => t.close());

const statsRow = async () => (await admin.list()).json().stats;

describe('POST /users/{id}/restore', () => {
  it('brings a deleted user back: 200 with the live item, the stats and an audit row', async () => {
    const gone = await given(t.db).user({ name: 'Back Again', deleted: true });
    const before = await statsRow();
    const res = await janitor.restore(gone.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({ id: gone.id, name: 'Back Again', deleted_at: null });
    expect((await janitor.show(gone.id)).json().item.deleted_at).toBeNull();
    const after = await statsRow();
    expect(after.trashed).toBe(before.trashed - 1);
    expect(after.total).toBe(before.total + 1);
    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'user.restore' }, order: [['id', 'DESC']] });
    expect(audit?.target_ids).toEqual([gone.id]);
    expect(audit?.changes?.deleted_at?.after).toBeNull();
  });

  it('refuses a user who is not deleted with NOT_DELETED (422), and an unknown id with 404', async () => {
    const live = await given(t.db).user({ name: 'Still Here' });
    const res = await janitor.restore(live.id);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'NOT_DELETED', detail: 'Still Here is not deleted.' });
    expect((await janitor.restore(9_999_999)).statusCode).toBe(404);
  });

  it('refuses a deleted account that outranks the caller (OUTRANKED, 403) and leaves it deleted', async () => {
    const boss = await given(t.db).user({ roles: ['admin'], name: 'Gone Boss', deleted: true });
    const res = await janitor.restore(boss.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('OUTRANKED');
    expect((await admin.show(boss.id, '?withTrashed=true')).json().item.deleted_at).not.toBeNull();
  });

  it('is refused without users.restore (403 naming it) and without a session (401)', async () => {
    const gone = await given(t.db).user({ deleted: true });
    const viewer = usersApi(t.app, await given(t.db).token((await given(t.db).user({ roles: ['viewer'] })).id));
    const res = await viewer.restore(gone.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'users.restore' });
    expect((await request(t.app).post(`/api/users/${gone.id}/restore`, {})).statusCode).toBe(401);
  });
});

describe('DELETE /users/{id}/force', () => {
  it('erases a deleted user: 204, the row gone, the stats moved, an audit row without their data', async () => {
    const gone = await given(t.db).user({ name: 'Erase Me', email: 'erase.me@example.com', deleted: true });
    const before = await statsRow();
    const res = await janitor.forceDelete(gone.id);
    expect(res.statusCode).toBe(204);
    expect(await t.db.models.User.findByPk(gone.id, { paranoid: false })).toBeNull();
    expect((await statsRow()).trashed).toBe(before.trashed - 1);
    const audit = await t.db.models.AuditLog.findOne({
      where: { action: 'user.force_delete' },
      order: [['id', 'DESC']],
    });
    expect(audit?.target_ids).toEqual([gone.id]);
    expect(JSON.stringify(audit?.get())).not.toMatch(/Erase Me|erase\.me/);
  });

  it('refuses a live user with NOT_DELETED and keeps them', async () => {
    const live = await given(t.db).user({ name: 'Not Trash' });
    const res = await janitor.forceDelete(live.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('NOT_DELETED');
    expect(await t.db.models.User.findByPk(live.id)).not.toBeNull();
  });

  it('refuses an outranking account (OUTRANKED) and keeps it', async () => {
    const boss = await given(t.db).user({ roles: ['admin'], deleted: true });
    const res = await janitor.forceDelete(boss.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('OUTRANKED');
    expect(await t.db.models.User.findByPk(boss.id, { paranoid: false })).not.toBeNull();
  });

  it('answers 404 for an id that does not exist, or no longer does', async () => {
    const gone = await given(t.db).user({ deleted: true });
    expect((await janitor.forceDelete(gone.id)).statusCode).toBe(204);
    expect((await janitor.forceDelete(gone.id)).statusCode).toBe(404);
  });
});

describe('the record actions match what the single routes do', () => {
  it('offers restore and purge of a trashed user the caller outranks, and says why not for one they do not', async () => {
    const mine = await given(t.db).user({ deleted: true });
    const boss = await given(t.db).user({ roles: ['admin'], name: 'Trashed Boss', deleted: true });
    const item = (id: number) => janitor.show(id, '?withTrashed=true').then((r) => r.json().item);
    expect((await item(mine.id)).actions).toMatchObject({
      restore: { allowed: true },
      forceDelete: { allowed: true },
    });
    const refused = (await item(boss.id)).actions.restore;
    expect(refused).toMatchObject({ allowed: false, code: 'OUTRANKED' });
    expect(refused.message).toContain('Trashed Boss');
    expect((await janitor.restore(boss.id)).json().detail).toBe(refused.message);
  });
});

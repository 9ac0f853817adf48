import type { AuditRow } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChange } from '../../src/journal/journal.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

let t: TestApp;
let adminId: number;
let adminToken: string;
let admin: ReturnType<typeof usersApi>;
let grace: number;
let alan: number;
let bulkIds: number[];

const audit = (query = '') => request(t.app, { token: adminToken }).get(`/api/audit${query}`);
const rowsOf = async (query = ''): Promise<AuditRow[]> => {
  const res = await audit(query);
  expect(res.statusCode).toBe(200);
  return res.json().rows;
};

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  adminId = (await g.user({ roles: ['admin'], name: 'Ada Auditor' })).id;
  await g.user({ roles: ['admin'] });
  adminToken = await g.token(adminId);
  admin = usersApi(t.app, adminToken);
  const created = await admin.create({
    name: 'Grace Hopper',
    email: 'grace.hopper@example.com',
    password: 'a-strong-password',
    password_confirmation: 'a-strong-password',
  });
  grace = created.json().item.id;
  alan = (await g.user({ name: 'Alan Turing', email: 'alan@example.com' })).id;
  expect((await admin.setActive(grace, false)).statusCode).toBe(200);
  expect((await admin.remove(grace)).statusCode).toBe(204);
  expect((await admin.restore(grace)).statusCode).toBe(200);
  bulkIds = [];
  for (let i = 0; i < 30; i += 1) bulkIds.push((await g.user({ name: `Bulk ${i}` })).id);
  expect((await admin.bulk({ operation: 'setActive', ids: bulkIds, active: false })).statusCode).toBe(200);
  expect((await admin.setActive(alan, false)).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('GET /audit', () => {
  it('lists events newest first, each with who, what, the change as from → to, where from and through which door', async () => {
    const rows = await rowsOf();
    expect(rows.map((r) => r.action).slice(0, 6)).toEqual([
      'user.deactivate',
      'users.bulk.setActive',
      'user.restore',
      'user.delete',
      'user.deactivate',
      'user.create',
    ]);
    const deactivation = rows[0] as AuditRow;
    expect(deactivation).toMatchObject({
      actor_id: adminId,
      actor_name: 'Ada Auditor',
      target_ids: [alan],
      target_count: 1,
      target_names: { [alan]: 'Alan Turing' },
      changes: { is_active: { from: true, to: false } },
      via: { kind: 'token', name: 'test' },
    });
    expect(deactivation.ip).toBeTruthy();
    expect(JSON.stringify(rows)).not.toMatch(/a-strong-password|scrypt|password_hash/);
  });

  it('sends the first 20 targets of a bulk with their count; the event itself has them all', async () => {
    const [bulk] = await rowsOf('?filters[action]=users.bulk.setActive');
    expect(bulk?.target_count).toBe(30);
    expect(bulk?.target_ids).toHaveLength(20);
    expect(Object.keys(bulk?.target_names ?? {})).toHaveLength(20);
    expect(bulk?.target_names[String(bulkIds[0])]).toBe('Bulk 0');
    const item = (await audit(`/${bulk?.id}`)).json().item;
    expect([...item.target_ids].sort((a: number, b: number) => a - b)).toEqual(bulkIds);
    expect(item.context).toMatchObject({ requested: 30 });
  });

  it('filters by one action or several', async () => {
    expect((await rowsOf('?filters[action]=user.delete')).map((r) => r.target_ids)).toEqual([[grace]]);
    const two = await rowsOf('?filters[action][]=user.delete&filters[action][]=user.restore');
    expect(two.map((r) => r.action)).toEqual(['user.restore', 'user.delete']);
    const bad = await audit('?filters[action]=user.explode');
    expect(bad.statusCode).toBe(422);
  });

  it('gives a user’s history: the events they are a target of (target_id) or took part in (user_id)', async () => {
    const targeted = await rowsOf(`?filters[target_id]=${grace}`);
    expect(targeted.map((r) => r.action)).toEqual(['user.restore', 'user.delete', 'user.deactivate', 'user.create']);
    const involving = await rowsOf(`?filters[user_id]=${adminId}&perPage=100`);
    const byAdmin = (await rowsOf('?perPage=100')).filter(
      (r) => r.actor_id === adminId || r.target_ids.includes(adminId),
    );
    expect(byAdmin).toHaveLength(6);
    expect(involving.map((r) => r.id)).toEqual(byAdmin.map((r) => r.id));
    const bulkMember = await rowsOf(`?filters[user_id]=${bulkIds[25]}`);
    expect(bulkMember.map((r) => r.action)).toEqual(['users.bulk.setActive']);
  });

  it('finds events by the name or e-mail of a user taking part, or by an exact IP address', async () => {
    const byName = await rowsOf('?q=hopper');
    expect(byName.map((r) => r.action)).toEqual(['user.restore', 'user.delete', 'user.deactivate', 'user.create']);
    const byActor = await rowsOf('?q=ada%20aud&perPage=100');
    expect(byActor).toHaveLength(6);
    const ip = (await rowsOf())[0]?.ip as string;
    expect((await rowsOf(`?q=${encodeURIComponent(ip)}&perPage=100`)).length).toBe(6);
    expect(await rowsOf('?q=nobody-by-this-name')).toEqual([]);
  });

  it('filters by actor and by time, and sorts oldest first', async () => {
    expect((await rowsOf(`?filters[actor_id]=${alan}`)).length).toBe(0);
    const future = await rowsOf('?filters[occurred_between][from]=2999-01-01');
    expect(future).toEqual([]);
    const oldest = await rowsOf('?sort=occurred_at&dir=asc&perPage=100');
    const ids = oldest.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('pages with an exact total while it is small', async () => {
    const res = await audit('?perPage=2&page=2');
    const { meta, rows } = res.json();
    expect(rows).toHaveLength(2);
    expect(meta).toMatchObject({ page: 2, perPage: 2, totalExact: true });
    expect(meta.pageCount).toBe(Math.ceil(meta.total / 2));
    const all = await rowsOf('?perPage=100');
    expect(all).toHaveLength(meta.total);
  });

  it('answers 404 for an event that does not exist', async () => {
    const res = await audit('/99999999');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('is for audit.view holders only: a manager gets 403 naming it', async () => {
    const manager = await given(t.db).token((await given(t.db).user({ roles: ['manager'] })).id);
    const res = await request(t.app, { token: manager }).get('/api/audit');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'audit.view' });
  });

  it('reads a user’s history in time order from the targets’ own index, even where ids and times disagree', async () => {
    const subject = (await given(t.db).user({ name: 'Time Traveller' })).id;
    // Events written out of time order (an import, a clock corrected): id order is not time order.
    const times = ['2020-03-01T10:00:00.000Z', '2020-01-01T10:00:00.000Z', '2020-02-01T10:00:00.000Z'];
    const ids: number[] = [];
    for (const time of times) {
      const event = await t.db.models.AuditLog.create({
        actor_id: null,
        action: 'user.update',
        target_type: 'user',
        target_ids: [subject],
        changes: {},
        created_at: new Date(time),
      });
      await t.db.sequelize.query('INSERT INTO audit_targets (target_id, audit_id, created_at) VALUES (?, ?, ?)', {
        replacements: [subject, event.id, new Date(time)],
      });
      ids.push(event.id);
    }
    const [march, january, february] = ids as [number, number, number];
    const newestFirst = [march, february, january];
    expect((await rowsOf(`?filters[target_id]=${subject}`)).map((r) => r.id)).toEqual(newestFirst);
    expect((await rowsOf(`?filters[user_id]=${subject}`)).map((r) => r.id)).toEqual(newestFirst);
    expect((await rowsOf(`?filters[user_id]=${subject}&sort=id&dir=asc`)).map((r) => r.id)).toEqual(ids);
    expect((await rowsOf(`?filters[target_id]=${subject}&perPage=1&page=2`)).map((r) => r.id)).toEqual([february]);
    const february2020 = 'filters[occurred_between][from]=2020-02-01&filters[occurred_between][to]=2020-02-28';
    expect((await rowsOf(`?filters[user_id]=${subject}&${february2020}`)).map((r) => r.id)).toEqual([february]);
    // Totals count each event once, with and without other filters.
    const totalOf = async (query: string) => (await audit(query)).json().meta.total;
    expect(await totalOf(`?filters[user_id]=${subject}`)).toBe(3);
    expect(await totalOf(`?filters[target_id]=${subject}`)).toBe(3);
    expect(await totalOf(`?filters[user_id]=${subject}&${february2020}`)).toBe(1);
  });

  it('leaves events about something else than a user (a role with the same id) out of a user’s history', async () => {
    const subject = (await given(t.db).user({ name: 'Role Namesake' })).id;
    await recordChange(t.db, null, { actorId: null, action: 'role.create', targetType: 'role', targetIds: [subject] });
    expect(await rowsOf(`?filters[user_id]=${subject}`)).toEqual([]);
    expect(await rowsOf(`?filters[target_id]=${subject}`)).toEqual([]);
    // The event itself is in the log, with its target.
    const [role] = await rowsOf('?filters[action]=role.create');
    expect(role?.target_ids).toEqual([subject]);
  });
});

import { WEBHOOK_EVENTS } from '@app/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordChange } from '../../src/journal/journal.js';
import { runCli } from '../../src/cli/run-cli.js';
import { writeTransaction } from '../../src/db/transaction.js';
import { given } from '../support/given.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { editedBody, usersApi } from '../support/users-api.js';
import { clearOutbox, deliveriesOf, outboxEvents, seedUsers, subscribe } from '../support/webhooks.js';

let t: TestApp;
let api: ReturnType<typeof usersApi>;
let me: number;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  me = (await g.user({ roles: ['admin'], name: 'Outbox Admin' })).id;
  api = usersApi(t.app, await g.token(me));
});
afterAll(() => t.close());
beforeEach(() => clearOutbox(t.db));

const everything = [...WEBHOOK_EVENTS];
const created = async (changes: Record<string, unknown> = {}) => {
  const res = await api.create({
    name: 'Ada Lovelace',
    email: `ada-${Math.random().toString(36).slice(2)}@example.com`,
    password: 'long-enough-pw',
    password_confirmation: 'long-enough-pw',
    ...changes,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item as { id: number; email: string };
};

describe('the outbox writes events with the change', () => {
  it('writes nothing while no active endpoint subscribes to the event', async () => {
    await subscribe(t.db, ['user.deleted']);
    await subscribe(t.db, everything, undefined, { active: false });
    await created();
    expect(await outboxEvents(t.db)).toEqual([]);
  });

  it('user.created: a Standard Webhooks body with the user as created, one pending delivery per subscriber', async () => {
    const a = await subscribe(t.db, ['user.created']);
    const b = await subscribe(t.db, everything);
    const c = await subscribe(t.db, ['user.deleted']);
    const before = Date.now();
    const user = await created();
    const [event, ...more] = await outboxEvents(t.db);
    expect(more).toEqual([]);
    expect(event?.id).toMatch(/^msg_[0-9A-Z]{26}$/);
    expect(event?.payload).toEqual({
      type: 'user.created',
      timestamp: expect.any(String),
      data: {
        user: {
          id: user.id,
          name: 'Ada Lovelace',
          email: user.email,
          is_active: true,
          created_at: expect.any(String),
          updated_at: expect.any(String),
          deleted_at: null,
        },
        // What the creation gave, as user.updated says what an edit changed (direct grants when any).
        changes: {
          name: { from: null, to: 'Ada Lovelace' },
          email: { from: null, to: user.email },
          is_active: { from: null, to: true },
          roles: { from: null, to: [] },
        },
      },
    });
    expect(Date.parse(event?.payload.timestamp as string)).toBeGreaterThanOrEqual(before - 5);
    for (const hook of [a, b]) {
      const [delivery] = await deliveriesOf(t.db, hook.id);
      expect(delivery).toMatchObject({
        event_id: event?.id,
        event_type: 'user.created',
        status: 'pending',
        attempts: 0,
      });
      expect(delivery?.next_attempt_at?.getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect(await deliveriesOf(t.db, c.id)).toEqual([]);
  });

  it('user.updated carries each changed field before and after, never the password', async () => {
    await subscribe(t.db, everything);
    const user = await created();
    await clearOutbox(t.db);
    await subscribe(t.db, everything);
    const res = await api.update(
      user.id,
      await editedBody(api, user.id, {
        name: 'Ada King',
        password: 'brand-new-password',
        password_confirmation: 'brand-new-password',
        is_active: false,
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const events = await outboxEvents(t.db);
    expect(events.map((e) => e.type)).toEqual(['user.updated', 'user.deactivated']);
    expect(events[0]?.payload.data).toEqual({
      user: expect.objectContaining({ id: user.id, name: 'Ada King', is_active: false }),
      changes: { name: { from: 'Ada Lovelace', to: 'Ada King' }, is_active: { from: true, to: false } },
    });
    expect(events[1]?.payload.data).toEqual({ user: expect.objectContaining({ id: user.id, is_active: false }) });
    const text = JSON.stringify(events);
    expect(text).not.toContain('brand-new-password');
    expect(text).not.toMatch(/password|scrypt/);
  });

  it('activation, deletion and restoring show the user as the change leaves it', async () => {
    await subscribe(t.db, everything);
    const user = await created();
    expect((await api.setActive(user.id, false)).statusCode).toBe(200);
    expect((await api.remove(user.id)).statusCode).toBe(204);
    expect((await api.restore(user.id)).statusCode).toBe(200);
    expect((await api.setActive(user.id, true)).statusCode).toBe(200);
    const events = (await outboxEvents(t.db)).slice(1);
    expect(events.map((e) => e.type)).toEqual(['user.deactivated', 'user.deleted', 'user.restored', 'user.activated']);
    const users = events.map((e) => e.payload.data.user as { is_active: boolean; deleted_at: string | null });
    expect(users.map((u) => [u.is_active, u.deleted_at === null])).toEqual([
      [false, true],
      [false, false],
      [false, true],
      [true, true],
    ]);
  });

  it('user.force_deleted names only the id: nothing of the erased account remains', async () => {
    await subscribe(t.db, ['user.force_deleted']);
    const user = await created({ is_active: false });
    await api.remove(user.id);
    expect((await api.forceDelete(user.id)).statusCode).toBe(204);
    const [event] = await outboxEvents(t.db);
    expect(event?.payload).toEqual({
      type: 'user.force_deleted',
      timestamp: expect.any(String),
      data: { user: { id: user.id } },
    });
  });

  it('a bulk writes one event per affected user and a bulk.completed summary', async () => {
    await subscribe(t.db, everything);
    const ids = await seedUsers(t.db, 3, 'bulk-outbox');
    const res = await api.bulk({ operation: 'setActive', active: false, ids: [...ids, 999_999, me] });
    expect(res.statusCode).toBe(200);
    const events = await outboxEvents(t.db);
    expect(events.map((e) => e.type)).toEqual([...ids.map(() => 'user.deactivated'), 'bulk.completed']);
    expect(events.slice(0, 3).map((e) => (e.payload.data.user as { id: number; is_active: boolean }).id)).toEqual(ids);
    expect(events.slice(0, 3).every((e) => (e.payload.data.user as { is_active: boolean }).is_active === false)).toBe(
      true,
    );
    expect(events[3]?.payload.data).toEqual({
      operation: 'setActive',
      requested: 5,
      affected: 3,
      affected_ids: ids,
      skipped: [
        { id: 999_999, code: 'NOT_FOUND' },
        { id: me, code: 'SELF_DEACTIVATION' },
      ],
    });
  });

  it('a bulk sends no status event for users it left as they were', async () => {
    const ids = await seedUsers(t.db, 4, 'bulk-mixed');
    const [a, b] = ids as [number, number, number, number];
    expect((await api.bulk({ operation: 'setActive', active: false, ids: [a, b] })).statusCode).toBe(200);
    await subscribe(t.db, everything);
    const res = await api.bulk({ operation: 'setActive', active: true, ids });
    expect(res.json().affected).toEqual(ids);
    const events = await outboxEvents(t.db);
    expect(events.map((e) => e.type)).toEqual(['user.activated', 'user.activated', 'bulk.completed']);
    expect(events.slice(0, 2).map((e) => (e.payload.data.user as { id: number }).id)).toEqual([a, b]);
    expect(events[2]?.payload.data).toMatchObject({ affected: 4, affected_ids: ids });
  });

  it('a bulk with only bulk.completed subscribed writes the summary alone', async () => {
    const hook = await subscribe(t.db, ['bulk.completed']);
    const ids = await seedUsers(t.db, 2, 'bulk-summary');
    expect((await api.bulk({ operation: 'setActive', active: false, ids })).json().affected).toEqual(ids);
    expect((await outboxEvents(t.db)).map((e) => e.type)).toEqual(['bulk.completed']);
    expect(await deliveriesOf(t.db, hook.id)).toHaveLength(1);
  });

  it('changes made on the command line write their events too', async () => {
    await subscribe(t.db, ['user.created']);
    const out: string[] = [];
    const code = await runCli(
      ['user:create', '--email', 'cli-hook@example.com', '--name', 'From The CLI', '--password', 'long-enough-pw'],
      { ...t.target.env, LOG_LEVEL: 'silent' },
      { out: (l) => out.push(l), err: (l) => out.push(l) },
    );
    expect(code, out.join('\n')).toBe(0);
    const [event] = await outboxEvents(t.db);
    expect(event?.payload.data.user).toMatchObject({ email: 'cli-hook@example.com', name: 'From The CLI' });
  });

  it('a 10 000-user bulk with a webhook subscribed writes its 10 001 events well within 3 s', async () => {
    const hook = await subscribe(t.db, everything);
    const ids = await seedUsers(t.db, 10_000, 'bulk-10k');
    const started = performance.now();
    const res = await api.bulk({ operation: 'setActive', active: false, ids });
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(200);
    expect(res.json().affected).toHaveLength(10_000);
    expect(await t.db.models.WebhookEvent.count()).toBe(10_001);
    expect(await t.db.models.WebhookDelivery.count({ where: { webhook_id: hook.id } })).toBe(10_001);
    process.stdout.write(
      `webhooks: 10 000-id bulk with a webhook subscribed took ${ms.toFixed(0)} ms on ${t.db.dialect}\n`,
    );
    expect(ms).toBeLessThan(3_000);
  }, 60_000);
});

describe('no event without its change, no change without its event', () => {
  it('a change refused by a rule leaves no event', async () => {
    await subscribe(t.db, everything);
    expect((await api.setActive(me, false)).json().code).toBe('SELF_DEACTIVATION');
    expect((await api.remove(me)).statusCode).toBe(422);
    const res = await api.bulk({ operation: 'delete', ids: [me] });
    expect(res.json().affected).toEqual([]);
    expect(await outboxEvents(t.db)).toEqual([]);
  });

  it('an error inside the transaction after the change and its audit rolls the event back too', async () => {
    await subscribe(t.db, everything);
    const [id] = await seedUsers(t.db, 1, 'rollback');
    const failed = writeTransaction(t.db, async (tx) => {
      await t.db.models.User.update({ name: 'Never Saved' }, { where: { id }, transaction: tx });
      await recordChange(t.db, tx, {
        actorId: me,
        action: 'user.update',
        targetType: 'user',
        targetIds: [id as number],
        changes: { name: { before: 'rollback 0', after: 'Never Saved' } },
      });
      throw new Error('forced failure before commit');
    });
    await expect(failed).rejects.toThrow('forced failure');
    expect(await outboxEvents(t.db)).toEqual([]);
    expect((await t.db.models.User.findByPk(id))?.name).toBe('rollback 0');
  });

  it('when the event cannot be written, the change is not made either', async () => {
    await subscribe(t.db, everything);
    await t.db.sequelize.query('ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_away');
    try {
      const res = await api.create({
        name: 'Not Created',
        email: 'not-created@example.com',
        password: 'long-enough-pw',
        password_confirmation: 'long-enough-pw',
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.sequelize.query('ALTER TABLE webhook_deliveries_away RENAME TO webhook_deliveries');
    }
    expect(await t.db.models.User.count({ where: { email: 'not-created@example.com' }, paranoid: false })).toBe(0);
    expect(await outboxEvents(t.db)).toEqual([]);
  });

  it('every committed change among concurrent ones has exactly its event', async () => {
    await subscribe(t.db, ['user.deactivated']);
    // SQLite takes one writer at a time: past a few concurrent writers its busy waits dominate.
    const ids = await seedUsers(t.db, t.db.dialect === 'mysql' ? 16 : 4, 'concurrent');
    const results = await Promise.all(ids.map((id) => api.setActive(id, false)));
    expect(results.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    const events = await outboxEvents(t.db);
    expect(events.map((e) => (e.payload.data.user as { id: number }).id).sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(events.map((e) => e.id)).size).toBe(ids.length);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { type ApiProcess, startApiProcess } from '../support/api-process.js';
import { given } from '../support/given.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.js';
import { clearOutbox, deliveriesOf, subscribe } from '../support/webhooks.js';

/**
 * An event is never lost between the commit of its change and its delivery: the API process is
 * killed (SIGKILL, no shutdown) after the commit, and another process delivers it.
 */

let target: TestDatabaseTarget;
let db: Database;
let token: string;
let receiver: TestReceiver;
const children: ApiProcess[] = [];

/** The compiled API against the test's database, delivering to the loopback receiver. */
async function startApi(env: Record<string, string>) {
  const api = await startApiProcess(target, { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_TIMEOUT_SECONDS: '1', ...env });
  children.push(api);
  return api;
}

async function createUser(base: string, email: string) {
  const res = await fetch(`${base}/api/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Survivor',
      email,
      password: 'long-enough-pw',
      password_confirmation: 'long-enough-pw',
    }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { item: { id: number } }).item;
}

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  await seedPermissionsAndRoles(db);
  const g = given(db);
  token = await g.token((await g.user({ roles: ['admin'] })).id);
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const api of children) await api.kill();
  await receiver.close();
  await db.close();
  await target.drop();
});

describe('an API process killed after a change commits', () => {
  it('leaves the event in the outbox for the next process to deliver', async () => {
    await clearOutbox(db);
    const hook = await subscribe(db, ['user.created'], receiver.url);
    receiver.setSecret(hook.secret);
    const first = await startApi({ WEBHOOKS_DISPATCHER: 'false' });
    const user = await createUser(first.base, 'crash-one@example.com');
    await first.kill();
    const [pending] = await deliveriesOf(db, hook.id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 0 });
    expect(receiver.received).toHaveLength(0);

    const second = await startApi({ WEBHOOKS_DISPATCHER: 'true' });
    const [got] = await receiver.waitFor(1, 20_000);
    expect(got?.verifyError).toBeNull();
    expect(got).toMatchObject({
      id: pending?.event_id,
      event: { type: 'user.created', data: { user: { id: user.id } } },
    });
    await second.kill();
  }, 120_000);

  it('sends again a delivery that was in flight when its dispatcher died, once its lease ends', async () => {
    await clearOutbox(db);
    receiver.received.length = 0;
    const hook = await subscribe(db, ['user.created'], receiver.url);
    receiver.setSecret(hook.secret);
    // The first attempt never gets an answer: the process dies while it waits.
    receiver.answer = () => (receiver.received.length === 1 ? { hang: true } : { status: 204 });
    const first = await startApi({ WEBHOOKS_DISPATCHER: 'true' });
    await createUser(first.base, 'crash-two@example.com');
    const [inFlight] = await receiver.waitFor(1, 20_000);
    await first.kill();
    const [claimed] = await deliveriesOf(db, hook.id);
    expect(claimed).toMatchObject({ status: 'sending', attempts: 1 });

    const second = await startApi({ WEBHOOKS_DISPATCHER: 'true' });
    const got = await receiver.waitFor(2, 30_000);
    expect(got.map((r) => r.id)).toEqual([inFlight?.id, inFlight?.id]);
    expect(got[1]?.verifyError).toBeNull();
    const [delivered] = await deliveriesOf(db, hook.id);
    const end = Date.now() + 10_000;
    while ((await delivered?.reload())?.status !== 'succeeded' && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(delivered).toMatchObject({ status: 'succeeded', attempts: 2 });
    await second.kill();
  }, 120_000);
});

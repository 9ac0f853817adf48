import type { DeliveryStatus } from '@app/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { startDispatcher } from '../../src/webhooks/dispatcher.js';
import { eventIdFloor } from '../../src/journal/event-id.js';
import { pruneWebhookHistory } from '../../src/webhooks/retention.js';
import { silentLog } from '../support/webhook-bed.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { clearOutbox, subscribe, testSettings } from '../support/webhooks.js';

const DAY = 86_400_000;
let t: TestApp;
let hook: number;
let other: number;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await clearOutbox(t.db);
  hook = (await subscribe(t.db, ['user.created'])).id;
  other = (await subscribe(t.db, ['user.created'])).id;
});

let serial = 0;
/** An event made `daysAgo` days ago (its ULID id carries that time), with a delivery per given status. */
async function eventWith(
  daysAgo: number,
  statuses: Array<{ webhook: number; status: DeliveryStatus; attempts?: number }>,
) {
  const at = new Date(Date.now() - daysAgo * DAY);
  serial += 1;
  const id = `${eventIdFloor(at.getTime()).slice(0, -6)}${String(serial).padStart(6, '0')}`;
  await t.db.models.WebhookEvent.create({ id, type: 'user.created', payload: '{}', created_at: at });
  for (const { webhook, status, attempts = 0 } of statuses) {
    const delivery = await t.db.models.WebhookDelivery.create({
      webhook_id: webhook,
      event_id: id,
      event_type: 'user.created',
      status,
      attempts,
      next_attempt_at: status === 'pending' ? at : null,
      created_at: at,
    });
    for (let n = 1; n <= attempts; n++) {
      await t.db.models.WebhookAttempt.create({
        delivery_id: delivery.id,
        attempt: n,
        at,
        status_code: 500,
        latency_ms: 5,
        response_excerpt: null,
        error: null,
      });
    }
  }
  return id;
}

const left = async () => ({
  events: (await t.db.models.WebhookEvent.findAll({ order: [['id', 'ASC']] })).map((e) => e.id),
  deliveries: await t.db.models.WebhookDelivery.count(),
  attempts: await t.db.models.WebhookAttempt.count(),
});

describe('webhook history retention', () => {
  it('deletes events, deliveries and attempts made before the cutoff, whatever their status, and keeps the rest', async () => {
    await eventWith(40, [{ webhook: hook, status: 'succeeded', attempts: 2 }]);
    await eventWith(35, [{ webhook: hook, status: 'failed', attempts: 8 }]);
    // Shared by two endpoints: one delivered it, the other never will (its queue waited 31 days).
    await eventWith(31, [
      { webhook: hook, status: 'succeeded', attempts: 1 },
      { webhook: other, status: 'pending' },
    ]);
    const recent = await eventWith(29, [{ webhook: hook, status: 'failed', attempts: 3 }]);
    const today = await eventWith(0, [{ webhook: hook, status: 'pending' }]);

    const done = await pruneWebhookHistory(t.db, new Date(Date.now() - 30 * DAY));
    expect(done).toEqual({ events: 3, deliveries: 4, attempts: 11 });
    expect(await left()).toEqual({ events: [recent, today], deliveries: 2, attempts: 3 });
    // A second pass finds nothing more.
    expect(await pruneWebhookHistory(t.db, new Date(Date.now() - 30 * DAY))).toEqual({
      events: 0,
      deliveries: 0,
      attempts: 0,
    });
  });

  it('leaves a delivery being sent, and its event, for a later pass', async () => {
    const sending = await eventWith(60, [
      { webhook: hook, status: 'sending', attempts: 1 },
      { webhook: other, status: 'succeeded', attempts: 1 },
    ]);
    expect(await pruneWebhookHistory(t.db, new Date(Date.now() - 30 * DAY))).toEqual({
      events: 0,
      deliveries: 1,
      attempts: 1,
    });
    expect(await left()).toEqual({ events: [sending], deliveries: 1, attempts: 1 });
    await t.db.models.WebhookDelivery.update({ status: 'succeeded' }, { where: { event_id: sending } });
    expect((await pruneWebhookHistory(t.db, new Date(Date.now() - 30 * DAY))).events).toBe(1);
    expect(await left()).toEqual({ events: [], deliveries: 0, attempts: 0 });
  });

  it('walks any number of old events in batches', async () => {
    for (let i = 0; i < 45; i++) await eventWith(90 - i, [{ webhook: hook, status: 'succeeded' }]);
    const kept = await eventWith(1, [{ webhook: hook, status: 'succeeded' }]);
    expect(await pruneWebhookHistory(t.db, new Date(Date.now() - 30 * DAY), 10)).toEqual({
      events: 45,
      deliveries: 45,
      attempts: 0,
    });
    expect((await left()).events).toEqual([kept]);
  });

  it('each dispatcher prunes on its own schedule', async () => {
    await eventWith(40, [{ webhook: hook, status: 'succeeded', attempts: 1 }]);
    const kept = await eventWith(1, [{ webhook: hook, status: 'succeeded', attempts: 1 }]);
    const dispatcher = startDispatcher({
      db: t.db,
      settings: testSettings(t.config, { retentionMs: 30 * DAY, pruneEveryMs: 50 }),
      log: silentLog,
    });
    try {
      await expect.poll(async () => (await left()).events, { timeout: 5_000 }).toEqual([kept]);
    } finally {
      await dispatcher.stop();
    }
  });

  it('webhooks:prune applies the retention now, --days overriding WEBHOOKS_RETENTION_DAYS', async () => {
    await eventWith(20, [{ webhook: hook, status: 'succeeded', attempts: 1 }]);
    const kept = await eventWith(5, [{ webhook: hook, status: 'succeeded' }]);
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const env = { ...t.target.env, LOG_LEVEL: 'silent' };
    expect(await runCli(['webhooks:prune'], env, io)).toBe(0);
    expect(out.pop()).toMatch(
      /^Deleted 0 webhook event\(s\), 0 delivery\(ies\) and 0 attempt\(s\) from before .* \(kept 30 day\(s\)\)\.$/,
    );
    expect(await runCli(['webhooks:prune', '--days', '10'], env, io)).toBe(0);
    expect(out.pop()).toMatch(
      /^Deleted 1 webhook event\(s\), 1 delivery\(ies\) and 1 attempt\(s\) from before .* \(kept 10 day\(s\)\)\.$/,
    );
    expect((await left()).events).toEqual([kept]);
    expect(await runCli(['webhooks:prune', '--days', '0'], env, io)).toBe(1);
    expect(out.pop()).toMatch(/days.*at least 1/);
  });
});

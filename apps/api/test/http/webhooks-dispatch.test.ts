import { describe, expect, it } from 'vitest';
import { deliveriesOf } from '../support/webhooks.js';
import { until, webhookBed } from '../support/webhook-bed.js';

const bed = webhookBed();

describe('delivery', () => {
  it('sends each committed change at once, signed so the reference library verifies it', async () => {
    const hook = await bed.endpoint();
    bed.dispatch();
    const user = await bed.createUser();
    const [got] = await bed.receiver.waitFor(1);
    expect(got?.verifyError).toBeNull();
    expect(got?.event).toMatchObject({ type: 'user.created', data: { user: { id: user.id } } });
    const [delivery] = await deliveriesOf(bed.t.db, hook.id);
    await until('the outcome', async () => (await delivery?.reload())?.status === 'succeeded');
    expect(delivery).toMatchObject({ event_id: got?.id, attempts: 1, last_status_code: 204, last_error: null });

    const list = await bed.admin.get(`/api/webhooks/${hook.id}/deliveries?filters[status]=succeeded`);
    expect(list.statusCode).toBe(200);
    // The delivery log answers like every list: `rows` and `meta` (it answered `items` before).
    expect(list.json()).not.toHaveProperty('items');
    expect(list.json()).toMatchObject({
      rows: [{ id: delivery?.id, event_id: got?.id, event_type: 'user.created', status: 'succeeded', attempts: 1 }],
      meta: { page: 1, perPage: 25, total: 1, totalExact: true, pageCount: 1 },
    });
    expect((await bed.admin.get(`/api/webhooks/${hook.id}/deliveries?filters[status]=failed`)).json().rows).toEqual([]);
    expect(
      (await bed.admin.get(`/api/webhooks/${hook.id}/deliveries?q=${got?.id.slice(-8)}`)).json().rows,
    ).toHaveLength(1);
    const detail = (await bed.admin.get(`/api/webhooks/${hook.id}/deliveries/${delivery?.id}`)).json().item;
    expect(detail.payload).toEqual(got?.event);
    expect(detail.attempts_log).toEqual([
      {
        attempt: 1,
        at: expect.any(String),
        status_code: 204,
        latency_ms: expect.any(Number),
        response_excerpt: null,
        error: null,
      },
    ]);
  });

  it('retries a failing endpoint on the backoff schedule, then marks the delivery failed', async () => {
    bed.receiver.answer = () => ({ status: 503, body: 'down for maintenance' });
    const hook = await bed.endpoint();
    bed.dispatch({ retryBaseMs: 250, maxAttempts: 4, circuitThreshold: 100 });
    await bed.createUser();
    const got = await bed.receiver.waitFor(4, 20_000);
    const gaps = got.slice(1).map((r, i) => r.at - (got[i] as { at: number }).at);
    gaps.forEach((gap, i) => {
      const nominal = 250 * 4 ** i;
      expect(gap, `gap after attempt ${i + 1}`).toBeGreaterThanOrEqual(nominal * 0.75 - 5);
      // Past the jitter: a poll and the recording, on a machine shared with other work.
      expect(gap, `gap after attempt ${i + 1}`).toBeLessThanOrEqual(nominal * 1.25 + 1_500);
    });
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    const [delivery] = await deliveriesOf(bed.t.db, hook.id);
    await until('the last outcome', async () => (await delivery?.reload())?.status === 'failed');
    expect(delivery).toMatchObject({
      attempts: 4,
      last_status_code: 503,
      last_error: 'HTTP 503 Service Unavailable',
      next_attempt_at: null,
    });
    const log = (await bed.admin.get(`/api/webhooks/${hook.id}/deliveries/${delivery?.id}`)).json().item.attempts_log;
    expect(log.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(log[0].response_excerpt).toBe('down for maintenance');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(bed.receiver.received).toHaveLength(4);
  });

  it('logs each bad endpoint as a failed attempt with a clear error and keeps going', async () => {
    bed.receiver.answer = (r) =>
      r.path === '/redirect'
        ? { status: 301, headers: { location: 'https://elsewhere.example.com/' } }
        : r.path === '/slow'
          ? { hang: true }
          : r.path === '/huge'
            ? { huge: 5 * 1024 * 1024, status: 500 }
            : { status: 204 };
    const hooks = {
      redirect: await bed.endpoint(['user.created'], '/redirect'),
      slow: await bed.endpoint(['user.created'], '/slow'),
      huge: await bed.endpoint(['user.created'], '/huge'),
      fine: await bed.endpoint(['user.created'], '/fine'),
    };
    bed.receiver.setSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    bed.dispatch({ maxAttempts: 1, timeoutMs: 300 });
    await bed.createUser();
    const last = async (id: number) => (await deliveriesOf(bed.t.db, id))[0];
    await until('four outcomes', async () => {
      const all = await Promise.all(Object.values(hooks).map((h) => last(h.id)));
      return all.every((d) => d?.status === 'failed' || d?.status === 'succeeded');
    });
    expect(await last(hooks.redirect.id)).toMatchObject({
      status: 'failed',
      last_status_code: 301,
      last_error: 'redirect not followed: 301 to https://elsewhere.example.com/',
    });
    expect(await last(hooks.slow.id)).toMatchObject({
      status: 'failed',
      last_status_code: null,
      last_error: 'timed out after 0.3 s',
    });
    expect(await last(hooks.huge.id)).toMatchObject({
      status: 'failed',
      last_status_code: 500,
      last_error: 'HTTP 500 Internal Server Error',
    });
    const huge = (
      await bed.admin.get(`/api/webhooks/${hooks.huge.id}/deliveries/${(await last(hooks.huge.id))?.id}`)
    ).json().item;
    expect(huge.attempts_log[0].response_excerpt).toHaveLength(1024);
    expect(await last(hooks.fine.id)).toMatchObject({ status: 'succeeded', last_status_code: 204 });
  });

  it('refuses at delivery time a name that resolves to a private address when they are not allowed', async () => {
    const hook = await bed.endpoint(['user.created']);
    await bed.t.db.models.Webhook.update(
      { url: `http://localhost:${bed.receiver.port}/hooks` },
      { where: { id: hook.id } },
    );
    bed.dispatch({ allowPrivate: false, maxAttempts: 1 });
    await bed.createUser();
    const [delivery] = await deliveriesOf(bed.t.db, hook.id);
    await until('the refusal', async () => (await delivery?.reload())?.status === 'failed');
    expect(delivery?.last_error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(bed.receiver.received).toHaveLength(0);
  });

  it('sends a delivery again on request, with the same webhook-id', async () => {
    bed.receiver.answer = () => ({ status: 500 });
    const hook = await bed.endpoint();
    bed.dispatch({ maxAttempts: 1 });
    await bed.createUser();
    const [delivery] = await deliveriesOf(bed.t.db, hook.id);
    await until('the failure', async () => (await delivery?.reload())?.status === 'failed');
    bed.receiver.answer = () => ({ status: 200, body: 'ok' });
    const res = await bed.admin.post(`/api/webhooks/${hook.id}/deliveries/${delivery?.id}/redeliver`);
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({ id: delivery?.id, status: 'pending', attempts: 1 });
    await until('the redelivery', async () => (await delivery?.reload())?.status === 'succeeded');
    expect(bed.receiver.received.map((r) => r.id)).toEqual([delivery?.event_id, delivery?.event_id]);
    expect(delivery?.attempts).toBe(2);
    const audit = await bed.t.db.models.AuditLog.findOne({
      where: { action: 'webhook.redeliver' },
      order: [['id', 'DESC']],
    });
    expect(audit).toMatchObject({
      target_ids: [hook.id],
      context: { delivery_id: delivery?.id, event_id: delivery?.event_id },
    });
  });

  it('never sends to a deleted endpoint, and holds an inactive one until it is on again', async () => {
    const gone = await bed.endpoint(['user.created'], '/gone');
    const paused = await bed.endpoint(['user.created'], '/paused');
    await bed.createUser();
    expect((await bed.admin.delete(`/api/webhooks/${gone.id}`)).statusCode).toBe(204);
    const body = { url: `${bed.receiver.url.replace('/hooks', '')}/paused`, events: ['user.created'] };
    await bed.admin.put(`/api/webhooks/${paused.id}`, { ...body, active: false });
    bed.dispatch();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bed.receiver.received).toHaveLength(0);
    await bed.admin.put(`/api/webhooks/${paused.id}`, { ...body, active: true });
    const [got] = await bed.receiver.waitFor(1);
    expect(got?.path).toBe('/paused');
  });

  it('keeps dispatching after the database fails for a while', async () => {
    const hook = await bed.endpoint();
    await bed.t.db.sequelize.query('ALTER TABLE webhook_events RENAME TO webhook_events_away');
    await bed.t.db.sequelize.query('ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_away');
    bed.dispatch();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await bed.t.db.sequelize.query('ALTER TABLE webhook_deliveries_away RENAME TO webhook_deliveries');
    await bed.t.db.sequelize.query('ALTER TABLE webhook_events_away RENAME TO webhook_events');
    await bed.createUser();
    await bed.receiver.waitFor(1, 10_000);
    expect((await deliveriesOf(bed.t.db, hook.id)).length).toBe(1);
  });
});

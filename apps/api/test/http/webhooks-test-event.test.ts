import { describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { outboxEvents } from '../support/webhooks.js';
import { webhookBed } from '../support/webhook-bed.js';

const bed = webhookBed();

describe('POST /webhooks/{id}/test', () => {
  it('queues a signed webhook.test event for that endpoint alone, whatever it subscribes to', async () => {
    // The receiver verifies with the secret of the endpoint made last.
    const other = await bed.endpoint(['user.deleted'], '/other');
    const hook = await bed.endpoint(['user.deleted']);
    const res = await bed.admin.post(`/api/webhooks/${hook.id}/test`, {});
    expect(res.statusCode).toBe(202);
    const { item } = res.json();
    expect(item).toMatchObject({
      webhook_id: hook.id,
      event_type: 'webhook.test',
      status: 'pending',
      attempts: 0,
      event_id: expect.stringMatching(/^msg_[0-9A-Z]{26}$/),
    });

    bed.dispatch();
    const [got] = await bed.receiver.waitFor(1);
    expect(got?.path).toBe('/hooks');
    expect(got?.id).toBe(item.event_id);
    expect(got?.verifyError).toBeNull();
    expect(got?.event).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: {
        webhook: { id: hook.id, url: expect.stringMatching(/\/hooks$/) },
        requested_by: { id: expect.any(Number), name: expect.any(String) },
        message: 'A test event: nothing changed. Answer with a 2xx status to mark it delivered.',
      },
    });
    // In the delivery log like any other, and filterable by its type; the other endpoint got nothing.
    const log = (await bed.admin.get(`/api/webhooks/${hook.id}/deliveries?filters[event_type]=webhook.test`)).json();
    expect(log.rows.map((d: { id: number }) => d.id)).toEqual([item.id]);
    expect((await bed.admin.get(`/api/webhooks/${other.id}/deliveries`)).json().rows).toEqual([]);
    expect((await outboxEvents(bed.t.db)).map((e) => e.type)).toEqual(['webhook.test']);

    const audit = await bed.t.db.models.AuditLog.findOne({ where: { action: 'webhook.test' } });
    expect(audit?.target_ids).toEqual([hook.id]);
    expect(audit?.context).toEqual({ delivery_id: item.id, event_id: item.event_id });
  });

  it('refuses an inactive endpoint with 422, a missing one with 404, and anyone without webhooks.manage', async () => {
    const hook = await bed.endpoint();
    await bed.admin.put(`/api/webhooks/${hook.id}`, { url: bed.receiver.url, events: ['user.created'], active: false });
    const refused = await bed.admin.post(`/api/webhooks/${hook.id}/test`, {});
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors['']).toEqual([
      'Turn the endpoint on before sending it a test event: an inactive endpoint gets no deliveries.',
    ]);
    expect((await bed.admin.post('/api/webhooks/999999/test', {})).statusCode).toBe(404);

    const g = given(bed.t.db);
    const manager = request(bed.t.app, { token: await g.token((await g.user({ roles: ['manager'] })).id) });
    expect((await manager.post(`/api/webhooks/${hook.id}/test`, {})).statusCode).toBe(403);
    expect((await request(bed.t.app).post(`/api/webhooks/${hook.id}/test`, {})).statusCode).toBe(401);
    expect(await bed.t.db.models.WebhookDelivery.count()).toBe(0);
  });
});

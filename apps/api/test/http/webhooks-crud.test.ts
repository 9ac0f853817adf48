import { WEBHOOK_EVENTS, WEBHOOKS_MAX } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let admin: ReturnType<typeof request>;
let adminId: number;
let viewer: ReturnType<typeof request>;

const body = (changes: Record<string, unknown> = {}) => ({
  url: 'https://hooks.example.com/users',
  description: 'CRM sync',
  events: ['user.created', 'user.updated'],
  ...changes,
});

beforeAll(async () => {
  // Without WEBHOOKS_ALLOW_PRIVATE: the URL rules as production applies them.
  t = await startTestApp();
  const g = given(t.db);
  adminId = (await g.user({ roles: ['admin'], name: 'Hook Admin' })).id;
  admin = request(t.app, { token: await g.token(adminId) });
  viewer = request(t.app, { token: await g.token((await g.user({ roles: ['viewer'] })).id) });
});
afterAll(() => t.close());

describe('webhook endpoints', () => {
  it('creates an endpoint and shows its signing secret once', async () => {
    const res = await admin.post('/api/webhooks', body());
    expect(res.statusCode).toBe(201);
    const { item, secret } = res.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(item).toMatchObject({
      url: 'https://hooks.example.com/users',
      description: 'CRM sync',
      events: ['user.created', 'user.updated'],
      active: true,
      disabled_reason: null,
      failing_since: null,
      circuit: { state: 'closed', open_until: null },
      created_by: { id: adminId, name: 'Hook Admin' },
    });
    const shown = await admin.get(`/api/webhooks/${item.id}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json().item).toEqual(item);
    expect(shown.body).not.toContain(secret);
    const listed = await admin.get('/api/webhooks');
    expect(listed.json().items.map((w: { id: number }) => w.id)).toContain(item.id);
    expect(listed.body).not.toContain(secret);
  });

  it('replaces an endpoint with PUT and records each change without the secret', async () => {
    const { item, secret } = (await admin.post('/api/webhooks', body())).json();
    const res = await admin.put(`/api/webhooks/${item.id}`, body({ events: ['user.deleted'], active: false }));
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({ events: ['user.deleted'], active: false });
    const rows = await t.db.models.AuditLog.findAll({ where: { target_type: 'webhook' } });
    const mine = rows.filter((r) => r.target_ids.includes(item.id));
    expect(mine.map((r) => r.action)).toEqual(['webhook.create', 'webhook.update']);
    expect(mine[1]?.changes).toEqual({
      events: { before: ['user.created', 'user.updated'], after: ['user.deleted'] },
      active: { before: true, after: false },
    });
    expect(JSON.stringify(rows.map((r) => r.toJSON()))).not.toContain(secret.slice(6));
  });

  it('rotates the secret: a new one, shown once, and the old one gone', async () => {
    const { item, secret } = (await admin.post('/api/webhooks', body())).json();
    const res = await admin.post(`/api/webhooks/${item.id}/rotate-secret`);
    expect(res.statusCode).toBe(200);
    const rotated = res.json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect((await t.db.models.Webhook.findByPk(item.id))?.secret).toBe(rotated.secret);
    const audit = await t.db.models.AuditLog.findOne({ where: { action: 'webhook.rotateSecret' } });
    expect(audit?.target_ids).toEqual([item.id]);
    expect(JSON.stringify(audit?.toJSON())).not.toContain(rotated.secret.slice(6));
  });

  it('deletes an endpoint with its deliveries and their attempts', async () => {
    const { item } = (await admin.post('/api/webhooks', body())).json();
    await t.db.models.WebhookEvent.create({
      id: 'msg_crud1',
      type: 'user.created',
      payload: '{}',
      created_at: new Date(),
    });
    const delivery = await t.db.models.WebhookDelivery.create({
      webhook_id: item.id,
      event_id: 'msg_crud1',
      event_type: 'user.created',
      status: 'pending',
      next_attempt_at: new Date(),
      created_at: new Date(),
    });
    await t.db.models.WebhookAttempt.create({
      delivery_id: delivery.id,
      attempt: 1,
      at: new Date(),
      status_code: 500,
      latency_ms: 3,
      response_excerpt: null,
      error: 'HTTP 500',
    });
    const res = await admin.delete(`/api/webhooks/${item.id}`);
    expect(res.statusCode).toBe(204);
    expect(await t.db.models.Webhook.findByPk(item.id)).toBeNull();
    expect(await t.db.models.WebhookDelivery.count({ where: { webhook_id: item.id } })).toBe(0);
    expect(await t.db.models.WebhookAttempt.count({ where: { delivery_id: delivery.id } })).toBe(0);
    expect((await admin.get(`/api/webhooks/${item.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/webhooks/${item.id}`)).statusCode).toBe(404);
  });
});

describe('who may manage webhooks', () => {
  it('answers 401 without credentials', async () => {
    for (const res of [
      await request(t.app).get('/api/webhooks'),
      await request(t.app).post('/api/webhooks', body()),
      await request(t.app).get('/api/webhooks/1/deliveries'),
    ]) {
      expect(res.statusCode).toBe(401);
    }
  });

  it('answers 403 naming webhooks.manage to a caller without it', async () => {
    const res = await viewer.get('/api/webhooks');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'webhooks.manage' });
    expect((await viewer.post('/api/webhooks', body())).statusCode).toBe(403);
    expect((await viewer.post('/api/webhooks/1/deliveries/1/redeliver')).statusCode).toBe(403);
  });
});

describe('bad input', () => {
  const refused = async (changes: Record<string, unknown>, field: string) => {
    const res = await admin.post('/api/webhooks', body(changes));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors[field]?.[0]).toEqual(expect.any(String));
    return res.json().errors[field][0] as string;
  };

  it('refuses URLs that are not absolute http(s) URLs', async () => {
    expect(await refused({ url: 'hooks.example.com' }, 'url')).toMatch(/absolute URL/);
    expect(await refused({ url: 'ftp://hooks.example.com/x' }, 'url')).toMatch(/https:\/\/ or http:\/\//);
    expect(await refused({ url: 'https://user:pw@hooks.example.com/' }, 'url')).toMatch(/user name and password/);
    expect(await refused({ url: '' }, 'url')).toMatch(/endpoint URL/);
  });

  it('refuses private, loopback and localhost addresses unless allowed', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hooks',
      'http://localhost/hooks',
      'http://api.localhost/hooks',
      'http://10.1.2.3/hooks',
      'http://192.168.0.10/hooks',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hooks',
      'http://[fd00::1]/hooks',
      'http://[::ffff:127.0.0.1]/hooks',
      'http://2130706433/hooks',
      'http://0.0.0.0/hooks',
    ]) {
      expect(await refused({ url }, 'url'), url).toMatch(/refused/);
    }
    const { item } = (await admin.post('/api/webhooks', body())).json();
    const res = await admin.put(`/api/webhooks/${item.id}`, body({ url: 'http://127.0.0.1/x' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.url[0]).toMatch(/loopback/);
  });

  it('accepts a private address when WEBHOOKS_ALLOW_PRIVATE is true', async () => {
    const own = await startTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
    const g = given(own.db);
    const r = request(own.app, { token: await g.token((await g.user({ roles: ['admin'] })).id) });
    expect((await r.post('/api/webhooks', body({ url: 'http://127.0.0.1:9/hooks' }))).statusCode).toBe(201);
    await own.close();
  });

  it('refuses unknown events, no events and repeated events', async () => {
    expect(await refused({ events: ['user.exploded'] }, 'events.0')).toMatch(/Unknown event/);
    expect(await refused({ events: [] }, 'events')).toMatch(/at least one event/);
    expect(await refused({ events: ['user.created', 'user.created'] }, 'events')).toMatch(/once/);
  });

  it(`refuses more than ${WEBHOOKS_MAX} endpoints`, async () => {
    const own = await startTestApp();
    const g = given(own.db);
    const r = request(own.app, { token: await g.token((await g.user({ roles: ['admin'] })).id) });
    for (let i = 0; i < WEBHOOKS_MAX; i++) {
      await own.db.models.Webhook.create({
        url: `https://h${i}.example.com/`,
        description: '',
        events: [...WEBHOOK_EVENTS],
        secret: 'whsec_x',
        created_by: null,
      });
    }
    const res = await r.post('/api/webhooks', body());
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(`at most ${WEBHOOKS_MAX}`);
    await own.close();
  });

  it('answers 404 for an endpoint or a delivery that does not exist', async () => {
    expect((await admin.get('/api/webhooks/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/webhooks/999999/deliveries')).statusCode).toBe(404);
    const { item } = (await admin.post('/api/webhooks', body())).json();
    expect((await admin.get(`/api/webhooks/${item.id}/deliveries/999999`)).statusCode).toBe(404);
    expect((await admin.post(`/api/webhooks/${item.id}/deliveries/999999/redeliver`)).statusCode).toBe(404);
  });
});

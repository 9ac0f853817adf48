import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { deliveriesOf, outboxEvents, subscribe } from '../support/webhooks.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Custom attribute values in webhook events (issue 38): a sensitive value never leaves the
 * product; a personal one reaches only the endpoints that opted in (`include_personal`), and
 * each endpoint gets the body meant for it.
 */

let t: TestApp;
let admin: ReturnType<typeof request>;
let plain: number;
let personal: number;

beforeAll(async () => {
  t = await startTestApp();
  const a = await given(t.db).user({ roles: ['admin'] });
  admin = request(t.app, { token: await given(t.db).token(a.id) });
  for (const [key, sensitivity] of [
    ['department', 'none'],
    ['phone', 'personal'],
    ['salary', 'sensitive'],
  ] as const) {
    const type = key === 'salary' ? 'number' : 'string';
    const res = await admin.post('/api/attributes', { key, label: key, type, sensitivity });
    expect(res.statusCode).toBe(201);
  }
  plain = (await subscribe(t.db, ['user.created', 'user.updated'])).id;
  personal = (await subscribe(t.db, ['user.created', 'user.updated'], undefined, { includePersonal: true })).id;
});
afterAll(() => t.close());

/** The `changes` of each event about `userId` of `type`, by the endpoint it is delivered to. */
async function changesByEndpoint(userId: number, type: string) {
  const events = (await outboxEvents(t.db)).filter(
    (e) => e.type === type && (e.payload.data.user as { id: number }).id === userId,
  );
  const out = new Map<number, Record<string, unknown>>();
  for (const endpoint of [plain, personal]) {
    const ids = new Set((await deliveriesOf(t.db, endpoint)).map((d) => d.event_id));
    const mine = events.filter((e) => ids.has(e.id));
    expect(mine).toHaveLength(1);
    out.set(endpoint, mine[0]?.payload.data.changes as Record<string, unknown>);
  }
  return out;
}

describe('attribute values in webhook events', () => {
  it('sends a personal value only to the endpoint that opted in, and a sensitive one to nobody', async () => {
    const res = await admin.post('/api/users', {
      name: 'Hooked Person',
      email: 'hooked@example.com',
      password: 'Correct-Horse-9',
      password_confirmation: 'Correct-Horse-9',
      attributes: { department: 'Sales', phone: '+33 1 23 45 67 89', salary: 81_234 },
    });
    expect(res.statusCode).toBe(201);
    const changes = await changesByEndpoint(res.json().item.id, 'user.created');
    expect(changes.get(plain)).toMatchObject({ 'attributes.department': { from: null, to: 'Sales' } });
    expect(changes.get(plain)).not.toHaveProperty('attributes.phone');
    expect(changes.get(personal)).toMatchObject({
      'attributes.department': { from: null, to: 'Sales' },
      'attributes.phone': { from: null, to: '+33 1 23 45 67 89' },
    });
    const bodies = (await outboxEvents(t.db)).map((e) => JSON.stringify(e.payload)).join('\n');
    expect(bodies).not.toContain('81234');
    expect(bodies).not.toContain('attributes.salary');
  });

  it('sends one body to all when a change holds no personal value', async () => {
    const res = await admin.post('/api/users', {
      name: 'Plain Person',
      email: 'plain@example.com',
      password: 'Correct-Horse-9',
      password_confirmation: 'Correct-Horse-9',
      attributes: { department: 'Support' },
    });
    const id = res.json().item.id;
    const events = (await outboxEvents(t.db)).filter(
      (e) => e.type === 'user.created' && (e.payload.data.user as { id: number }).id === id,
    );
    expect(events).toHaveLength(1);
  });

  it('lets an administrator opt an endpoint in through the API, audited', async () => {
    const res = await admin.post('/api/webhooks', {
      url: 'https://hooks.example.com/hr',
      events: ['user.updated'],
      include_personal: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().item.include_personal).toBe(true);
    const shown = await admin.get(`/api/webhooks/${res.json().item.id}`);
    expect(shown.json().item.include_personal).toBe(true);
  });
});

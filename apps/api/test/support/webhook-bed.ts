import type { WebhookEventType } from '@app/contracts';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { type Dispatcher, startDispatcher } from '../../src/webhooks/dispatcher.js';
import type { WebhooksSettings } from '../../src/webhooks/settings.js';
import { given } from './given.js';
import { request } from './http.js';
import { startTestApp, type TestApp } from './test-app.js';
import { usersApi } from './users-api.js';
import { startReceiver, type TestReceiver } from './webhook-receiver.js';
import { clearOutbox, testSettings } from './webhooks.js';

export const silentLog = pino({ level: 'silent' });

/**
 * A test file's webhook bed: an app allowing private addresses, an administrator's API, a real
 * receiver on 127.0.0.1, and dispatchers started by the tests (all stopped after each test).
 * Each test starts from an empty outbox and a receiver answering 204.
 */
export function webhookBed() {
  const running: Dispatcher[] = [];
  const bed = {
    t: undefined as unknown as TestApp,
    admin: undefined as unknown as ReturnType<typeof request>,
    users: undefined as unknown as ReturnType<typeof usersApi>,
    receiver: undefined as unknown as TestReceiver,

    /** A dispatcher over `db` (another pool, for a second instance), polling fast. */
    dispatch(overrides: Partial<WebhooksSettings> = {}, db?: Database, log = silentLog) {
      const dispatcher = startDispatcher({ db: db ?? bed.t.db, settings: testSettings(bed.t.config, overrides), log });
      running.push(dispatcher);
      return dispatcher;
    },

    stopAll: () => Promise.all(running.splice(0).map((d) => d.stop())),

    /** An endpoint made through the API, its secret handed to the receiver (which verifies with it). */
    async endpoint(events: WebhookEventType[] = ['user.created'], path = '/hooks') {
      const url = `${bed.receiver.url.replace('/hooks', '')}${path}`;
      const res = await bed.admin.post('/api/webhooks', { url, events });
      expect(res.statusCode, res.body).toBe(201);
      const { item, secret } = res.json();
      bed.receiver.setSecret(secret);
      return item as { id: number };
    },

    async createUser() {
      const res = await bed.users.create({
        name: 'Dispatched',
        email: `dispatched-${Math.random().toString(36).slice(2)}@example.com`,
        password: 'long-enough-pw',
        password_confirmation: 'long-enough-pw',
      });
      expect(res.statusCode).toBe(201);
      return res.json().item as { id: number };
    },

    webhookRow: async (id: number) => (await bed.t.db.models.Webhook.findByPk(id))?.get({ plain: true }),
  };

  beforeAll(async () => {
    bed.t = await startTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
    const g = given(bed.t.db);
    const token = await g.token((await g.user({ roles: ['admin'] })).id);
    bed.admin = request(bed.t.app, { token });
    bed.users = usersApi(bed.t.app, token);
    bed.receiver = await startReceiver();
  });
  afterAll(async () => {
    await bed.receiver.close();
    await bed.t.close();
  });
  beforeEach(async () => {
    await clearOutbox(bed.t.db);
    bed.receiver.received.length = 0;
    bed.receiver.answer = () => ({ status: 204 });
  });
  afterEach(() => bed.stopAll());
  return bed;
}

/** Polls `check` until it holds. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { startDispatcher } from '../../src/webhooks/dispatcher.js';
import { keyId, sealSecret, secretKeys } from '../../src/webhooks/secret-box.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { silentLog, until } from '../support/webhook-bed.js';
import { startReceiver, type TestReceiver } from '../support/webhook-receiver.js';
import { clearOutbox, deliveriesOf, subscribe, testSettings } from '../support/webhooks.js';

const KEY = randomBytes(32);
const OLD_KEY = randomBytes(32);
let t: TestApp;
let admin: ReturnType<typeof request>;
let receiver: TestReceiver;

beforeAll(async () => {
  t = await startTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true', SECRETS_KEY: KEY.toString('base64') });
  const g = given(t.db);
  admin = request(t.app, { token: await g.token((await g.user({ roles: ['admin'] })).id) });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(async () => {
  await clearOutbox(t.db);
  receiver.received.length = 0;
});

const stored = async (id: number) => (await t.db.models.Webhook.findByPk(id))?.secret as string;
const createUser = () =>
  admin.post('/api/users', {
    name: 'Sealed Secret',
    email: `sealed-${Math.random().toString(36).slice(2)}@example.com`,
    password: 'long-enough-pw',
    password_confirmation: 'long-enough-pw',
  });

describe('with SECRETS_KEY, signing secrets are sealed at rest', () => {
  it('stores the secret sealed, and deliveries are signed with the secret the caller was shown', async () => {
    const res = await admin.post('/api/webhooks', { url: receiver.url, events: ['user.created'] });
    expect(res.statusCode).toBe(201);
    const { item, secret } = res.json() as { item: { id: number }; secret: string };
    const atRest = await stored(item.id);
    expect(atRest.startsWith(`v1.${keyId(KEY)}.`)).toBe(true);
    expect(atRest).not.toContain(secret.slice('whsec_'.length));
    receiver.setSecret(secret);
    const dispatcher = startDispatcher({ db: t.db, settings: testSettings(t.config), log: silentLog });
    try {
      expect((await createUser()).statusCode).toBe(201);
      const [got] = await receiver.waitFor(1);
      expect(got?.verifyError).toBeNull();

      // Rotation seals the new secret too, and the next delivery verifies with it alone.
      const rotated = (await admin.post(`/api/webhooks/${item.id}/rotate-secret`, {})).json().secret as string;
      expect((await stored(item.id)).startsWith(`v1.${keyId(KEY)}.`)).toBe(true);
      receiver.setSecret(rotated);
      expect((await createUser()).statusCode).toBe(201);
      const [, second] = await receiver.waitFor(2);
      expect(second?.verifyError).toBeNull();
    } finally {
      await dispatcher.stop();
    }
  });

  it('a dispatcher without the key logs a failed attempt naming the key, and goes on', async () => {
    const hook = await subscribe(t.db, ['user.created'], receiver.url);
    await t.db.models.Webhook.update({ secret: sealSecret(hook.secret, secretKeys(KEY)) }, { where: { id: hook.id } });
    const dispatcher = startDispatcher({
      db: t.db,
      settings: testSettings(t.config, { secretKeys: secretKeys(undefined), maxAttempts: 1 }),
      log: silentLog,
    });
    try {
      expect((await createUser()).statusCode).toBe(201);
      const [delivery] = await deliveriesOf(t.db, hook.id);
      await until('the failed attempt', async () => (await delivery?.reload())?.status === 'failed');
      expect(delivery?.last_error).toBe(
        `the signing secret is sealed with key ${keyId(KEY)}, which this instance does not have (SECRETS_KEY, SECRETS_KEY_PREVIOUS)`,
      );
      expect(receiver.received).toEqual([]);
    } finally {
      await dispatcher.stop();
    }
  });

  it('webhooks:reseal seals secrets stored before the key was set or sealed by a previous key', async () => {
    const plain = await subscribe(t.db, ['user.created'], receiver.url);
    const old = await subscribe(t.db, ['user.created'], receiver.url);
    await t.db.models.Webhook.update(
      { secret: sealSecret(old.secret, secretKeys(OLD_KEY)) },
      { where: { id: old.id } },
    );
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const env = { ...t.target.env, LOG_LEVEL: 'silent', SECRETS_KEY: KEY.toString('base64') };

    // Without the old key, the one it sealed cannot be opened: said, and the command fails.
    expect(await runCli(['webhooks:reseal'], env, io)).toBe(1);
    expect(out.join('\n')).toContain(`could not be opened with the keys given (webhook ids ${old.id})`);
    expect((await stored(plain.id)).startsWith(`v1.${keyId(KEY)}.`)).toBe(true);

    out.length = 0;
    expect(await runCli(['webhooks:reseal'], { ...env, SECRETS_KEY_PREVIOUS: OLD_KEY.toString('base64') }, io)).toBe(0);
    expect(out).toEqual([`Sealed 1 webhook secret(s) with key ${keyId(KEY)}; 1 already were.`]);
    expect((await stored(old.id)).startsWith(`v1.${keyId(KEY)}.`)).toBe(true);
    // Each run is in the audit trail: the endpoints it resealed and the key, never a secret.
    const audited = await t.db.models.AuditLog.findAll({ where: { action: 'webhook.reseal' }, order: [['id', 'ASC']] });
    expect(audited).toHaveLength(2);
    const last = audited.at(-1);
    const context = typeof last?.context === 'string' ? JSON.parse(last.context) : last?.context;
    expect(context).toMatchObject({ source: 'cli', key: keyId(KEY), resealed: 1, alreadyCurrent: 1, unopened: [] });
    const targets = typeof last?.target_ids === 'string' ? JSON.parse(last.target_ids) : last?.target_ids;
    expect(targets).toEqual([old.id]);
    expect(JSON.stringify(audited.map((a) => a.toJSON()))).not.toContain(old.secret);

    // Both still sign with the secret they had.
    receiver.setSecret(old.secret);
    await t.db.models.Webhook.update({ active: false }, { where: { id: plain.id } });
    const dispatcher = startDispatcher({ db: t.db, settings: testSettings(t.config), log: silentLog });
    try {
      expect((await createUser()).statusCode).toBe(201);
      const [got] = await receiver.waitFor(1);
      expect(got?.verifyError).toBeNull();
    } finally {
      await dispatcher.stop();
    }

    expect(await runCli(['webhooks:reseal'], { ...t.target.env, LOG_LEVEL: 'silent' }, io)).toBe(1);
    expect(out.at(-1)).toContain('SECRETS_KEY is not set');
  });
});

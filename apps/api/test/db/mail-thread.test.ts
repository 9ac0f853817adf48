import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { type ApiProcess, startApiProcess } from '../support/api-process.js';
import { given } from '../support/given.js';
import { type SmtpReceiver, smtpReceiver } from '../support/smtp-receiver.js';
import { createTestDatabaseTarget, engine, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * The compiled API on MySQL sends its mail from a thread of its own (mail/sender-thread.ts): an
 * invitation made through the API reaches a real SMTP server, the thread's counts show on the
 * main thread's /metrics, and SIGTERM stops the thread with the process. SQLite keeps the sender
 * on the main thread (test/unit/process.test.ts runs that one).
 */

const METRICS_TOKEN = randomBytes(24).toString('hex');
let target: TestDatabaseTarget;
let db: Database;
let receiver: SmtpReceiver;
let api: ApiProcess | null = null;

describe.skipIf(engine() !== 'mysql')('the mail thread of the compiled API (MySQL)', () => {
  beforeAll(async () => {
    target = await createTestDatabaseTarget();
    db = await openTestDatabase(target);
    await seedPermissionsAndRoles(db);
    receiver = await smtpReceiver();
    await receiver.start();
  });
  afterAll(async () => {
    await api?.kill();
    await receiver.close();
    await db.close();
    await target.drop();
  });

  it('mails an invitation from its own thread, counts it on /metrics, and stops with the process', async () => {
    const g = given(db);
    const admin = await g.user({ roles: ['admin'] });
    const token = await g.token(admin.id);
    const invitee = await g.user({ roles: ['viewer'], email: 'thread-invitee@example.com' });
    api = await startApiProcess(target, {
      LOG_LEVEL: 'info',
      SMTP_URL: receiver.url,
      MAIL_FROM: 'User administration <no-reply@example.com>',
      PUBLIC_URL: 'https://admin.example.com',
      SECRETS_KEY: randomBytes(32).toString('base64'),
      METRICS_TOKEN,
    });
    const res = await fetch(`${api.base}/api/users/${invitee.id}/invite`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status, await res.text()).toBe(202);
    const [mail] = await receiver.waitFor(1);
    expect(mail?.rcptTo).toEqual(['thread-invitee@example.com']);
    expect(mail?.parsed.text).toMatch(/https:\/\/admin\.example\.com\/invite\/[\w-]+/);
    expect(api.output()).toContain('mail sender started on a thread of its own');

    // The thread's counts reach the main thread's registry in batches (every 250 ms).
    const sentCount = async () => {
      const text = await (
        await fetch(`${api?.base}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
      return Number(/^mail_messages_sent_total (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const until = Date.now() + 5_000;
    while ((await sentCount()) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await sentCount()).toBe(1);

    const exited = new Promise<number | null>((resolve) => api?.child.once('exit', resolve));
    api.child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(api.output()).toContain('"msg":"mail sender stopped"');
    expect(api.output()).not.toContain('the mail thread ended');
  });
});

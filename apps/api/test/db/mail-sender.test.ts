import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { writeTransaction } from '../../src/db/transaction.js';
import { mailCounters } from '../../src/mail/mail-metrics.js';
import { claimMail } from '../../src/mail/mail-store.js';
import { enqueueMail, type OutgoingMail } from '../../src/mail/outbox.js';
import { type MailSender, startMailSender } from '../../src/mail/sender.js';
import { type MailSettings, mailSettings, publicLink } from '../../src/mail/settings.js';
import { seedPermissionsAndRoles } from '../../src/seed/base.seeder.js';
import { given } from '../support/given.js';
import { buildTestApp, testConfig } from '../support/test-app.js';
import { type SmtpReceiver, smtpReceiver } from '../support/smtp-receiver.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * Outgoing mail, end to end: changes write messages to the outbox in their own transaction, and
 * senders hand them to a real SMTP server run as a process of its own (smtp-receiver.ts), which
 * the tests leave down, stall, kill and start again.
 */

let target: TestDatabaseTarget;
let db: Database;
let receiver: SmtpReceiver;
const SECRETS_KEY = randomBytes(32).toString('base64');
const senders: MailSender[] = [];
const extraDbs: Database[] = [];

interface LogLine {
  level: string;
  fields: Record<string, unknown>;
  msg: string;
}
const logLines: LogLine[] = [];
const log = {
  debug: (fields: object, msg?: string) => logLines.push({ level: 'debug', fields: { ...fields }, msg: msg ?? '' }),
  info: (fields: object | string, msg?: string) =>
    logLines.push({
      level: 'info',
      fields: typeof fields === 'string' ? {} : { ...fields },
      msg: msg ?? String(fields),
    }),
  warn: (fields: object | string, msg?: string) =>
    logLines.push({
      level: 'warn',
      fields: typeof fields === 'string' ? {} : { ...fields },
      msg: msg ?? String(fields),
    }),
  error: (fields: object | string, msg?: string) =>
    logLines.push({
      level: 'error',
      fields: typeof fields === 'string' ? {} : { ...fields },
      msg: msg ?? String(fields),
    }),
} as unknown as Parameters<typeof startMailSender>[0]['log'];

/** The settings of a configuration with mail on, fast enough for tests. */
function settingsFor(env: Record<string, string> = {}, overrides: Partial<MailSettings> = {}): MailSettings {
  const config = loadConfig({
    ...target.env,
    SMTP_URL: receiver.url,
    MAIL_FROM: 'User administration <no-reply@example.com>',
    PUBLIC_URL: 'https://admin.example.com',
    SECRETS_KEY,
    MAIL_RETRY_BASE_SECONDS: '0.1',
    MAIL_TIMEOUT_SECONDS: '2',
    MAIL_MAX_ATTEMPTS: '12',
    ...env,
  });
  return { ...mailSettings(config), pollMs: 50, ...overrides };
}

function sender(settings: MailSettings, on: Database = db) {
  const started = startMailSender({ db: on, settings, log });
  senders.push(started);
  return started;
}

/** A fresh token and the invitation mail carrying its link. */
function invitation(settings: MailSettings, to: string, name = 'Ada Lovelace'): { mail: OutgoingMail; token: string } {
  const token = randomBytes(24).toString('base64url');
  return {
    token,
    mail: {
      to,
      template: 'invitation',
      vars: { name, url: publicLink(settings, `/invite/${token}`), expires_at: '2026-12-01T14:00:00.000Z' },
    },
  };
}

interface OutboxRow {
  id: number;
  message_id: string;
  recipient: string;
  payload: string | null;
  status: string;
  attempts: number;
  due_at: string | Date | null;
  last_error: string | null;
}

async function outbox(): Promise<OutboxRow[]> {
  const rows = await db.sequelize.query<OutboxRow>('SELECT * FROM mail_outbox ORDER BY id', {
    type: QueryTypes.SELECT,
  });
  return rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) }));
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const counter = async (c: { get(): Promise<{ values: Array<{ value: number }> }> }) =>
  (await c.get()).values.reduce((n, v) => n + v.value, 0);

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  await seedPermissionsAndRoles(db);
  receiver = await smtpReceiver();
});
afterEach(async () => {
  for (const s of senders.splice(0)) await s.stop();
  await receiver.kill();
  await db.sequelize.query('DELETE FROM mail_outbox');
  receiver.clear();
});
afterAll(async () => {
  for (const other of extraDbs) await other.close();
  await receiver.close();
  await db.close();
  await target.drop();
  // Nothing a test mailed ever reached a log line: no link, no token.
  const logged = JSON.stringify(logLines);
  expect(logged).not.toMatch(/\/invite\/|\/reset-password\//);
});

describe('a change that commits', () => {
  it('sends its mail: From, To, Subject, the plain-text and HTML bodies with the link, its own Message-ID', async () => {
    await receiver.start();
    const settings = settingsFor();
    const user = await given(db).user({ name: 'Ada Lovelace', email: 'ada@example.com' });
    const { mail, token } = invitation(settings, user.email);
    const queuedBefore = await counter(mailCounters.queued);
    const sentBefore = await counter(mailCounters.sent);
    const answer = await writeTransaction(db, async (tx) => {
      await db.models.User.update({ name: 'Ada King' }, { where: { id: user.id }, transaction: tx });
      return enqueueMail(db, tx, settings, mail);
    });
    expect(answer).toEqual({ sent: true });

    // Sealed at rest: the table holds neither the link nor the token.
    const [queued] = await outbox();
    expect(queued).toMatchObject({ status: 'pending', attempts: 0, recipient: 'ada@example.com' });
    expect(queued?.payload).toMatch(/^v1\./);
    expect(queued?.payload).not.toContain(token);
    expect(JSON.stringify(queued)).not.toContain(token);

    sender(settings);
    const [got] = await receiver.waitFor(1);
    const parsed = got?.parsed;
    expect(got?.rcptTo).toEqual(['ada@example.com']);
    expect(got?.mailFrom).toBe('no-reply@example.com');
    expect(parsed?.from?.value[0]).toMatchObject({ name: 'User administration', address: 'no-reply@example.com' });
    expect(parsed?.to && !Array.isArray(parsed.to) ? parsed.to.value[0] : null).toMatchObject({
      name: 'Ada Lovelace',
      address: 'ada@example.com',
    });
    expect(parsed?.subject).toBe('You are invited to User administration');
    expect(parsed?.messageId).toBe(queued?.message_id);
    const link = `https://admin.example.com/invite/${token}`;
    expect(parsed?.text).toContain(link);
    expect(parsed?.text).toContain('Hello Ada Lovelace,');
    expect(parsed?.text).toContain('1 December 2026 at 14:00 UTC');
    expect(parsed?.html).toContain(`href="${link}"`);
    expect(parsed?.html).toContain('User administration');

    // Sent: the sealed content is cleared, nothing is due any more.
    const [row] = await until(outbox, (rows) => rows[0]?.status === 'sent');
    expect(row).toMatchObject({ status: 'sent', attempts: 1, payload: null, due_at: null, last_error: null });
    expect(await counter(mailCounters.queued)).toBe(queuedBefore + 1);
    expect(await counter(mailCounters.sent)).toBe(sentBefore + 1);
  });

  it('sends nothing for a change that rolled back', async () => {
    await receiver.start();
    const settings = settingsFor();
    sender(settings);
    const { mail } = invitation(settings, 'rolled-back@example.com');
    await expect(
      writeTransaction(db, async (tx) => {
        await enqueueMail(db, tx, settings, mail);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    // A committed one after it goes out; the rolled-back one never does.
    const { mail: after } = invitation(settings, 'committed@example.com');
    await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, after));
    const got = await receiver.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await receiver.read('accepted')).map((m) => m.rcptTo)).toEqual([['committed@example.com']]);
    expect(got).toHaveLength(1);
    expect((await outbox()).map((r) => r.recipient)).toEqual(['committed@example.com']);
  });

  it('refuses a link that is not an absolute http(s) URL before anything is queued', async () => {
    const settings = settingsFor();
    const bad: OutgoingMail = {
      to: 'x@example.com',
      template: 'password-reset',
      vars: { name: 'X', url: 'javascript:alert(1)', expires_at: '2026-12-01T14:00:00.000Z' },
    };
    await expect(writeTransaction(db, (tx) => enqueueMail(db, tx, settings, bad))).rejects.toThrow(/http/);
    expect(await outbox()).toEqual([]);
  });
});

describe('without SMTP_URL', () => {
  it('queues nothing and says nothing will be sent', async () => {
    const config = loadConfig({ ...target.env, PUBLIC_URL: 'https://admin.example.com' });
    const settings = mailSettings(config);
    expect(settings.enabled).toBe(false);
    const { mail } = invitation(settings, 'nobody@example.com');
    expect(await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, mail))).toEqual({ sent: false });
    expect(await outbox()).toEqual([]);
    expect(() => startMailSender({ db, settings, log })).toThrow(/SMTP_URL/);
  });
});

describe('when the SMTP server is down or fails', () => {
  it('keeps the mail waiting with backoff while the server is down, and sends it once it is back', async () => {
    const settings = settingsFor();
    const { mail } = invitation(settings, 'patient@example.com');
    await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, mail));
    sender(settings);
    // Several attempts fail and back off: the row waits, due later each time, with the reason.
    const [waiting] = await until(outbox, (rows) => (rows[0]?.attempts ?? 0) >= 3 && rows[0]?.status === 'pending');
    expect(waiting?.last_error).toMatch(/ECONNREFUSED/);
    expect(waiting?.payload).toMatch(/^v1\./);
    await receiver.start();
    const [got] = await receiver.waitFor(1);
    expect(got?.rcptTo).toEqual(['patient@example.com']);
    const [row] = await until(outbox, (rows) => rows[0]?.status === 'sent');
    expect(row?.attempts).toBeGreaterThanOrEqual(4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await receiver.read('accepted')).toHaveLength(1);
  });

  it('sends a message exactly once when the server is killed mid-send and started again', async () => {
    await receiver.start('stall');
    const settings = settingsFor();
    const { mail } = invitation(settings, 'interrupted@example.com');
    await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, mail));
    sender(settings);
    // The server has the whole message and never answers: killed while the sender waits.
    const [stalled] = await receiver.waitFor(1, 'stalled');
    await receiver.kill();
    await receiver.start('accept');
    const [got] = await receiver.waitFor(1);
    expect(got?.parsed.messageId).toBe(stalled?.parsed.messageId);
    await until(outbox, (rows) => rows[0]?.status === 'sent');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await receiver.read('accepted')).toHaveLength(1);
  });

  it('gives up after the last attempt, marked failed with a readable reason and its content cleared', async () => {
    await receiver.start('tempfail');
    const settings = settingsFor({ MAIL_MAX_ATTEMPTS: '3' });
    const failedBefore = await counter(mailCounters.failed);
    const { mail, token } = invitation(settings, 'busy@example.com');
    await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, mail));
    sender(settings);
    const [row] = await until(outbox, (rows) => rows[0]?.status === 'failed');
    expect(row).toMatchObject({ attempts: 3, payload: null, due_at: null });
    expect(row?.last_error).toMatch(/^Gave up after 3 attempts\. The last one: The SMTP server answered: 451 /);
    expect(row?.last_error).not.toContain(token);
    expect(await receiver.read('refused')).toHaveLength(3);
    expect(await counter(mailCounters.failed)).toBe(failedBefore + 1);
  });

  it('gives up at once on a refusal for good (5xx)', async () => {
    await receiver.start('reject');
    const settings = settingsFor();
    const { mail } = invitation(settings, 'nobody-here@example.com');
    await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, mail));
    sender(settings);
    const [row] = await until(outbox, (rows) => rows[0]?.status === 'failed');
    expect(row).toMatchObject({ attempts: 1, payload: null });
    expect(row?.last_error).toMatch(/^The SMTP server answered: 550 /);
  });
});

describe('senders that die or run side by side', () => {
  it('sends again, with the same Message-ID, a message whose sender died holding it, once its lease ends', async () => {
    await receiver.start();
    const settings = settingsFor({}, { leaseMs: 400 });
    const { mail } = invitation(settings, 'orphan@example.com');
    await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, mail));
    // A sender claims it and dies before recording anything (the server may have accepted it).
    const { mails } = await claimMail(db, settings, 10);
    expect(mails).toHaveLength(1);
    const [claimed] = await outbox();
    expect(claimed).toMatchObject({ status: 'sending', attempts: 1 });

    sender(settings);
    const [got] = await receiver.waitFor(1);
    expect(got?.parsed.messageId).toBe(mails[0]?.messageId);
    const [row] = await until(outbox, (rows) => rows[0]?.status === 'sent');
    expect(row?.attempts).toBe(2);
  });

  it('gives the messages it claimed and never tried back at stop, for another sender to send at once', async () => {
    await receiver.start('stall');
    // One connection: the first message stalls on it, the other five wait in the sender's hands.
    const settings = settingsFor({ MAIL_CONCURRENCY: '1', MAIL_TIMEOUT_SECONDS: '0.5' }, { prefetch: 6 });
    const mails = Array.from({ length: 6 }, (_, i) => invitation(settings, `held-${i}@example.com`).mail);
    await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, mails));
    const first = sender(settings);
    await receiver.waitFor(1, 'stalled');
    expect((await outbox()).map((r) => r.status)).toEqual(Array(6).fill('sending'));
    await first.stop();
    // The stalled attempt timed out and waits for its retry; the five untried are due now, uncounted.
    const rows = await outbox();
    expect(rows.filter((r) => r.status === 'pending' && r.attempts === 0)).toHaveLength(5);
    expect(rows.filter((r) => r.attempts === 1)).toHaveLength(1);
    await receiver.kill();
    await receiver.start('accept');
    sender(settingsFor());
    await receiver.waitFor(6, 'accepted');
    await until(outbox, (all) => all.every((r) => r.status === 'sent'));
  });

  it('sends every message exactly once with two senders on one database', async () => {
    await receiver.start();
    const settings = settingsFor({ MAIL_CONCURRENCY: '4' });
    // On MySQL the second sender has its own connections, as another instance would.
    const other = target.engine === 'mysql' ? await openDatabase({ url: target.url, poolMax: 5 }) : db;
    if (other !== db) extraDbs.push(other);
    const mails = Array.from(
      { length: 40 },
      (_, i) => invitation(settings, `many-${i}@example.com`, `Person ${i}`).mail,
    );
    sender(settings);
    sender(settings, other);
    // Committed in several changes while both senders run.
    for (let i = 0; i < mails.length; i += 8) {
      await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, mails.slice(i, i + 8)));
    }
    await receiver.waitFor(40, 'accepted', 30_000);
    await until(outbox, (rows) => rows.every((r) => r.status === 'sent'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const got = await receiver.read('accepted');
    expect(got).toHaveLength(40);
    expect(new Set(got.map((m) => m.parsed.messageId)).size).toBe(40);
    expect(got.map((m) => m.rcptTo[0]).sort()).toEqual(mails.map((m) => m.to).sort());
    expect((await outbox()).every((r) => r.attempts === 1)).toBe(true);
  });
});

describe('the metrics endpoint', () => {
  it('reports mail queued, sent and failed, and the messages still waiting in the outbox', async () => {
    const settings = settingsFor();
    const mails = ['one', 'two'].map((n) => invitation(settings, `${n}@example.com`).mail);
    await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, mails));
    const token = 'metrics-token-for-the-mail-test';
    const app = await buildTestApp({ config: testConfig(target, { METRICS_TOKEN: token }), db });
    await app.ready();
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(res.body)?.[1]);
      expect(value('mail_outbox_waiting')).toBe(2);
      expect(value('mail_messages_queued_total')).toBe(await counter(mailCounters.queued));
      expect(value('mail_messages_queued_total')).toBeGreaterThanOrEqual(2);
      expect(value('mail_messages_sent_total')).toBeGreaterThan(0);
      expect(value('mail_messages_failed_total')).toBeGreaterThan(0);
      expect(res.body).toContain('# TYPE mail_attempts_failed_total counter');
    } finally {
      await app.close();
    }
  });
});

describe('a sender beside people being served', () => {
  const send = async (settings: MailSettings, to: string) => {
    await writeTransaction(db, (tx) => enqueueMail(db, tx, settings, invitation(settings, to).mail));
  };

  it('holds its next message for the ratio times how long requests were in flight, at most 2 s, then sends it', async () => {
    await receiver.start();
    const settings = settingsFor({}, { niceRatio: 2 });
    const busy = sender(settings);
    // Someone was served for 1.5 s: three seconds owed, cut to two.
    busy.served(1_500);
    const t0 = performance.now();
    await send(settings, 'held@example.com');
    const [got] = await receiver.waitFor(1);
    expect(got?.rcptTo).toEqual(['held@example.com']);
    const held = performance.now() - t0;
    expect(held).toBeGreaterThanOrEqual(1_900);
    expect(held).toBeLessThan(5_000);
  });

  it('sends at once when nobody was served, or at a ratio of 0', async () => {
    await receiver.start();
    const settings = settingsFor({}, { niceRatio: 0 });
    const idle = sender(settings);
    idle.served(1_500);
    const t0 = performance.now();
    await send(settings, 'prompt@example.com');
    await receiver.waitFor(1);
    expect(performance.now() - t0).toBeLessThan(1_500);
  });
});

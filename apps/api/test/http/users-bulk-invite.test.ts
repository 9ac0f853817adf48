import type { Job } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobKinds, jobsSettings } from '../../src/app/job-kinds.js';
import type { JobKindRunner, JobRunner } from '../../src/jobs/runner.js';
import { startJobRunner } from '../../src/jobs/runner.js';
import { mailSettings } from '../../src/mail/settings.js';
import { type MailSender, startMailSender } from '../../src/mail/sender.js';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { type SmtpReceiver, smtpReceiver } from '../support/smtp-receiver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// POST /users/bulk with operation "invite" (SPEC §14): over ids in the request, or every user a
// list query matches as a job; real mail to a real SMTP server process, links followed.

const NEW_PASSWORD = 'a-new-Password-7';
const LINK = /https:\/\/admin\.example\.com\/invite\/[\w-]{43}/;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

let t: TestApp;
let receiver: SmtpReceiver;
let sender: MailSender;
let admin: ReturnType<typeof request>;
const runners: JobRunner[] = [];
let cohorts = 0;

beforeAll(async () => {
  receiver = await smtpReceiver();
  await receiver.start();
  t = await startTestApp({
    SMTP_URL: receiver.url,
    MAIL_FROM: 'User administration <no-reply@example.com>',
    PUBLIC_URL: 'https://admin.example.com',
  });
  sender = startMailSender({ db: t.db, settings: { ...mailSettings(t.config), pollMs: 50 }, log: t.app.log });
  const a = await given(t.db).user({ roles: ['admin'] });
  admin = request(t.app, { cookie: await loginCookie(t.app, a.email, a.password) });
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});
afterAll(async () => {
  await sender.stop();
  await t.close();
  await receiver.close();
});

function runner(kinds: Record<string, JobKindRunner> = jobKinds(t.db, t.config)) {
  const settings = { ...jobsSettings(t.config), chunkSize: 3, dryRunChunkSize: 3, pollMs: 20, leaseMs: 5_000 };
  const started = startJobRunner({ db: t.db, settings, kinds, log: silent });
  runners.push(started);
  return started;
}

/** `n` never-signed-in users whose names share a fresh word, so a selection picks exactly them. */
async function cohort(n: number, spec: { active?: boolean; deleted?: boolean } = {}) {
  cohorts += 1;
  const word = `Invitees${cohorts}x${process.pid}`;
  const users = [];
  for (let i = 0; i < n; i++) users.push(await given(t.db).user({ name: `${word} Member ${i}`, ...spec }));
  return { word, users, ids: users.map((u) => u.id) };
}

async function waitForJob(id: number): Promise<Job> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { item } = (await admin.get(`/api/jobs/${id}`)).json() as { item: Job };
    if (['succeeded', 'failed', 'cancelled'].includes(item.status)) return item;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${item.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const queuedFor = async (emails: string[]) => {
  const [row] = await t.db.sequelize.query<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient IN (:emails)',
    { replacements: { emails }, type: QueryTypes.SELECT },
  );
  return Number(row?.n);
};

const linksOf = async (ids: number[]) => {
  const [row] = await t.db.sequelize.query<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM user_links WHERE user_id IN (:ids)',
    { replacements: { ids }, type: QueryTypes.SELECT },
  );
  return Number(row?.n);
};

/** The mails received for `emails` (once each is expected), by recipient, and each one's link. */
async function mailsTo(emails: string[]) {
  const all = await receiver.read('accepted');
  return emails.map((email) => {
    const mine = all.filter((m) => m.rcptTo.includes(email));
    return { count: mine.length, link: String(mine[0]?.parsed.text).match(LINK)?.[0] ?? null };
  });
}

async function expectLinksAccept(links: (string | null)[]) {
  for (const link of links) {
    expect(link).not.toBeNull();
    const token = (link as string).slice((link as string).lastIndexOf('/') + 1);
    const accepted = await request(t.app).post('/api/auth/invitations/accept', {
      token,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(accepted.statusCode).toBe(200);
  }
}

describe('bulk invite over ids', () => {
  it('invites the users who can accept, skips the rest with their codes, and mails each once', async () => {
    const { users, ids } = await cohort(2);
    const signedIn = await given(t.db).user();
    await loginCookie(t.app, signedIn.email, signedIn.password);
    const inactive = await given(t.db).user({ active: false });
    const deleted = await given(t.db).user({ deleted: true });
    const res = await admin.post('/api/users/bulk', {
      operation: 'invite',
      ids: [...ids, signedIn.id, inactive.id, deleted.id, 999_999],
    });
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({ operation: 'invite', dryRun: false, requested: 6, affected: ids });
    expect(report.invitations).toEqual({ mailed: true, sent: 2 });
    expect(Object.fromEntries(report.skipped.map((s: { id: number; code: string }) => [s.id, s.code]))).toEqual({
      [signedIn.id]: 'ALREADY_SIGNED_IN',
      [inactive.id]: 'NOT_ACTIVE',
      [deleted.id]: 'NOT_FOUND',
      999999: 'NOT_FOUND',
    });
    const emails = users.map((u) => u.email);
    await receiver.waitFor(2, 'accepted');
    await new Promise((r) => setTimeout(r, 300));
    const mails = await mailsTo(emails);
    expect(mails.map((m) => m.count)).toEqual([1, 1]);
    expect(await queuedFor([signedIn.email, inactive.email, deleted.email])).toBe(0);
    const shown = (await admin.get(`/api/users/${ids[0]}`)).json().item;
    expect(shown.invitation.state).toBe('pending');
    await expectLinksAccept(mails.map((m) => m.link));
    expect((await admin.get(`/api/users/${ids[0]}`)).json().item.invitation.state).toBe('accepted');
  });

  it('skips the users who outrank the caller (OUTRANKED), and needs users.update', async () => {
    const m = await given(t.db).user({ roles: ['manager'] });
    const manager = request(t.app, { cookie: await loginCookie(t.app, m.email, m.password) });
    const boss = await given(t.db).user({ roles: ['admin'] });
    const plain = await given(t.db).user();
    const res = await manager.post('/api/users/bulk', { operation: 'invite', ids: [boss.id, plain.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().affected).toEqual([plain.id]);
    expect(res.json().skipped).toEqual([{ id: boss.id, code: 'OUTRANKED', message: expect.any(String) }]);
    const v = await given(t.db).user({ roles: ['viewer'] });
    const viewer = request(t.app, { cookie: await loginCookie(t.app, v.email, v.password) });
    expect((await viewer.post('/api/users/bulk', { operation: 'invite', ids: [plain.id] })).statusCode).toBe(403);
  });

  it('previews a dry run: the same report, nothing issued, nothing queued', async () => {
    const { users, ids } = await cohort(2);
    const res = await admin.post('/api/users/bulk', { operation: 'invite', ids, dryRun: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ dryRun: true, affected: ids, invitations: { mailed: true, sent: 2 } });
    expect(await linksOf(ids)).toBe(0);
    expect(await queuedFor(users.map((u) => u.email))).toBe(0);
    expect((await admin.get(`/api/users/${ids[0]}`)).json().item.invitation).toBeNull();
  });

  it('answers the same on the tRPC door', async () => {
    const { ids } = await cohort(1);
    const res = await admin.post('/api/trpc/users.bulk', { operation: 'invite', ids });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data).toMatchObject({ operation: 'invite', affected: ids });
  });
});

describe('bulk invite over a selection (a job)', () => {
  it('invites every match in chunks, reports the skipped, and mails each invited user once', async () => {
    const { word, users, ids } = await cohort(7);
    const late = await given(t.db).user({ name: `${word} Member signed in` });
    await loginCookie(t.app, late.email, late.password);
    const off = await given(t.db).user({ name: `${word} Member inactive`, active: false });
    const submitted = await admin.post('/api/users/bulk', { operation: 'invite', selection: { query: { q: word } } });
    expect(submitted.statusCode).toBe(202);
    runner();
    const job = await waitForJob(submitted.json().job.id);
    expect(job).toMatchObject({ status: 'succeeded', operation: 'invite', invitations: { mailed: true, sent: 7 } });
    expect(job.progress).toMatchObject({ total: 9, processed: 9, changed: 7, skipped: 2 });
    expect(job.counts).toEqual({ ALREADY_SIGNED_IN: 1, NOT_ACTIVE: 1 });
    const report = (await admin.get(`/api/jobs/${job.id}/report?format=json`)).json();
    const rows = (report.rows ?? report) as { id: number; code: string; email: string }[];
    expect(rows.map((r) => [r.id, r.code]).sort()).toEqual(
      [
        [late.id, 'ALREADY_SIGNED_IN'],
        [off.id, 'NOT_ACTIVE'],
      ].sort(),
    );
    expect(JSON.stringify(report)).not.toMatch(/\/invite\//);
    const emails = users.map((u) => u.email);
    await receiver.waitFor(emails.length, 'accepted');
    for (;;) {
      const mails = await mailsTo(emails);
      if (mails.every((m) => m.count >= 1)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));
    const mails = await mailsTo(emails);
    expect(mails.map((m) => m.count)).toEqual(emails.map(() => 1));
    await expectLinksAccept(mails.map((m) => m.link));
    expect(await linksOf(ids)).toBe(7);
  });

  it('a dry-run job judges every match and issues and sends nothing', async () => {
    const { word, users, ids } = await cohort(4);
    const submitted = await admin.post('/api/users/bulk', {
      operation: 'invite',
      selection: { query: { q: word } },
      dryRun: true,
    });
    expect(submitted.statusCode).toBe(202);
    runner();
    const job = await waitForJob(submitted.json().job.id);
    expect(job).toMatchObject({ status: 'succeeded', dryRun: true, invitations: { mailed: true, sent: 4 } });
    expect(job.progress.changed).toBe(4);
    expect(await linksOf(ids)).toBe(0);
    expect(await queuedFor(users.map((u) => u.email))).toBe(0);
  });

  it('sends nothing for a chunk that rolled back', async () => {
    const { word, users, ids } = await cohort(5);
    const kinds = jobKinds(t.db, t.config);
    const bulk = kinds.bulk as JobKindRunner;
    let chunk = 0;
    // The second chunk issues its invitations, then fails: its transaction rolls back.
    const failing: JobKindRunner = {
      ...bulk,
      async chunk(job, tx, size) {
        const result = await bulk.chunk(job, tx, size);
        chunk += 1;
        if (chunk === 2) throw new Error('the disk is full');
        return result;
      },
    };
    const submitted = await admin.post('/api/users/bulk', { operation: 'invite', selection: { query: { q: word } } });
    runner({ ...kinds, bulk: failing });
    const job = await waitForJob(submitted.json().job.id);
    expect(job.status).toBe('failed');
    const emails = users.map((u) => u.email);
    // The first chunk (3 users) committed; the second (2) rolled back with its outbox rows.
    expect(await queuedFor(emails.slice(0, 3))).toBe(3);
    expect(await queuedFor(emails.slice(3))).toBe(0);
    expect(await linksOf(ids.slice(3))).toBe(0);
    await receiver.waitFor(1, 'accepted');
    await new Promise((r) => setTimeout(r, 500));
    expect((await mailsTo(emails)).map((m) => m.count)).toEqual([1, 1, 1, 0, 0]);
  });
});

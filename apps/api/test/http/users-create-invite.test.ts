import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailSettings } from '../../src/mail/settings.js';
import { type MailSender, startMailSender } from '../../src/mail/sender.js';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { type SmtpReceiver, smtpReceiver } from '../support/smtp-receiver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// POST /users with `invite: true` (SPEC §14): the account is created without a password and
// invited in the same transaction, answered as the invite route answers beside the item.

const NEW_PASSWORD = 'a-new-Password-7';
const accept = (token: string) => ({ token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

let mailed = 0;
const newcomer = (extra: Record<string, unknown> = {}) => {
  mailed += 1;
  return { name: `Newcomer ${mailed}`, email: `newcomer-${mailed}-${process.pid}@example.com`, ...extra };
};

describe('create and invite without mail (no SMTP_URL): the answer carries the link', () => {
  let t: TestApp;
  let admin: ReturnType<typeof request>;
  beforeAll(async () => {
    t = await startTestApp();
    const a = await given(t.db).user({ roles: ['admin'] });
    admin = request(t.app, { cookie: await loginCookie(t.app, a.email, a.password) });
  });
  afterAll(() => t.close());

  it('creates the account with no usable password, and its link sets one and signs in', async () => {
    const body = newcomer({ invite: true, roles_ids: [] });
    const res = await admin.post('/api/users', body);
    expect(res.statusCode).toBe(201);
    const answer = res.json();
    expect(answer.item).toMatchObject({ name: body.name, email: body.email, is_active: true });
    expect(answer.invitation).toMatchObject({ user_id: answer.item.id, sent: false });
    expect(answer.url).toMatch(/\/invite\/[\w-]{43}$/);
    // No password works until the link sets one.
    for (const password of ['', '!', NEW_PASSWORD]) {
      expect((await request(t.app).post('/api/auth/login', { email: body.email, password })).statusCode).not.toBe(200);
    }
    const shown = (await admin.get(`/api/users/${answer.item.id}`)).json().item;
    expect(shown.invitation).toMatchObject({ state: 'pending', expires_at: answer.invitation.expires_at });
    const accepted = await request(t.app).post('/api/auth/invitations/accept', accept(tokenOf(answer.url)));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().user.id).toBe(answer.item.id);
    expect(
      (await request(t.app).post('/api/auth/login', { email: body.email, password: NEW_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('answers without an invitation when none is asked for, as before', async () => {
    const res = await admin.post(
      '/api/users',
      newcomer({ password: 'secret-Pass-1', password_confirmation: 'secret-Pass-1' }),
    );
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json())).toEqual(['item']);
  });

  it('refuses a password with invite, and neither, with a field error; creates nothing', async () => {
    const both = newcomer({ invite: true, password: 'secret-Pass-1', password_confirmation: 'secret-Pass-1' });
    const res = await admin.post('/api/users', both);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.password[0]).toMatch(/empty when inviting/);
    const neither = newcomer();
    const res2 = await admin.post('/api/users', neither);
    expect(res2.statusCode).toBe(422);
    expect(res2.json().errors.password).toEqual(['Enter a password.']);
    const invitedFalse = await admin.post('/api/users', newcomer({ invite: false }));
    expect(invitedFalse.json().errors.password).toEqual(['Enter a password.']);
    expect(await t.db.models.User.count({ where: { email: [both.email, neither.email] }, paranoid: false })).toBe(0);
  });

  it('refuses to invite an account created inactive (NOT_ACTIVE) and creates nothing', async () => {
    const body = newcomer({ invite: true, is_active: false });
    const res = await admin.post('/api/users', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('NOT_ACTIVE');
    expect(await t.db.models.User.count({ where: { email: body.email }, paranoid: false })).toBe(0);
  });

  it('creates and invites on the tRPC door too', async () => {
    const res = await admin.post('/api/trpc/users.create', newcomer({ invite: true }));
    expect(res.statusCode).toBe(200);
    const data = res.json().result.data;
    expect(data.invitation).toMatchObject({ user_id: data.item.id, sent: false });
    expect(data.url).toMatch(/\/invite\//);
  });
});

describe('create and invite by mail: a real SMTP server receives the link', () => {
  let t: TestApp;
  let receiver: SmtpReceiver;
  let sender: MailSender;
  let admin: ReturnType<typeof request>;
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
  afterAll(async () => {
    await sender.stop();
    await t.close();
    await receiver.close();
  });

  it('mails the invitation once (no link in the answer), and the link signs the person in', async () => {
    const body = newcomer({ invite: true });
    const res = await admin.post('/api/users', body);
    expect(res.statusCode).toBe(201);
    expect(res.json().invitation.sent).toBe(true);
    expect(res.json().url).toBeUndefined();
    const [mail] = await receiver.waitFor(1, 'accepted');
    expect(mail?.rcptTo).toEqual([body.email]);
    const link = String(mail?.parsed.text).match(/https:\/\/admin\.example\.com\/invite\/[\w-]{43}/)?.[0];
    expect(link).toBeDefined();
    const accepted = await request(t.app).post('/api/auth/invitations/accept', accept(tokenOf(link as string)));
    expect(accepted.statusCode).toBe(200);
    const [row] = await t.db.sequelize.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = :to',
      { replacements: { to: body.email }, type: QueryTypes.SELECT },
    );
    expect(Number(row?.n)).toBe(1);
  });

  it('queues nothing when the creation is refused', async () => {
    const taken = await given(t.db).user();
    const res = await admin.post('/api/users', newcomer({ invite: true, email: taken.email }));
    expect(res.statusCode).toBe(422);
    const [row] = await t.db.sequelize.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = :to',
      { replacements: { to: taken.email }, type: QueryTypes.SELECT },
    );
    expect(Number(row?.n)).toBe(0);
  });
});

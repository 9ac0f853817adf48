import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailSettings } from '../../src/mail/settings.js';
import { type MailSender, startMailSender } from '../../src/mail/sender.js';
import { resetRequestsSettled } from '../../src/modules/password-reset/forgot.request.js';
import { given } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { type SmtpReceiver, smtpReceiver } from '../support/smtp-receiver.js';
import { outboxEvents, subscribe } from '../support/webhooks.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const NEW_PASSWORD = 'fresh-pass-42';
const reset = (token: string, password = NEW_PASSWORD) => ({ token, password, password_confirmation: password });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const LINK = /https:\/\/admin\.example\.com\/reset-password\/[\w-]{43}/;

const MAIL_ENV = {
  MAIL_FROM: 'User administration <no-reply@example.com>',
  PUBLIC_URL: 'https://admin.example.com',
};

async function count(t: TestApp, sql: string, replacements: Record<string, unknown>): Promise<number> {
  const [row] = await t.db.sequelize.query<{ n: number | string }>(sql, { replacements, type: QueryTypes.SELECT });
  return Number(row?.n ?? 0);
}

const queuedFor = (t: TestApp, to: string) =>
  count(t, 'SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = :to', { to });

describe('password reset by mail: a real SMTP server receives the link, and the link sets the password', () => {
  let t: TestApp;
  let receiver: SmtpReceiver;
  let sender: MailSender;
  let admin: string;
  const forgot = async (email: string) => {
    const res = await request(t.app).post('/api/auth/password/forgot', { email });
    await resetRequestsSettled();
    return res;
  };
  /** The link of the one mail expected for `to`. */
  const linkMailedTo = async (to: string) => {
    const mails = await receiver.waitFor(1, 'accepted');
    const mail = mails.find((m) => m.rcptTo.includes(to));
    expect(mail).toBeDefined();
    const link = String(mail?.parsed.text).match(LINK)?.[0];
    expect(link).toBeDefined();
    expect(String(mail?.parsed.html)).toContain(link as string);
    return link as string;
  };

  beforeAll(async () => {
    receiver = await smtpReceiver();
    await receiver.start();
    t = await startTestApp({ ...MAIL_ENV, SMTP_URL: receiver.url, RESET_MAX_REQUESTS_PER_IP: '1000' });
    sender = startMailSender({ db: t.db, settings: { ...mailSettings(t.config), pollMs: 50 }, log: t.app.log });
    const a = await given(t.db).user({ roles: ['admin'] });
    admin = await loginCookie(t.app, a.email, a.password);
  });
  afterAll(async () => {
    await resetRequestsSettled();
    await sender.stop();
    await t.close();
    await receiver.close();
  });

  it('mails a link to an active account; following it sets the password and ends every session and token', async () => {
    receiver.clear();
    const ann = await given(t.db).user({ roles: ['viewer'] });
    const session = await loginCookie(t.app, ann.email, ann.password);
    const token = await given(t.db).token(ann.id);
    // The e-mail as typed, in capitals and with spaces: the account's canonical address is reached.
    const res = await forgot(` ${ann.email.toUpperCase()} `);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({});
    const link = await linkMailedTo(ann.email);
    // Asking does not change the password: it still signs in until the link is used.
    expect((await request(t.app, { cookie: session }).get('/api/auth/me')).statusCode).toBe(200);

    const done = await request(t.app).post('/api/auth/password/reset', reset(tokenOf(link)));
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({});
    // Nobody is signed in by the link: the person signs in with the new password.
    expect(done.headers['set-cookie']).toBeUndefined();
    expect((await request(t.app, { cookie: session }).get('/api/auth/me')).statusCode).toBe(401);
    expect((await request(t.app, { token }).get('/api/auth/me')).statusCode).toBe(401);
    const login = (password: string) => request(t.app).post('/api/auth/login', { email: ann.email, password });
    expect((await login(NEW_PASSWORD)).statusCode).toBe(200);
    expect((await login(ann.password)).statusCode).toBe(401);

    // Used once: the same link again changes nothing.
    const again = await request(t.app).post('/api/auth/password/reset', reset(tokenOf(link), 'another-Pass-99'));
    expect(again.statusCode).toBe(422);
    expect(again.json().code).toBe('INVALID_TOKEN');
    expect((await login(NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('answers unknown, inactive and deleted e-mails exactly as an existing one, and mails none of them', async () => {
    receiver.clear();
    const inactive = await given(t.db).user({ active: false });
    const deleted = await given(t.db).user({ deleted: true });
    const unknown = `nobody-${process.pid}@example.com`;
    const live = await given(t.db).user();
    const answers = [];
    for (const email of [unknown, inactive.email, deleted.email, live.email]) {
      const res = await forgot(email);
      answers.push({ status: res.statusCode, body: res.body, type: res.headers['content-type'] });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]?.status).toBe(202);
    await linkMailedTo(live.email);
    for (const email of [unknown, inactive.email, deleted.email]) expect(await queuedFor(t, email)).toBe(0);
    expect((await receiver.read('accepted')).map((m) => m.rcptTo)).toEqual([[live.email]]);
    // Each request is recorded, for the administrators: mailed or not, never the link.
    const rows = await t.db.sequelize.query<{ context: string }>(
      "SELECT context FROM audit_logs WHERE action = 'auth.passwordResetRequest' ORDER BY id DESC LIMIT 4",
      { type: QueryTypes.SELECT },
    );
    const contexts = rows.map((r) => (typeof r.context === 'string' ? JSON.parse(r.context) : r.context)).reverse();
    expect(contexts.map((c: { email: string; mailed: boolean }) => [c.email, c.mailed])).toEqual([
      [unknown, false],
      [inactive.email, false],
      [deleted.email, false],
      [live.email, true],
    ]);
  });

  it('refuses used, expired, tampered, voided and invitation links with INVALID_TOKEN, changing nothing', async () => {
    const refused = async (token: string) => {
      const res = await request(t.app).post('/api/auth/password/reset', reset(token));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    };
    const sendFor = async (id: number) =>
      (await request(t.app, { cookie: admin }).post(`/api/users/${id}/password-reset`)).json().reset;
    const mailedLink = async (email: string) => {
      receiver.clear();
      await forgot(email);
      return tokenOf(await linkMailedTo(email));
    };

    const bob = await given(t.db).user();
    const first = await mailedLink(bob.email);
    const second = await mailedLink(bob.email);
    await refused(first); // voided by the newer one
    await refused(`${second.slice(0, -1)}${second.endsWith('A') ? 'B' : 'A'}`);
    await refused('not-a-link');
    await t.db.sequelize.query("UPDATE user_links SET expires_at = '2020-01-01 00:00:00' WHERE user_id = :id", {
      replacements: { id: bob.id },
    });
    await refused(second);

    // A link sent before a deactivation, a deletion or a password change does nothing.
    const cy = await given(t.db).user();
    const cyLink = await mailedLink(cy.email);
    await request(t.app, { cookie: admin }).patch(`/api/users/${cy.id}/active`, { active: false });
    await refused(cyLink);
    await request(t.app, { cookie: admin }).patch(`/api/users/${cy.id}/active`, { active: true });
    await refused(cyLink);
    const dee = await given(t.db).user({ roles: ['viewer'] });
    const deeLink = await mailedLink(dee.email);
    await sendFor(dee.id);
    await refused(deeLink); // voided by the administrator's newer link

    // An invitation's token is not a reset link, nor a reset link an invitation.
    const eve = await given(t.db).user();
    receiver.clear();
    await request(t.app, { cookie: admin }).post(`/api/users/${eve.id}/invite`);
    const [invite] = await receiver.waitFor(1, 'accepted');
    const inviteToken = tokenOf(String(invite?.parsed.text).match(/\/invite\/[\w-]{43}/)?.[0] ?? '');
    await refused(inviteToken);
    const eveReset = await mailedLink(eve.email);
    const asInvite = await request(t.app).post('/api/auth/invitations/accept', reset(eveReset));
    expect(asInvite.json().code).toBe('INVALID_TOKEN');

    for (const user of [bob, cy, dee, eve]) {
      const res = await request(t.app).post('/api/auth/login', { email: user.email, password: user.password });
      expect(res.statusCode).toBe(200);
    }
  });

  it('refuses a weak or unconfirmed password with field errors, and the link still works afterwards', async () => {
    const fay = await given(t.db).user();
    receiver.clear();
    await forgot(fay.email);
    const token = tokenOf(await linkMailedTo(fay.email));
    const weak = await request(t.app).post('/api/auth/password/reset', reset(token, 'short'));
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password).toBeDefined();
    const mismatch = await request(t.app).post('/api/auth/password/reset', {
      ...reset(token),
      password_confirmation: 'another-Pass-99',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors.password_confirmation).toBeDefined();
    expect((await request(t.app).post('/api/auth/password/reset', reset(token))).statusCode).toBe(200);
  });

  it('lets an administrator send a link under the ceiling, mailed and recorded without the token', async () => {
    const gus = await given(t.db).user({ roles: ['viewer'] });
    receiver.clear();
    const before = Date.now();
    const res = await request(t.app, { cookie: admin }).post(`/api/users/${gus.id}/password-reset`);
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toEqual({ reset: { user_id: gus.id, expires_at: expect.any(String), sent: true } });
    const ttl = Date.parse(body.reset.expires_at) - before;
    expect(ttl).toBeGreaterThan(60 * 60_000 - 1000);
    expect(ttl).toBeLessThan(60 * 60_000 + 60_000);
    const link = await linkMailedTo(gus.email);
    expect((await request(t.app).post('/api/auth/password/reset', reset(tokenOf(link)))).statusCode).toBe(200);

    const rows = await t.db.sequelize.query<{ action: string; actor_id: number | null; context: unknown }>(
      `SELECT a.action, a.actor_id, a.context FROM audit_logs a JOIN audit_targets g ON g.audit_id = a.id
        WHERE g.target_id = :id AND a.action IN ('user.sendPasswordReset', 'auth.passwordReset') ORDER BY a.id`,
      { replacements: { id: gus.id }, type: QueryTypes.SELECT },
    );
    expect(rows.map((r) => [r.action, Number(r.actor_id) === gus.id])).toEqual([
      ['user.sendPasswordReset', false],
      ['auth.passwordReset', true],
    ]);
    for (const row of rows) expect(JSON.stringify(row.context)).not.toContain(tokenOf(link));
  });

  it('refuses the administrator route for the trash, an inactive account, a higher rank and without users.update', async () => {
    const post = (cookie: string | undefined, id: number) =>
      request(t.app, cookie ? { cookie } : {}).post(`/api/users/${id}/password-reset`);
    const inactive = await given(t.db).user({ active: false });
    const refusedInactive = await post(admin, inactive.id);
    expect(refusedInactive.statusCode).toBe(422);
    expect(refusedInactive.json().code).toBe('NOT_ACTIVE');
    const deleted = await given(t.db).user({ deleted: true });
    expect((await post(admin, deleted.id)).statusCode).toBe(404);
    expect((await post(admin, 999_999)).statusCode).toBe(404);
    const m = await given(t.db).user({ roles: ['manager'] });
    const manager = await loginCookie(t.app, m.email, m.password);
    const otherAdmin = await given(t.db).user({ roles: ['admin'] });
    const outranked = await post(manager, otherAdmin.id);
    expect(outranked.statusCode).toBe(403);
    expect(outranked.json().code).toBe('OUTRANKED');
    const v = await given(t.db).user({ roles: ['viewer'] });
    const viewer = await loginCookie(t.app, v.email, v.password);
    expect((await post(viewer, m.id)).statusCode).toBe(403);
    expect((await post(undefined, m.id)).statusCode).toBe(401);
    // A manager may send one to a viewer.
    expect((await post(manager, v.id)).statusCode).toBe(202);
    for (const user of [inactive, deleted, otherAdmin]) expect(await queuedFor(t, user.email)).toBe(0);
  });
});

describe('password reset without mail (no SMTP_URL)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ RESET_TTL_MINUTES: '30' });
    const a = await given(t.db).user({ roles: ['admin'] });
    admin = await loginCookie(t.app, a.email, a.password);
  });
  afterAll(async () => {
    await resetRequestsSettled();
    await t.close();
  });

  it("answers the administrator the link to pass on; 'forgot password' issues none and still answers 202", async () => {
    const hal = await given(t.db).user();
    const res = await request(t.app, { cookie: admin }).post(`/api/users/${hal.id}/password-reset`);
    expect(res.statusCode).toBe(202);
    expect(res.json().reset).toMatchObject({ user_id: hal.id, sent: false });
    expect(Date.parse(res.json().reset.expires_at) - Date.now()).toBeLessThanOrEqual(30 * 60_000);
    expect(res.json().url).toMatch(/\/reset-password\/[\w-]{43}$/);
    // Nothing carries a link for "forgot password": it must not void the one the administrator passed on.
    const asked = await request(t.app).post('/api/auth/password/forgot', { email: hal.email });
    expect(asked.statusCode).toBe(202);
    await resetRequestsSettled();
    const links = await count(t, 'SELECT COUNT(*) AS n FROM user_links WHERE user_id = :id', { id: hal.id });
    expect(links).toBe(1);
    const done = await request(t.app).post('/api/auth/password/reset', reset(tokenOf(res.json().url)));
    expect(done.statusCode).toBe(200);
  });

  it('tells webhooks that a password was reset (user.password_reset), without the link', async () => {
    await subscribe(t.db, ['user.password_reset']);
    const ike = await given(t.db).user({ name: 'Ike Reset' });
    const { url } = (await request(t.app, { cookie: admin }).post(`/api/users/${ike.id}/password-reset`)).json();
    expect(await outboxEvents(t.db)).toEqual([]);
    expect((await request(t.app).post('/api/auth/password/reset', reset(tokenOf(url)))).statusCode).toBe(200);
    const events = await outboxEvents(t.db);
    expect(events.map((e) => [e.type, (e.payload.data as { user: { id: number } }).user.id])).toEqual([
      ['user.password_reset', ike.id],
    ]);
    expect(JSON.stringify(events)).not.toContain(tokenOf(url));
  });
});

describe('"forgot password" rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      RESET_MAX_REQUESTS_PER_EMAIL: '2',
      RESET_MAX_REQUESTS_PER_IP: '5',
      METRICS_TOKEN: 'a-metrics-token-of-enough-length',
    });
  });
  afterAll(async () => {
    await resetRequestsSettled();
    await t.close();
  });
  const ask = (email: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email }, remoteAddress });

  it('limits one e-mail, known or not, across clients; then one client across e-mails; with Retry-After', async () => {
    const ivy = await given(t.db).user();
    for (const email of [ivy.email, 'nobody-here@example.com']) {
      expect((await ask(email, '10.0.0.1')).statusCode).toBe(202);
      expect((await ask(email.toUpperCase(), '10.0.0.2')).statusCode).toBe(202);
      const limited = await ask(email, '10.0.0.3');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    for (let i = 0; i < 5; i++) expect((await ask(`other${i}@example.com`, '10.0.0.9')).statusCode).toBe(202);
    expect((await ask('other-more@example.com', '10.0.0.9')).statusCode).toBe(429);
    // Another client is not held up by that one.
    expect((await ask('other-more@example.com', '10.0.0.10')).statusCode).toBe(202);
  });

  it('counts requests by outcome for the operator (GET /metrics), never per address', async () => {
    const scrape = async () => {
      await resetRequestsSettled();
      const text = (await request(t.app, { token: 'a-metrics-token-of-enough-length' }).get('/api/metrics')).body;
      const value = (outcome: string) =>
        Number(new RegExp(`^password_reset_requests_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
      return { notMailed: value('not_mailed'), limited: value('rate_limited'), text };
    };
    const before = await scrape();
    await ask('metrics-a@example.com', '10.0.1.1');
    await ask('metrics-a@example.com', '10.0.1.2');
    await ask('metrics-a@example.com', '10.0.1.3');
    const after = await scrape();
    expect(after.notMailed - before.notMailed).toBe(2);
    expect(after.limited - before.limited).toBe(1);
    expect(after.text).not.toContain('metrics-a@example.com');
  });
});

import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailSettings } from '../../src/mail/settings.js';
import { type MailSender, startMailSender } from '../../src/mail/sender.js';
import { given } from '../support/given.js';
import { loginCookie, request, sessionCookie } from '../support/http.js';
import { type SmtpReceiver, smtpReceiver } from '../support/smtp-receiver.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const NEW_PASSWORD = 'a-new-Password-7';
const accept = (token: string, password = NEW_PASSWORD) => ({ token, password, password_confirmation: password });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** An invited user's row as the list and the user page read it. */
async function invitationColumns(t: TestApp, id: number) {
  const [row] = await t.db.sequelize.query<{ sent: unknown; expires: unknown; accepted: unknown }>(
    'SELECT invitation_sent_at AS sent, invitation_expires_at AS expires, invitation_accepted_at AS accepted FROM users WHERE id = :id',
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return row;
}

describe('invitations without mail (no SMTP_URL): the answer carries the link', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ INVITE_TTL_HOURS: '48' });
    const a = await given(t.db).user({ roles: ['admin'] });
    admin = await loginCookie(t.app, a.email, a.password);
  });
  afterAll(() => t.close());

  it('invites, and the link sets the password, signs in once and shows as accepted', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'], name: 'Ann Invited' });
    const before = Date.now();
    const res = await request(t.app, { cookie: admin }).post(`/api/users/${ann.id}/invite`);
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body.invitation).toMatchObject({ user_id: ann.id, sent: false });
    const expires = Date.parse(body.invitation.expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(48 * 3_600_000 - 1000);
    expect(expires - before).toBeLessThan(48 * 3_600_000 + 60_000);
    expect(body.url).toMatch(/\/invite\/[\w-]{43}$/);

    const shown = await request(t.app, { cookie: admin }).get(`/api/users/${ann.id}`);
    expect(shown.json().item.invitation).toMatchObject({ state: 'pending', expires_at: body.invitation.expires_at });

    const accepted = await request(t.app).post('/api/auth/invitations/accept', accept(tokenOf(body.url)));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().user).toEqual({ id: ann.id, name: 'Ann Invited', email: ann.email });
    const me = await request(t.app, { cookie: sessionCookie(accepted) }).get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    // The new password signs in; the old one no longer does.
    expect(
      (await request(t.app).post('/api/auth/login', { email: ann.email, password: NEW_PASSWORD })).statusCode,
    ).toBe(200);
    expect(
      (await request(t.app).post('/api/auth/login', { email: ann.email, password: ann.password })).statusCode,
    ).toBe(401);

    const again = await request(t.app).post(
      '/api/auth/invitations/accept',
      accept(tokenOf(body.url), 'another-Pass-99'),
    );
    expect(again.statusCode).toBe(422);
    expect(again.json().code).toBe('INVALID_TOKEN');
    const after = await request(t.app, { cookie: admin }).get(`/api/users/${ann.id}`);
    expect(after.json().item.invitation.state).toBe('accepted');
    // Signed in once: no second invitation.
    const twice = await request(t.app, { cookie: admin }).post(`/api/users/${ann.id}/invite`);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().code).toBe('ALREADY_SIGNED_IN');
  });

  it('records the invitation and its acceptance, and never the token', async () => {
    const bob = await given(t.db).user();
    const { url } = (await request(t.app, { cookie: admin }).post(`/api/users/${bob.id}/invite`)).json();
    await request(t.app).post('/api/auth/invitations/accept', accept(tokenOf(url)));
    const rows = await t.db.sequelize.query<{ action: string; context: string | null; actor_id: number }>(
      `SELECT a.action, a.context, a.actor_id FROM audit_logs a JOIN audit_targets g ON g.audit_id = a.id
        WHERE g.target_id = :id AND a.action IN ('user.invite', 'auth.invitationAccept') ORDER BY a.id`,
      { replacements: { id: bob.id }, type: QueryTypes.SELECT },
    );
    expect(rows.map((r) => r.action)).toEqual(['user.invite', 'auth.invitationAccept']);
    expect(Number(rows[1]?.actor_id)).toBe(bob.id);
    for (const row of rows) expect(String(row.context)).not.toContain(tokenOf(url));
    const [stored] = await t.db.sequelize.query<{ token_hash: string }>(
      'SELECT token_hash FROM user_links WHERE user_id = :id',
      { replacements: { id: bob.id }, type: QueryTypes.SELECT },
    );
    expect(stored?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.token_hash).not.toContain(tokenOf(url));
  });

  it('voids a link by a newer invitation, a deactivation or a password change; refuses an expired or tampered one', async () => {
    const invite = async (id: number) =>
      tokenOf((await request(t.app, { cookie: admin }).post(`/api/users/${id}/invite`)).json().url);
    const refused = async (token: string) => {
      const res = await request(t.app).post('/api/auth/invitations/accept', accept(token));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN' });
      expect(res.headers['set-cookie']).toBeUndefined();
    };
    const cy = await given(t.db).user();
    const first = await invite(cy.id);
    const second = await invite(cy.id);
    await refused(first);
    await refused(`${second.slice(0, -1)}${second.endsWith('A') ? 'B' : 'A'}`);

    const dee = await given(t.db).user();
    const deeLink = await invite(dee.id);
    expect(
      (await request(t.app, { cookie: admin }).patch(`/api/users/${dee.id}/active`, { active: false })).statusCode,
    ).toBe(200);
    await refused(deeLink);
    expect((await invitationColumns(t, dee.id))?.accepted).toBeNull();
    const shown = await request(t.app, { cookie: admin }).get(`/api/users/${dee.id}`);
    expect(shown.json().item.invitation.state).toBe('expired');

    const eve = await given(t.db).user();
    const eveLink = await invite(eve.id);
    const edit = (await request(t.app, { cookie: admin }).get(`/api/users/${eve.id}/edit`)).json().item;
    const changed = await request(t.app, { cookie: admin }).put(`/api/users/${eve.id}`, {
      name: edit.name,
      email: edit.email,
      version: edit.version,
      password: 'set-By-Admin-1',
      password_confirmation: 'set-By-Admin-1',
    });
    expect(changed.statusCode).toBe(200);
    await refused(eveLink);

    const fay = await given(t.db).user();
    const fayLink = await invite(fay.id);
    await t.db.sequelize.query("UPDATE user_links SET expires_at = '2020-01-01 00:00:00' WHERE user_id = :id", {
      replacements: { id: fay.id },
    });
    await refused(fayLink);
  });

  it('lists users by their invitation state: filters[invitation]=pending, accepted, expired', async () => {
    const post = (id: number) => request(t.app, { cookie: admin }).post(`/api/users/${id}/invite`);
    const pending = await given(t.db).user({ name: 'Filter Pending' });
    const accepted = await given(t.db).user({ name: 'Filter Accepted' });
    const expired = await given(t.db).user({ name: 'Filter Expired' });
    await given(t.db).user({ name: 'Filter Never' });
    await post(pending.id);
    await request(t.app).post('/api/auth/invitations/accept', accept(tokenOf((await post(accepted.id)).json().url)));
    await post(expired.id);
    await t.db.sequelize.query("UPDATE users SET invitation_expires_at = '2020-01-01 00:00:00' WHERE id = :id", {
      replacements: { id: expired.id },
    });
    const names = async (query: string) =>
      (await request(t.app, { cookie: admin }).get(`/api/users?q=Filter&perPage=100&${query}`))
        .json()
        .rows.map((r: { name: string }) => r.name)
        .sort();
    expect(await names('filters[invitation]=pending')).toEqual(['Filter Pending']);
    expect(await names('filters[invitation]=accepted')).toEqual(['Filter Accepted']);
    expect(await names('filters[invitation]=expired')).toEqual(['Filter Expired']);
    expect(await names('filters[invitation][]=pending&filters[invitation][]=expired')).toEqual([
      'Filter Expired',
      'Filter Pending',
    ]);
    const wrong = await request(t.app, { cookie: admin }).get('/api/users?filters[invitation]=sent');
    expect(wrong.statusCode).toBe(422);
  });

  it('invites only live, active, never-signed-in users under the caller ceiling, with users.update', async () => {
    const post = (cookie: string, id: number) => request(t.app, { cookie }).post(`/api/users/${id}/invite`);
    const inactive = await given(t.db).user({ active: false });
    expect((await post(admin, inactive.id)).json()).toMatchObject({ code: 'NOT_ACTIVE' });
    const deleted = await given(t.db).user({ deleted: true });
    expect((await post(admin, deleted.id)).statusCode).toBe(404);
    const m = await given(t.db).user({ roles: ['manager'] });
    const manager = await loginCookie(t.app, m.email, m.password);
    const otherAdmin = await given(t.db).user({ roles: ['admin'] });
    const outranked = await post(manager, otherAdmin.id);
    expect(outranked.statusCode).toBe(403);
    expect(outranked.json().code).toBe('OUTRANKED');
    const v = await given(t.db).user({ roles: ['viewer'] });
    const viewer = await loginCookie(t.app, v.email, v.password);
    expect((await post(viewer, inactive.id)).statusCode).toBe(403);
    expect((await request(t.app).post(`/api/users/${inactive.id}/invite`)).statusCode).toBe(401);
    // A weak password is refused by the policy, and the link still works afterwards.
    const gus = await given(t.db).user();
    const link = tokenOf((await post(admin, gus.id)).json().url);
    const weak = await request(t.app).post('/api/auth/invitations/accept', accept(link, 'short'));
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password).toBeDefined();
    expect((await request(t.app).post('/api/auth/invitations/accept', accept(link))).statusCode).toBe(200);
  });
});

describe('invitations by mail: a real SMTP server receives the link, and the link signs in', () => {
  let t: TestApp;
  let receiver: SmtpReceiver;
  let sender: MailSender;
  let admin: string;
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
    admin = await loginCookie(t.app, a.email, a.password);
  });
  afterAll(async () => {
    await sender.stop();
    await t.close();
    await receiver.close();
  });

  it('mails the invitation (no link in the answer), and following the link signs the person in', async () => {
    const ida = await given(t.db).user({ name: 'Ida <Mail>' });
    const res = await request(t.app, { cookie: admin }).post(`/api/users/${ida.id}/invite`);
    expect(res.statusCode).toBe(202);
    expect(res.json().invitation.sent).toBe(true);
    expect(res.json().url).toBeUndefined();
    const [mail] = await receiver.waitFor(1, 'accepted');
    expect(mail?.rcptTo).toEqual([ida.email]);
    const text = String(mail?.parsed.text);
    const link = text.match(/https:\/\/admin\.example\.com\/invite\/[\w-]{43}/)?.[0];
    expect(link).toBeDefined();
    expect(String(mail?.parsed.html)).toContain(link as string);
    expect(String(mail?.parsed.html)).toContain('Ida &lt;Mail&gt;');
    const accepted = await request(t.app).post('/api/auth/invitations/accept', accept(tokenOf(link as string)));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().user.id).toBe(ida.id);
  });

  it('sends nothing for an invitation that was refused', async () => {
    receiver.clear();
    const signedIn = await given(t.db).user();
    await loginCookie(t.app, signedIn.email, signedIn.password);
    const res = await request(t.app, { cookie: admin }).post(`/api/users/${signedIn.id}/invite`);
    expect(res.json().code).toBe('ALREADY_SIGNED_IN');
    const [{ queued }] = (await t.db.sequelize.query<{ queued: number | string }>(
      'SELECT COUNT(*) AS queued FROM mail_outbox WHERE recipient = :to',
      { replacements: { to: signedIn.email }, type: QueryTypes.SELECT },
    )) as [{ queued: number | string }];
    expect(Number(queued)).toBe(0);
  });
});

import { createHmac, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given, type GivenUser } from '../support/given.js';
import { loginCookie, request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** RFC 6238 computed by hand (HMAC-SHA-1, dynamic truncation), to check the library against. */
function rfc6238(secret: Buffer, unixSeconds: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = (mac[mac.length - 1] as number) & 0xf;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

/** Every cookie a response sets, as `name=value` pairs to send back. */
function cookiesOf(res: LightMyRequestResponse): Record<string, string> {
  const header = res.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  return Object.fromEntries(
    all.map((c) => {
      const pair = c.split(';')[0] as string;
      return [pair.slice(0, pair.indexOf('=')), pair];
    }),
  );
}

let t: TestApp;
let admin: string;

/** Signs in, sets up and confirms a second factor; answers the secret and the recovery codes. */
async function enrolled(user: GivenUser): Promise<{ secret: string; recovery: string[]; cookie: string }> {
  const cookie = await loginCookie(t.app, user.email, user.password);
  const setup = await request(t.app, { cookie }).post('/api/account/two-factor');
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json();
  const confirmed = await request(t.app, { cookie }).post('/api/account/two-factor/confirm', {
    code: codeAt(secret, Date.now()),
  });
  expect(confirmed.statusCode).toBe(200);
  return { secret, recovery: confirmed.json().recovery_codes, cookie };
}

/** The password step: answers the challenge cookie (`tfa=…`). */
async function passwordStep(user: GivenUser): Promise<string> {
  const res = await request(t.app).post('/api/auth/login', { email: user.email, password: user.password });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ two_factor_required: true });
  const cookies = cookiesOf(res);
  expect(cookies.sid).toBeUndefined();
  expect(cookies.tfa).toBeDefined();
  return cookies.tfa as string;
}

const secondStep = (challenge: string | undefined, body: Record<string, string>) =>
  request(t.app, challenge ? { cookie: challenge } : {}).post('/api/auth/two-factor', body);

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_EMAIL: '8', SECRETS_KEY: randomBytes(32).toString('base64') });
  const a = await given(t.db).user({ roles: ['admin'] });
  admin = await loginCookie(t.app, a.email, a.password);
});
afterAll(() => t.close());

describe('TOTP codes', () => {
  it('are RFC 6238 codes: the library agrees with the RFC test vectors and a hand-made HMAC', () => {
    const rfcSecret = Buffer.from('12345678901234567890');
    // RFC 6238 appendix B, SHA-1, 8 digits.
    expect(rfc6238(rfcSecret, 59, 8)).toBe('94287082');
    expect(rfc6238(rfcSecret, 1111111109, 8)).toBe('07081804');
    expect(rfc6238(rfcSecret, 20000000000, 8)).toBe('65353130');
    const base32 = new Secret({ buffer: new Uint8Array(rfcSecret).buffer }).base32;
    expect(codeAt(base32, 1111111109_000)).toBe(rfc6238(rfcSecret, 1111111109));
  });
});

describe('enrolment', () => {
  it('answers a base32 secret and its otpauth URL, then ten recovery codes for the first code', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'] });
    const cookie = await loginCookie(t.app, ann.email, ann.password);
    const setup = await request(t.app, { cookie }).post('/api/account/two-factor');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain('algorithm=SHA1');
    expect(otpauth_url).toContain('digits=6');
    expect(otpauth_url).toContain('period=30');
    // Pending: not on until confirmed.
    expect((await request(t.app, { cookie }).get('/api/auth/me')).json().two_factor).toEqual({
      enrolled: false,
      required: false,
    });
    const wrong = await request(t.app, { cookie }).post('/api/account/two-factor/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toBeDefined();
    const ok = await request(t.app, { cookie }).post('/api/account/two-factor/confirm', {
      code: codeAt(secret, Date.now()),
    });
    expect(ok.statusCode).toBe(200);
    const codes: string[] = ok.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect((await request(t.app, { cookie }).get('/api/auth/me')).json().two_factor.enrolled).toBe(true);
    expect((await request(t.app, { cookie }).get('/api/account')).json().item.two_factor.enrolled).toBe(true);
    // A second set-up would replace the app silently: turn it off first.
    expect((await request(t.app, { cookie }).post('/api/account/two-factor')).json().code).toBe('TWO_FACTOR_ENROLLED');
  });

  it('keeps the secret sealed and the recovery codes hashed at rest', async () => {
    const ann = await given(t.db).user();
    const { secret, recovery } = await enrolled(ann);
    const [row] = await t.db.sequelize.query<{ two_factor_secret: string }>(
      'SELECT two_factor_secret FROM users WHERE id = :id',
      { replacements: { id: ann.id }, type: QueryTypes.SELECT },
    );
    expect(row?.two_factor_secret).toMatch(/^v1\./);
    expect(row?.two_factor_secret).not.toContain(secret);
    const stored = await t.db.sequelize.query<{ code_hash: string }>(
      'SELECT code_hash FROM two_factor_recovery_codes WHERE user_id = :id',
      { replacements: { id: ann.id }, type: QueryTypes.SELECT },
    );
    expect(stored).toHaveLength(10);
    for (const code of recovery) {
      expect(stored.some((s) => s.code_hash.includes(code.replace('-', '')))).toBe(false);
    }
  });
});

describe('sign-in with a second factor', () => {
  it('asks for the code after the password, opens no session until then, and signs in with it', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'] });
    const { secret } = await enrolled(ann);
    const challenge = await passwordStep(ann);
    // The challenge is no session.
    expect((await request(t.app, { cookie: challenge }).get('/api/auth/me')).statusCode).toBe(401);
    // The code of the next step: the enrolment used the current one.
    const res = await secondStep(challenge, { code: codeAt(secret, Date.now() + 30_000) });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: ann.id, email: ann.email });
    expect(res.json().two_factor).toEqual({ enrolled: true, required: false });
    const sid = cookiesOf(res).sid as string;
    expect((await request(t.app, { cookie: sid }).get('/api/auth/me')).statusCode).toBe(200);
    const sessions = await t.db.sequelize.query<{ second_factor: string | null }>(
      'SELECT second_factor FROM sessions WHERE user_id = :id',
      { replacements: { id: ann.id }, type: QueryTypes.SELECT },
    );
    // The enrolment's own session (password only) and the new one (password and code).
    expect(sessions.map((s) => s.second_factor).sort()).toEqual(['totp', null].sort());
    // The challenge worked once.
    const again = await secondStep(challenge, { code: codeAt(secret, Date.now()) });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
  });

  it('takes a code once: the same code, or an earlier step, is refused afterwards', async () => {
    const ann = await given(t.db).user();
    const { secret } = await enrolled(ann);
    const next = codeAt(secret, Date.now() + 30_000);
    expect((await secondStep(await passwordStep(ann), { code: next })).statusCode).toBe(200);
    const replay = await secondStep(await passwordStep(ann), { code: next });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.code).toBeDefined();
    // The current step is earlier than the one just used.
    const earlier = await secondStep(await passwordStep(ann), { code: codeAt(secret, Date.now()) });
    expect(earlier.statusCode).toBe(422);
  });

  it('accepts a code one step either side of now, and none further off', async () => {
    const ann = await given(t.db).user();
    const { secret } = await enrolled(ann);
    const now = Date.now();
    const stale = await secondStep(await passwordStep(ann), { code: codeAt(secret, now - 90_000) });
    expect(stale.statusCode).toBe(422);
    const early = await secondStep(await passwordStep(ann), { code: codeAt(secret, now + 90_000) });
    expect(early.statusCode).toBe(422);
    expect((await secondStep(await passwordStep(ann), { code: codeAt(secret, now + 30_000) })).statusCode).toBe(200);
  });

  it('takes each recovery code once, in either case and with or without its dash', async () => {
    const ann = await given(t.db).user();
    const { recovery } = await enrolled(ann);
    const code = recovery[0] as string;
    const res = await secondStep(await passwordStep(ann), { recovery_code: code.toUpperCase().replace('-', '') });
    expect(res.statusCode).toBe(200);
    const sessions = await t.db.sequelize.query<{ second_factor: string | null }>(
      'SELECT second_factor FROM sessions WHERE user_id = :id AND second_factor IS NOT NULL',
      { replacements: { id: ann.id }, type: QueryTypes.SELECT },
    );
    expect(sessions.map((s) => s.second_factor)).toEqual(['recovery']);
    const reused = await secondStep(await passwordStep(ann), { recovery_code: code });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors.recovery_code).toBeDefined();
    expect((await secondStep(await passwordStep(ann), { recovery_code: recovery[1] as string })).statusCode).toBe(200);
  });

  it('binds the second step to the client that gave the password, for five minutes', async () => {
    const ann = await given(t.db).user();
    const { secret } = await enrolled(ann);
    const challenge = await passwordStep(ann);
    const code = codeAt(secret, Date.now() + 30_000);
    // Another client (no challenge cookie, or a made-up one) gets nothing.
    expect((await secondStep(undefined, { code })).json().code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    expect((await secondStep('tfa=made-up', { code })).json().code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    // Five minutes later it is over.
    await t.db.sequelize.query('UPDATE two_factor_challenges SET expires_at = :past WHERE user_id = :id', {
      replacements: { id: ann.id, past: new Date(Date.now() - 1000) },
    });
    const late = await secondStep(challenge, { code });
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
  });

  it('ends a challenge after five wrong codes, records each as a failed sign-in, and limits the account', async () => {
    const ann = await given(t.db).user();
    const { secret } = await enrolled(ann);
    const challenge = await passwordStep(ann);
    for (let i = 0; i < 5; i += 1) {
      expect((await secondStep(challenge, { code: '000000' })).statusCode).toBe(422);
    }
    const after = await secondStep(challenge, { code: codeAt(secret, Date.now() + 30_000) });
    expect(after.json().code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    const failed = await t.db.sequelize.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM audit_logs a JOIN audit_targets g ON g.audit_id = a.id
        WHERE a.action = 'auth.loginFailed' AND g.target_id = :id`,
      { replacements: { id: ann.id }, type: QueryTypes.SELECT },
    );
    expect(Number(failed[0]?.n)).toBe(5);
    // A fresh password step buys no fresh guesses: the account's count (8 here) runs out.
    const next = await passwordStep(ann);
    expect((await secondStep(next, { code: '000000' })).statusCode).toBe(422);
    expect((await secondStep(next, { code: '000000' })).statusCode).toBe(422);
    const limited = await secondStep(next, { code: '000000' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('signs in through the tRPC door too', async () => {
    const ann = await given(t.db).user();
    const { secret } = await enrolled(ann);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/trpc/auth.login',
      payload: { email: ann.email, password: ann.password },
    });
    expect(login.json().result.data).toEqual({ two_factor_required: true });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/trpc/twoFactor.signIn',
      headers: { cookie: cookiesOf(login).tfa as string },
      payload: { code: codeAt(secret, Date.now() + 30_000) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().result.data.user.id).toBe(ann.id);
  });
});

describe('turning it off and resetting it', () => {
  it('turns off with a code (DELETE body), after which the password alone signs in', async () => {
    const ann = await given(t.db).user();
    const { secret, cookie } = await enrolled(ann);
    const del = (payload: object) =>
      t.app.inject({ method: 'DELETE', url: '/api/account/two-factor', headers: { cookie }, payload });
    expect((await del({ code: '000000' })).statusCode).toBe(422);
    const off = await del({ code: codeAt(secret, Date.now() + 30_000) });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ two_factor: { enrolled: false, required: false } });
    expect((await del({ code: codeAt(secret, Date.now()) })).json().code).toBe('TWO_FACTOR_NOT_ENROLLED');
    const login = await request(t.app).post('/api/auth/login', { email: ann.email, password: ann.password });
    expect(login.json().user.id).toBe(ann.id);
  });

  it('lets an administrator reset a second factor under the ceiling, audited', async () => {
    const ann = await given(t.db).user({ roles: ['viewer'] });
    await enrolled(ann);
    const res = await request(t.app, { cookie: admin }).delete(`/api/users/${ann.id}/two-factor`);
    expect(res.statusCode).toBe(204);
    const login = await request(t.app).post('/api/auth/login', { email: ann.email, password: ann.password });
    expect(login.json().user.id).toBe(ann.id);
    const again = await request(t.app, { cookie: admin }).delete(`/api/users/${ann.id}/two-factor`);
    expect(again.json().code).toBe('TWO_FACTOR_NOT_ENROLLED');
    const rows = await t.db.sequelize.query<{ action: string }>(
      `SELECT a.action FROM audit_logs a JOIN audit_targets g ON g.audit_id = a.id
        WHERE g.target_id = :id AND a.action LIKE '%wo%actor%'`,
      { replacements: { id: ann.id }, type: QueryTypes.SELECT },
    );
    expect(rows.map((r) => r.action).sort()).toEqual(['account.twoFactorEnable', 'user.twoFactorReset']);
  });

  it('refuses a manager resetting an administrator (the ceiling) and a viewer altogether', async () => {
    const boss = await given(t.db).user({ roles: ['admin'] });
    await enrolled(boss);
    const m = await given(t.db).user({ roles: ['manager'] });
    const manager = await loginCookie(t.app, m.email, m.password);
    const outranked = await request(t.app, { cookie: manager }).delete(`/api/users/${boss.id}/two-factor`);
    expect(outranked.statusCode).toBe(403);
    expect(outranked.json().code).toBe('OUTRANKED');
    const v = await given(t.db).user({ roles: ['viewer'] });
    const viewer = await loginCookie(t.app, v.email, v.password);
    const forbidden = await request(t.app, { cookie: viewer }).delete(`/api/users/${boss.id}/two-factor`);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('FORBIDDEN');
  });
});

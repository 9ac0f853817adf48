import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    LOGIN_MAX_ATTEMPTS_PER_EMAIL: '3',
    LOGIN_MAX_ATTEMPTS_PER_IP: '12',
    LOGIN_WINDOW_MINUTES: '15',
  });
});
afterAll(() => t.close());

const attempt = (email: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

describe('login rate limits', () => {
  it('locks an e-mail after repeated failures, with Retry-After, even for the right password', async () => {
    const ann = await given(t.db).user();
    for (let i = 0; i < 3; i++) expect((await attempt(ann.email, 'wrong-password', '10.0.1.1')).statusCode).toBe(401);
    const limited = await attempt(ann.email, ann.password, '10.0.1.2');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(limited.json().detail).toMatch(/Try again in 15 minutes\./);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
  });

  it('sends Retry-After on the tRPC door too', async () => {
    const cy = await given(t.db).user();
    const viaTrpc = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/trpc/auth.login',
        payload: { email: cy.email, password: 'wrong-password' },
        remoteAddress: '10.0.4.1',
      });
    for (let i = 0; i < 3; i++) expect((await viaTrpc()).statusCode).toBe(401);
    const limited = await viaTrpc();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.data.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
  });

  it('clears the e-mail count after a successful login', async () => {
    const bob = await given(t.db).user();
    for (let i = 0; i < 2; i++) await attempt(bob.email, 'wrong-password', '10.0.2.1');
    expect((await attempt(bob.email, bob.password, '10.0.2.1')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await attempt(bob.email, 'wrong-password', '10.0.2.1')).statusCode).toBe(401);
  });

  it('limits every attempt from one IP, whichever e-mails it tries', async () => {
    for (let i = 0; i < 12; i++) {
      expect((await attempt(`spray${i}@example.com`, 'guess-guess', '10.0.3.1')).statusCode).toBe(401);
    }
    const limited = await attempt('spray-next@example.com', 'guess-guess', '10.0.3.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another client is unaffected.
    expect((await attempt('spray-next@example.com', 'guess-guess', '10.0.3.2')).statusCode).toBe(401);
  });

  it('counts in the database, so every instance shares the limit', async () => {
    const [rows] = await t.db.sequelize.query('SELECT bucket, hits FROM rate_limits');
    const buckets = rows as Array<{ bucket: string; hits: number }>;
    expect(buckets.length).toBeGreaterThan(0);
    // Subjects are hashed: no e-mail or IP address in clear.
    expect(JSON.stringify(buckets)).not.toMatch(/@|10\.0\./);
  });
});

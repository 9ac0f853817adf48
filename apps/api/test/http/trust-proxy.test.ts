import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

// A small per-IP limit, and a per-e-mail one out of the way: every attempt uses a new e-mail.
const LIMITS = { LOGIN_MAX_ATTEMPTS_PER_IP: '5', LOGIN_MAX_ATTEMPTS_PER_EMAIL: '1000' };
const PER_IP = 5;

const forged = () => `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
let attempts = 0;

/**
 * A failed login as it arrives from the proxy: the client wrote whatever it liked in
 * `X-Forwarded-For`, the proxy appended the address it saw. `app.inject` connects from
 * 127.0.0.1, the proxy here, unless `from` says otherwise. Attempts alternate between the REST
 * and the tRPC door: one limit counts both.
 */
function failedLogin(t: TestApp, client: string, from = '127.0.0.1') {
  attempts += 1;
  return t.app.inject({
    method: 'POST',
    url: attempts % 2 === 0 ? '/api/auth/login' : '/api/trpc/auth.login',
    remoteAddress: from,
    headers: { 'x-forwarded-for': `${forged()}, ${forged()}, ${client}` },
    payload: { email: `nobody-${attempts}@example.com`, password: 'wrong-password' },
  });
}

async function expectLimitedAfter(t: TestApp, client: string, from?: string) {
  for (let i = 0; i < PER_IP; i++)
    expect((await failedLogin(t, client, from)).statusCode, `attempt ${i + 1}`).toBe(401);
  const limited = await failedLogin(t, client, from);
  expect(limited.statusCode).toBe(429);
  const body = limited.json();
  expect(body.code ?? body.error?.data?.code).toBe('RATE_LIMITED');
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
}

describe.each(['1', '127.0.0.1'])('behind a proxy, with TRUST_PROXY=%s', (trustProxy) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ...LIMITS, TRUST_PROXY: trustProxy });
  });
  afterAll(() => t.close());

  it('stops a client that rotates its X-Forwarded-For entries at the per-IP login limit', async () => {
    await expectLimitedAfter(t, '203.0.113.7');
  });

  it('counts two real clients behind the same proxy separately', async () => {
    await expectLimitedAfter(t, '203.0.113.20');
    expect((await failedLogin(t, '203.0.113.21')).statusCode).toBe(401);
    expect((await failedLogin(t, '203.0.113.20')).statusCode).toBe(429);
  });
});

describe('with TRUST_PROXY naming the proxy (127.0.0.1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ...LIMITS, TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('counts a client that reaches the app directly by its own address, whatever it forwards', async () => {
    // Each attempt claims a fresh "client" address; none is believed, since the peer is no proxy.
    for (let i = 0; i < PER_IP; i++) {
      expect((await failedLogin(t, forged(), '198.51.100.9')).statusCode).toBe(401);
    }
    expect((await failedLogin(t, forged(), '198.51.100.9')).statusCode).toBe(429);
  });

  it('counts one IPv6 /64 as one client, and an IPv4-mapped address as its IPv4 address', async () => {
    // One client's /64 holds 2^64 addresses: a fresh one per attempt must not mean a fresh limit.
    for (let i = 0; i < PER_IP; i++) {
      const address = `2001:db8:7:64:${randomInt(1, 0xffff).toString(16)}::${i + 1}`;
      expect((await failedLogin(t, address)).statusCode, address).toBe(401);
    }
    expect((await failedLogin(t, '2001:db8:7:64:ffff:ffff:ffff:fffe')).statusCode).toBe(429);
    // The next /64 is another client.
    expect((await failedLogin(t, '2001:db8:7:65::1')).statusCode).toBe(401);
    // A dual-stack socket reports an IPv4 client as ::ffff:a.b.c.d: one client, one count.
    for (let i = 0; i < PER_IP; i++) expect((await failedLogin(t, '203.0.113.66')).statusCode).toBe(401);
    expect((await failedLogin(t, '::ffff:203.0.113.66')).statusCode).toBe(429);
    expect((await failedLogin(t, '::ffff:cb00:7142')).statusCode).toBe(429);
  });
});

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(LIMITS);
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: every attempt counts against the peer that sent it', async () => {
    for (let i = 0; i < PER_IP; i++) expect((await failedLogin(t, forged())).statusCode).toBe(401);
    expect((await failedLogin(t, forged())).statusCode).toBe(429);
  });
});

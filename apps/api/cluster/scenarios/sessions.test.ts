import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, type Cluster, login, startCluster } from '../bed/cluster.js';
import { waitFor } from '../bed/ports.js';

let c: Cluster;

beforeAll(async () => {
  c = await startCluster({ name: 'sessions', demoUsers: 50 });
});
afterAll(() => c?.close());

const [A, B] = [0, 1];
const url = (i: number) => c.instances[i]?.baseUrl as string;

async function loginAttempt(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('sessions and limits across instances', () => {
  it('a session made on instance A works on instance B, and ends on both at logout', async () => {
    const cookie = await login(url(A));
    const onB = await fetch(`${url(B)}/api/auth/me`, { headers: { cookie } });
    expect(onB.status).toBe(200);
    expect(((await onB.json()) as { user: { email: string } }).user.email).toBe(ADMIN_EMAIL);

    const out = await fetch(`${url(B)}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(out.status).toBeLessThan(300);
    const onA = await fetch(`${url(A)}/api/auth/me`, { headers: { cookie } });
    expect(onA.status).toBe(401);
  });

  it('counts login attempts once across both instances', async () => {
    // LOGIN_MAX_ATTEMPTS_PER_EMAIL is 5: three wrong passwords on A and two on B use them up.
    const email = 'nobody-in-particular@cluster.test';
    const statuses: number[] = [];
    for (const i of [A, A, A, B, B]) statuses.push(await loginAttempt(url(i), email, 'wrong-password-1'));
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(await loginAttempt(url(A), email, 'wrong-password-1')).toBe(429);
    expect(await loginAttempt(url(B), email, 'wrong-password-1')).toBe(429);
  });

  it('counts exports once across both instances (10 a minute per user)', async () => {
    const cookie = await login(url(A));
    const statuses: number[] = [];
    for (let n = 0; n < 11; n++) {
      const res = await fetch(`${url(n % 2 === 0 ? A : B)}/api/users/export?format=csv`, {
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });

  it('keeps one request id across the balancer and the instance, given or made by the balancer', async () => {
    const cookie = await login(c.lb.baseUrl);
    const given = await fetch(`${c.lb.baseUrl}/api/users?perPage=5`, {
      headers: { cookie, 'x-request-id': 'support-ticket-4711' },
    });
    await given.arrayBuffer();
    expect(given.headers.get('x-request-id')).toBe('support-ticket-4711');

    const made = await fetch(`${c.lb.baseUrl}/api/users?perPage=5`, { headers: { cookie } });
    await made.arrayBuffer();
    const id = made.headers.get('x-request-id') as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    for (const reqId of ['support-ticket-4711', id]) {
      // The balancer's access log line and the serving instance's own lines name the same id.
      await waitFor(`the balancer to log ${reqId}`, async () => c.lb.logs.some((l) => l.includes(`reqid=${reqId}`)));
      const served = c.instances.filter((i) => i.logs.some((l) => l.reqId === reqId));
      expect(served).toHaveLength(1);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const METRICS_TOKEN = 'a-metrics-token-of-enough-length';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN });
  const g = given(t.db);
  admin = await g.token((await g.user({ roles: ['admin'] })).id);
});
afterAll(() => t.close());

const scrape = async () => {
  const res = await request(t.app, { token: METRICS_TOKEN }).get('/api/metrics');
  expect(res.statusCode).toBe(200);
  return res.body;
};

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
const sample = (body: string, line: string) => {
  const found = body.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};

describe('GET /api/metrics', () => {
  it('answers only a scraper holding the metrics token; a session or API token is not enough', async () => {
    const none = await request(t.app).get('/api/metrics');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(none.json().code).toBe('UNAUTHENTICATED');
    expect((await request(t.app, { token: admin }).get('/api/metrics')).statusCode).toBe(401);
    expect((await request(t.app, { token: `${METRICS_TOKEN}x` }).get('/api/metrics')).statusCode).toBe(401);
    const ok = await request(t.app, { token: METRICS_TOKEN }).get('/api/metrics');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers['cache-control']).toBe('no-store');
  });

  it('counts requests and their latency by route pattern and status, through both doors', async () => {
    const before = await scrape();
    const line = 'http_requests_total{method="GET",route="/api/users/:id",status="404"}';
    const was = sample(before, line) ?? 0;
    for (const id of [999_001, 999_002, 999_003]) {
      expect((await request(t.app, { token: admin }).get(`/api/users/${id}`)).statusCode).toBe(404);
    }
    await request(t.app, { token: admin }).get('/api/trpc/users.list?input=%7B%7D');
    await request(t.app, { token: admin }).get('/api/trpc/users.list,auth.me?batch=1&input=%7B%7D');
    const after = await scrape();
    // One pattern for every id: the URL itself never becomes a label.
    expect(sample(after, line)).toBe(was + 3);
    expect(after).not.toContain('999001');
    expect(after).toMatch(/http_requests_total\{method="GET",route="\/api\/trpc\/users\.list",status="200"\} \d+/);
    expect(after).toMatch(/http_requests_total\{method="GET",route="\/api\/trpc\/\(batch\)",status="\d+"\} \d+/);
    expect(sample(after, 'http_request_duration_seconds_count{method="GET",route="/api/users/:id",status="404"}')).toBe(
      was + 3,
    );
    expect(after).toContain('http_request_duration_seconds_bucket{le="0.05",method="GET",route="/api/users/:id"');
  });

  it('reports exports in progress (none once a download has ended) and the process', async () => {
    const res = await request(t.app, { token: admin }).get('/api/users/export?format=csv');
    expect(res.statusCode).toBe(200);
    const body = await scrape();
    expect(sample(body, 'exports_in_progress')).toBe(0);
    expect(body).toMatch(/http_requests_total\{method="GET",route="\/api\/users\/export",status="200"\} 1/);
    expect(sample(body, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(body).toContain('nodejs_eventloop_lag_p99_seconds');
  });

  it('reports the database pool: connections in use, idle, and requests waiting for one', async () => {
    const body = await scrape();
    for (const state of ['size', 'using', 'available'])
      expect(sample(body, `db_pool_connections{pool="primary",state="${state}"}`)).toBeGreaterThanOrEqual(0);
    expect(sample(body, 'db_pool_connections{pool="primary",state="waiting"}')).toBe(0);
    // No replica configured: no replica pool.
    expect(body).not.toContain('pool="replica"');
  });
});

describe('GET /api/metrics without METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const plain = await startTestApp();
    try {
      const res = await request(plain.app).get('/api/metrics');
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    } finally {
      await plain.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, login, startCluster } from '../bed/cluster.js';
import { describeLoad, failuresOf, loadOn } from '../bed/load.js';
import { sleep, waitFor } from '../bed/ports.js';

let c: Cluster;
let cookie: string;

beforeAll(async () => {
  c = await startCluster({ name: 'replica-gone', demoUsers: 500 });
  cookie = await login(c.lb.baseUrl);
});
afterAll(() => c?.close());

interface Ready {
  checks: { primary: string; replicas: Array<{ name: string; status: string }> };
}

async function ready(base: string) {
  const res = await fetch(`${base}/api/ready`);
  return { status: res.status, body: (await res.json()) as Ready };
}

describe('a replica that goes away', () => {
  it('reads fall back to the primary with a warning, and no request fails', async () => {
    const before = await ready(c.lb.baseUrl);
    expect(before.body.checks).toEqual({
      database: 'ok',
      primary: 'ok',
      replicas: [{ name: `127.0.0.1:${c.replica.port}`, status: 'ok' }],
    });

    const load = loadOn(c, cookie, { exportEveryMs: 3_000 });
    await sleep(3_000);
    const killedAt = Date.now();
    await c.replica.kill();
    await sleep(6_000);

    // Still ready (the primary answers every read), and the replica is reported down.
    for (const instance of c.instances) {
      const r = await ready(instance.baseUrl);
      expect(r.status).toBe(200);
      expect(r.body.checks.replicas).toEqual([{ name: `127.0.0.1:${c.replica.port}`, status: 'down' }]);
    }
    const report = await load.stop();
    console.log(describeLoad('replica gone', report));
    expect(failuresOf(report)).toEqual([]);
    expect(report.outcomes.filter((o) => o.at > killedAt && o.kind === 'list').length).toBeGreaterThan(10);
    // Each instance says so once; its log line is read from the process's output as it comes.
    const warned = () =>
      c.instances.every((instance) =>
        instance.logs.some((l) => l.level === 40 && /read replica cannot be reached/.test(l.msg)),
      );
    await waitFor('each instance to warn that the replica cannot be reached', async () => warned(), 5_000);

    // The replica comes back: it catches up, is reported ok, and lists use it again.
    await c.replica.start();
    await waitFor('the replica to be reported ok', async () => {
      const r = await ready(c.lb.baseUrl);
      return r.body.checks.replicas[0]?.status === 'ok';
    });
    await sleep(5_500);
    const list = await fetch(`${c.lb.baseUrl}/api/users`, { headers: { cookie } });
    expect(list.status).toBe(200);
    await waitFor('an instance to say lists use the replica again', async () => {
      await (await fetch(`${c.lb.baseUrl}/api/users?page=2`, { headers: { cookie } })).arrayBuffer();
      return c.instances.some((i) => i.logs.some((l) => /read replicas answer again/.test(l.msg)));
    });
  });
});

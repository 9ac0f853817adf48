import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, login, startCluster } from '../bed/cluster.js';
import { expectConsistent } from '../bed/integrity.js';
import { describeLoad, failuresOf, loadOn } from '../bed/load.js';
import { sleep, waitFor } from '../bed/ports.js';

let c: Cluster;
let cookie: string;

beforeAll(async () => {
  // A short statement limit, so the frozen primary below fails requests in 3 s, not 30.
  c = await startCluster({ name: 'db-gone', demoUsers: 1_000, env: { DATABASE_STATEMENT_TIMEOUT_SECONDS: '3' } });
  cookie = await login(c.lb.baseUrl);
});
afterAll(() => c?.close());

const SEQUELIZE_DROPPED_CONNECTION =
  /^(Rolling back|Committing) transaction [\w-]+ failed with error .*We are killing its connection as it is now in an undetermined state\.$/;

const readyStatus = async (base: string) => {
  const res = await fetch(`${base}/api/ready`, { signal: AbortSignal.timeout(5_000) });
  await res.arrayBuffer();
  return res.status;
};

describe('the primary goes away for 10 s under load', () => {
  it('answers 503 UNAVAILABLE meanwhile, recovers without a restart, and loses nothing', async () => {
    const pids = c.instances.map((i) => i.pid);
    const load = loadOn(c, cookie, {
      exportEveryMs: 4_000,
      // Never a hang: every request is answered within the database driver's connect timeout.
      timeoutMs: 15_000,
      unavailableIsExpected: true,
    });
    await sleep(5_000);

    const killedAt = Date.now();
    await c.primary.kill();
    const red = await Promise.all(
      c.instances.map((i) => waitFor(`${i.name} to say not ready`, async () => (await readyStatus(i.baseUrl)) === 503)),
    );
    await sleep(Math.max(0, killedAt + 10_000 - Date.now()));

    const restartedAt = Date.now();
    await c.primary.start();
    const green = await Promise.all(
      c.instances.map((i) =>
        waitFor(`${i.name} to be ready again`, async () => (await readyStatus(i.baseUrl)) === 200),
      ),
    );
    for (const i of c.instances) await c.lb.waitForServer(i.name, 'UP');
    const backAt = Date.now();
    await sleep(5_000);
    const report = await load.stop();

    console.log(describeLoad('database gone', report));
    console.log(
      `database gone: ready red after ${red.join(' / ')} ms; green ${green.join(' / ')} ms after the primary restarted; ` +
        `balancer back ${backAt - restartedAt} ms after it`,
    );
    // Only 2xx and the contract's 503: no 500, no stack, no hang, no export cut short.
    expect(failuresOf(report)).toEqual([]);
    expect(report.unavailable).toBeGreaterThan(0);
    // Recovered without a restart: the same processes answer, and every request after is 2xx.
    expect(c.instances.map((i) => i.pid)).toEqual(pids);
    expect(c.instances.every((i) => i.exits.length === 0)).toBe(true);
    const after = report.outcomes.filter((o) => o.at > backAt + 1_000);
    expect(after.length).toBeGreaterThan(20);
    expect(after.filter((o) => o.status !== 200)).toEqual([]);
    // Nothing the API answered while the database was away carried a stack or SQL.
    for (const i of c.instances) {
      // Sequelize itself says on stderr (console.warn) when it drops a connection whose ROLLBACK
      // could not be sent; that line carries no SQL and no data. Anything else is a failure.
      expect(i.stderr.filter((l) => !SEQUELIZE_DROPPED_CONNECTION.test(l))).toEqual([]);
      expect(i.logs.filter((l) => l.level >= 50)).toEqual([]);
    }

    const checked = await expectConsistent(c.primary, report);
    console.log(
      `database gone: ${checked.bulksChecked} bulks all-or-nothing, ${checked.events} events, ${checked.usersWithHistory} users' state equal to their last event, user_stats exact`,
    );
  });

  it('a primary that stops answering without closing its connections (SIGSTOP, 15 s) holds no request past its limit', async () => {
    const pids = c.instances.map((i) => i.pid);
    const load = loadOn(c, cookie, {
      kinds: ['list', 'show', 'setActive', 'bulk'],
      // Statement limit 3 s; a new connection gives up after 10 s (connectTimeout), a pool wait
      // after 10 s (acquire): nothing may take 15 s.
      timeoutMs: 15_000,
      unavailableIsExpected: true,
    });
    await sleep(3_000);
    const primaryPid = c.primary.pid as number;
    const frozenAt = Date.now();
    process.kill(primaryPid, 'SIGSTOP');
    await sleep(15_000);
    process.kill(primaryPid, 'SIGCONT');
    const thawedAt = Date.now();
    for (const i of c.instances) await c.lb.waitForServer(i.name, 'UP');
    const backAt = Date.now();
    await sleep(5_000);
    const report = await load.stop();

    console.log(describeLoad('primary frozen', report));
    console.log(`primary frozen: 15 s; balancer back ${backAt - thawedAt} ms after the primary resumed`);
    expect(failuresOf(report)).toEqual([]);
    const during = report.outcomes.filter((o) => o.at > frozenAt && o.at < thawedAt);
    expect(during.some((o) => o.unavailableFrom === 'api')).toBe(true);
    expect(Math.max(...report.outcomes.map((o) => o.ms))).toBeLessThan(15_000);
    expect(c.instances.map((i) => i.pid)).toEqual(pids);
    const after = report.outcomes.filter((o) => o.at > backAt + 1_000);
    expect(after.length).toBeGreaterThan(20);
    expect(after.filter((o) => o.status !== 200)).toEqual([]);
    await expectConsistent(c.primary, report);
  });
});

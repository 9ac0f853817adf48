import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type TestReceiver } from '../../test/support/webhook-receiver.js';
import { type Cluster, login, startCluster } from '../bed/cluster.js';
import { describeLoad, failuresOf, loadOn } from '../bed/load.js';
import { sleep, waitFor } from '../bed/ports.js';
import { bedSecrets } from '../bed/secret-scan.js';

const DB = 'useradmin';
let c: Cluster;
let cookie: string;
let receiver: TestReceiver;

beforeAll(async () => {
  // Two instances behind the balancer and one worker outside it: three dispatchers on one queue.
  // A 2 s attempt limit makes a lease 9 s, so a crashed worker's claims come back within the test.
  c = await startCluster({
    name: 'webhooks',
    demoUsers: 500,
    workers: 1,
    env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_TIMEOUT_SECONDS: '2', DATABASE_STATEMENT_TIMEOUT_SECONDS: '3' },
  });
  cookie = await login(c.lb.baseUrl);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await c?.close();
});

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

interface AuditRow {
  action: string;
  target_ids: unknown;
  changes: unknown;
  context: unknown;
}

/** Per user, the status events the audit trail says were made since `afterId`: what must be sent. */
async function expectedFromAudit(afterId: number) {
  const rows = (await c.primary.sql(
    `SELECT action, target_ids, changes, context FROM audit_logs
      WHERE id > ${afterId} AND action IN ('user.activate', 'user.deactivate', 'users.bulk.setActive') ORDER BY id`,
    DB,
  )) as AuditRow[];
  const perUser = new Map<string, number>();
  let bulks = 0;
  for (const row of rows) {
    const after = json<{ is_active?: { after: boolean } }>(row.changes)?.is_active?.after;
    const unchanged = new Set(json<{ unchanged?: number[] } | null>(row.context)?.unchanged ?? []);
    if (row.action === 'users.bulk.setActive') bulks++;
    for (const id of json<number[]>(row.target_ids)) {
      if (unchanged.has(id)) continue;
      const key = `${id}:${after ? 'user.activated' : 'user.deactivated'}`;
      perUser.set(key, (perUser.get(key) ?? 0) + 1);
    }
  }
  return { perUser, bulks };
}

describe('webhooks across instances, a killed worker and a killed primary', () => {
  it('delivers every committed change’s event, signed, at least once, and nothing that was not committed', async () => {
    const [before] = (await c.primary.sql('SELECT COALESCE(MAX(id), 0) AS last FROM audit_logs', DB)) as Array<{
      last: number;
    }>;
    const created = await fetch(`${c.lb.baseUrl}/api/webhooks`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({
        url: `${receiver.url}`,
        description: 'cluster receiver',
        events: ['user.activated', 'user.deactivated', 'bulk.completed'],
      }),
    });
    expect(created.status).toBe(201);
    const { item, secret } = (await created.json()) as { item: { id: number }; secret: string };
    bedSecrets.add(secret);
    // Sealed at rest by the instance that took the request; opened by whichever dispatcher sends.
    const [row] = (await c.primary.sql(`SELECT secret FROM webhooks WHERE id = ${item.id}`, DB)) as Array<{
      secret: string;
    }>;
    expect(row?.secret).toMatch(/^v1\.[0-9a-f]{8}\./);
    receiver.setSecret(secret);
    // A little latency, so each dispatcher has attempts in flight when something dies.
    receiver.answer = () => ({ status: 204, delayMs: 30 });

    const load = loadOn(c, cookie, {
      kinds: ['setActive', 'bulk', 'show'],
      bulkSize: 5,
      workers: 3,
      timeoutMs: 15_000,
      unavailableIsExpected: true,
    });
    await sleep(4_000);
    const [worker] = c.workers as [(typeof c.workers)[number]];
    await worker.kill();
    await sleep(2_000);
    await worker.start();
    await sleep(2_000);
    await c.primary.kill();
    await sleep(6_000);
    await c.primary.start();
    for (const i of c.instances) await c.lb.waitForServer(i.name, 'UP');
    await sleep(4_000);
    const report = await load.stop();
    const stoppedAt = Date.now();
    console.log(describeLoad('webhooks', report));
    expect(failuresOf(report)).toEqual([]);

    // Every delivery ends delivered: claims the dead worker held come back when their lease ends.
    const drained = await waitFor(
      'every delivery to be delivered',
      async () => {
        const [row] = (await c.primary.sql(
          "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status <> 'succeeded'",
          DB,
        )) as Array<{ n: number }>;
        return Number(row?.n) === 0;
      },
      90_000,
    );
    const events = (await c.primary.sql('SELECT id, type, payload FROM webhook_events ORDER BY id', DB)) as Array<{
      id: string;
      type: string;
      payload: string;
    }>;
    const eventIds = new Set(events.map((e) => e.id));
    const received = receiver.received;
    const receivedIds = new Set(received.map((r) => r.id));

    // Signed: the reference library verified every request.
    expect(received.filter((r) => r.verifyError !== null).map((r) => r.verifyError)).toEqual([]);
    // At least once: every event that committed arrived; nothing else did (no rolled-back change).
    expect([...eventIds].filter((id) => !receivedIds.has(id))).toEqual([]);
    expect([...receivedIds].filter((id) => !eventIds.has(id))).toEqual([]);
    // A duplicate is the same message: same id, same body.
    const bodies = new Map(events.map((e) => [e.id, e.payload]));
    expect(received.filter((r) => r.body !== bodies.get(r.id)).map((r) => r.id)).toEqual([]);

    // The events say what the audit trail, written in the same transactions, says happened.
    const expected = await expectedFromAudit(Number(before?.last));
    const sent = new Map<string, number>();
    let bulkSummaries = 0;
    for (const e of events) {
      const body = JSON.parse(e.payload) as { data: { user?: { id: number } } };
      if (e.type === 'bulk.completed') bulkSummaries++;
      else {
        const key = `${body.data.user?.id}:${e.type}`;
        sent.set(key, (sent.get(key) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(sent)).toEqual(Object.fromEntries(expected.perUser));
    expect(bulkSummaries).toBe(expected.bulks);
    expect(events.length).toBeGreaterThan(100);

    const duplicates = received.length - receivedIds.size;
    console.log(
      `webhooks: ${events.length} events committed, ${received.length} requests received, ${duplicates} duplicate(s) ` +
        `(re-sent after the worker's SIGKILL or an unrecorded outcome while the primary was down); ` +
        `all delivered ${drained} ms after polling began, ${Date.now() - stoppedAt} ms after the load stopped`,
    );
  });
});

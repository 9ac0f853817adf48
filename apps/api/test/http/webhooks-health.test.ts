import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../support/test-db.js';
import { deliveriesOf, seedUsers } from '../support/webhooks.js';
import { silentLog, until, webhookBed } from '../support/webhook-bed.js';

const bed = webhookBed();

describe('the circuit breaker', () => {
  it('opens after consecutive failures, lets one probe through after the cooldown, and closes on success', async () => {
    let failing = true;
    bed.receiver.answer = () => (failing ? { status: 500 } : { status: 204 });
    const hook = await bed.endpoint();
    for (let i = 0; i < 6; i++) await bed.createUser();
    bed.dispatch({ circuitThreshold: 3, circuitCooldownMs: 800, concurrency: 1, retryBaseMs: 60_000 });
    await bed.receiver.waitFor(3);
    await until('the circuit to open', async () => (await bed.webhookRow(hook.id))?.circuit_opens === 1);
    const open = (await bed.admin.get(`/api/webhooks/${hook.id}`)).json().item;
    expect(open.circuit.state).toBe('open');
    expect(open.failing_since).toEqual(expect.any(String));
    // Open: the three deliveries still due wait.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bed.receiver.received).toHaveLength(3);
    // The probe after the cooldown fails: open again, for twice as long.
    await bed.receiver.waitFor(4, 5_000);
    await until('the circuit to reopen', async () => (await bed.webhookRow(hook.id))?.circuit_opens === 2);
    const reopenedUntil = (await bed.webhookRow(hook.id))?.circuit_open_until as Date;
    const probeAt = bed.receiver.received[3]?.at as number;
    expect(reopenedUntil.getTime() - probeAt).toBeGreaterThan(1_200);
    failing = false;
    // The next probe succeeds: closed, and the remaining due delivery follows.
    await bed.receiver.waitFor(6, 8_000);
    await until('the circuit to close', async () => (await bed.webhookRow(hook.id))?.circuit_opens === 0);
    expect(await bed.webhookRow(hook.id)).toMatchObject({
      consecutive_failures: 0,
      failing_since: null,
      circuit_open_until: null,
    });
    expect((await bed.admin.get(`/api/webhooks/${hook.id}`)).json().item.circuit).toEqual({
      state: 'closed',
      open_until: null,
    });
  });

  it('switches an endpoint off when every attempt has failed for WEBHOOKS_DISABLE_AFTER_DAYS', async () => {
    bed.receiver.answer = () => ({ status: 500 });
    const hook = await bed.endpoint();
    const since = new Date(Date.now() - 6 * 86_400_000);
    await bed.t.db.models.Webhook.update({ failing_since: since, consecutive_failures: 2 }, { where: { id: hook.id } });
    bed.dispatch({ circuitThreshold: 100 });
    await bed.createUser();
    await until('the endpoint to be switched off', async () => (await bed.webhookRow(hook.id))?.active === false);
    const item = (await bed.admin.get(`/api/webhooks/${hook.id}`)).json().item;
    expect(item).toMatchObject({ active: false, failing_since: since.toISOString() });
    expect(item.disabled_reason).toMatch(/every delivery attempt failed for 5 days/);
    const audit = await bed.t.db.models.AuditLog.findOne({ where: { action: 'webhook.disable' } });
    expect(audit).toMatchObject({ actor_id: null, target_type: 'webhook', target_ids: [hook.id] });
    // Off: the delivery waits, and new changes make no deliveries for it.
    await bed.createUser();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bed.receiver.received).toHaveLength(1);
    expect(await deliveriesOf(bed.t.db, hook.id)).toHaveLength(1);
  });
});

describe('several dispatchers', () => {
  it('send every delivery exactly once between them', async () => {
    const hook = await bed.endpoint(['user.deactivated', 'bulk.completed']);
    const ids = await seedUsers(bed.t.db, 500, 'exactly-once');
    expect((await bed.users.bulk({ operation: 'setActive', active: false, ids })).json().affected).toHaveLength(500);
    // Two instances: each dispatcher has its own pool of connections, as two processes would.
    const other = await openTestDatabase(bed.t.target, { migrated: false });
    const sent = [0, 0];
    // Each attempt that succeeded is logged at debug: counted per dispatcher.
    const counting = (i: 0 | 1) =>
      ({
        ...silentLog,
        debug: () => {
          sent[i] = (sent[i] ?? 0) + 1;
        },
      }) as unknown as typeof silentLog;
    try {
      const started = performance.now();
      bed.dispatch({ concurrency: 16 }, bed.t.db, counting(0));
      bed.dispatch({ concurrency: 16 }, other, counting(1));
      await bed.receiver.waitFor(501, 30_000);
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(
        `webhooks: 501 deliveries by two dispatchers in ${seconds.toFixed(2)} s on ${bed.t.db.dialect} (${sent.join(' + ')})\n`,
      );
      await until(
        'every outcome',
        async () => (await bed.t.db.models.WebhookDelivery.count({ where: { status: 'succeeded' } })) === 501,
        15_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await bed.stopAll();
    } finally {
      await other.close();
    }
    const seen = bed.receiver.received.map((r) => r.id);
    expect(seen).toHaveLength(501);
    expect(new Set(seen).size).toBe(501);
    expect(bed.receiver.received.every((r) => r.verifyError === null)).toBe(true);
    const deliveries = await deliveriesOf(bed.t.db, hook.id);
    expect(deliveries.every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
    expect(await bed.t.db.models.WebhookAttempt.count()).toBe(501);
    // Both took part: the race was real.
    expect(sent[0]).toBeGreaterThan(0);
    expect(sent[1]).toBeGreaterThan(0);
    expect((sent[0] ?? 0) + (sent[1] ?? 0)).toBe(501);
  }, 60_000);
});

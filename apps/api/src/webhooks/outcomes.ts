import { QueryTypes, type Transaction } from 'sequelize';
import { recordChange } from '../journal/journal.js';
import type { Database } from '../db/database.js';
import { sqlDate, sqlDateOrNull } from '../db/sql-date.js';
import { writeTransaction } from '../db/transaction.js';
import type { ClaimedDelivery } from './claims.js';
import type { AttemptResult } from './deliver.js';
import { circuitCooldown, retryDelay } from './retry.js';
import type { WebhooksSettings } from './settings.js';

/** One finished attempt, waiting to be written down. */
export interface Outcome {
  claim: ClaimedDelivery;
  result: AttemptResult;
  /** When the attempt started and when it ended. */
  startedAt: Date;
  endedAt: Date;
}

/** What recording changed about endpoints, for the dispatcher's log. */
export interface HealthChanges {
  opened: number[];
  closed: number[];
  disabled: number[];
}

interface Health {
  active: boolean;
  failing_since: Date | null;
  consecutive_failures: number;
  circuit_open_until: Date | null;
  circuit_opens: number;
}

const EXCERPT_COLUMN = 1024;
const toDate = (v: Date | string | null) => (v === null ? null : v instanceof Date ? v : new Date(v));

/** The claims still this dispatcher's: not redelivered, taken over after the lease, or deleted meanwhile. */
async function stillOurs(db: Database, tx: Transaction, outcomes: Outcome[]): Promise<Outcome[]> {
  const rows = await db.sequelize.query<{ id: number | string; status: string; attempts: number | string }>(
    `SELECT id, status, attempts FROM webhook_deliveries WHERE id IN (${outcomes.map(() => '?').join(', ')})${
      db.dialect === 'mysql' ? ' FOR UPDATE' : ''
    }`,
    { replacements: outcomes.map((o) => o.claim.id), type: QueryTypes.SELECT, transaction: tx },
  );
  const current = new Map(rows.map((r) => [Number(r.id), r]));
  return outcomes.filter((o) => {
    const row = current.get(o.claim.id);
    return row?.status === 'sending' && Number(row.attempts) === o.claim.attempt;
  });
}

async function insertAttempts(db: Database, tx: Transaction, outcomes: Outcome[]) {
  await db.sequelize.query(
    `INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, latency_ms, response_excerpt, error)
     VALUES ${outcomes.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    {
      replacements: outcomes.flatMap(({ claim, result, startedAt }) => [
        claim.id,
        claim.attempt,
        sqlDate(db, startedAt),
        result.statusCode,
        result.latencyMs,
        result.excerpt === null ? null : result.excerpt.slice(0, EXCERPT_COLUMN),
        result.error,
      ]),
      transaction: tx,
    },
  );
}

/**
 * Each delivery's new state — succeeded, failed for good after the last attempt, or pending again
 * after the backoff — in one UPDATE (a CASE per column): a batch costs one round trip, not one
 * per delivery, which is what bounds a dispatcher's rate.
 */
async function updateDeliveries(
  db: Database,
  tx: Transaction,
  outcomes: Outcome[],
  settings: WebhooksSettings,
  random: () => number,
) {
  const rows = outcomes.map(({ claim, result, startedAt, endedAt }) => {
    const status = result.ok ? 'succeeded' : claim.attempt >= settings.maxAttempts ? 'failed' : 'pending';
    const next =
      status === 'pending' ? new Date(endedAt.getTime() + retryDelay(claim.attempt, settings, random)) : null;
    return {
      id: claim.id,
      values: [
        status,
        sqlDateOrNull(db, next),
        sqlDate(db, startedAt),
        result.statusCode,
        result.latencyMs,
        result.error,
      ] as unknown[],
    };
  });
  const columns = ['status', 'next_attempt_at', 'last_attempt_at', 'last_status_code', 'last_latency_ms', 'last_error'];
  const cases = columns.map((column) => `${column} = CASE id ${rows.map(() => 'WHEN ? THEN ?').join(' ')} END`);
  await db.sequelize.query(
    `UPDATE webhook_deliveries SET ${cases.join(', ')}, locked_until = NULL WHERE id IN (${rows.map(() => '?').join(', ')})`,
    {
      replacements: [
        ...columns.flatMap((_, c) => rows.flatMap((row) => [row.id, row.values[c]])),
        ...rows.map((row) => row.id),
      ],
      transaction: tx,
    },
  );
}

/**
 * An endpoint's health after these outcomes, in the order they ended: a success closes the
 * circuit and ends the failing streak; a failure extends it, opens the circuit at the threshold
 * (or reopens it after a failed probe) for a cooldown that doubles with each opening.
 */
export function nextHealth(health: Health, outcomes: Outcome[], settings: WebhooksSettings): Health {
  const h = { ...health };
  for (const { claim, result, startedAt, endedAt } of outcomes) {
    if (result.ok) {
      Object.assign(h, { failing_since: null, consecutive_failures: 0, circuit_open_until: null, circuit_opens: 0 });
      continue;
    }
    h.consecutive_failures += 1;
    h.failing_since ??= startedAt;
    const open = h.circuit_open_until !== null && h.circuit_open_until > endedAt && !claim.probe;
    if (claim.probe || (h.consecutive_failures >= settings.circuitThreshold && !open)) {
      h.circuit_opens += 1;
      h.circuit_open_until = new Date(endedAt.getTime() + circuitCooldown(h.circuit_opens, settings));
    }
  }
  return h;
}

const reasonFor = (since: Date, settings: WebhooksSettings) => {
  const days = settings.disableAfterMs / 86_400_000;
  return `Switched off: every delivery attempt failed for ${days} day${days === 1 ? '' : 's'} (since ${since.toISOString()}). Fix the endpoint, then turn it back on.`;
};

async function updateHealth(
  db: Database,
  tx: Transaction,
  webhookId: number,
  outcomes: Outcome[],
  settings: WebhooksSettings,
  changes: HealthChanges,
) {
  const [row] = await db.sequelize.query<Health & { active: number | boolean }>(
    `SELECT active, failing_since, consecutive_failures, circuit_open_until, circuit_opens FROM webhooks WHERE id = ?${
      db.dialect === 'mysql' ? ' FOR UPDATE' : ''
    }`,
    { replacements: [webhookId], type: QueryTypes.SELECT, transaction: tx },
  );
  if (!row) return; // deleted meanwhile
  const before: Health = {
    active: Boolean(row.active),
    failing_since: toDate(row.failing_since),
    consecutive_failures: Number(row.consecutive_failures),
    circuit_open_until: toDate(row.circuit_open_until),
    circuit_opens: Number(row.circuit_opens),
  };
  const after = nextHealth(before, outcomes, settings);
  const now = outcomes.at(-1)?.endedAt ?? new Date();
  if (after.circuit_opens > before.circuit_opens) changes.opened.push(webhookId);
  if (before.circuit_opens > 0 && after.circuit_opens === 0) changes.closed.push(webhookId);
  const disable =
    after.active &&
    after.failing_since !== null &&
    now.getTime() - after.failing_since.getTime() >= settings.disableAfterMs;
  await db.models.Webhook.update(
    {
      failing_since: after.failing_since,
      consecutive_failures: after.consecutive_failures,
      circuit_open_until: after.circuit_open_until,
      circuit_opens: after.circuit_opens,
      ...(disable ? { active: false, disabled_reason: reasonFor(after.failing_since as Date, settings) } : {}),
    },
    // The endpoint's health is not an edit of it: `updated_at` keeps the last change made by a person.
    { where: { id: webhookId }, transaction: tx, silent: true },
  );
  if (disable) {
    changes.disabled.push(webhookId);
    await recordChange(db, tx, {
      actorId: null,
      action: 'webhook.disable',
      targetType: 'webhook',
      targetIds: [webhookId],
      changes: { active: { before: true, after: false } },
      context: { failing_since: after.failing_since?.toISOString(), consecutive_failures: after.consecutive_failures },
    });
  }
}

/**
 * Writes a batch of finished attempts in one transaction: each attempt's log row, its delivery's
 * new status, and each endpoint's health (in id order, so two dispatchers never deadlock on them).
 */
export async function recordOutcomes(
  db: Database,
  settings: WebhooksSettings,
  outcomes: Outcome[],
  random: () => number = Math.random,
): Promise<HealthChanges> {
  const changes: HealthChanges = { opened: [], closed: [], disabled: [] };
  if (outcomes.length === 0) return changes;
  await writeTransaction(db, async (tx) => {
    Object.assign(changes, { opened: [], closed: [], disabled: [] });
    const ours = await stillOurs(db, tx, outcomes);
    if (ours.length === 0) return;
    await insertAttempts(db, tx, ours);
    await updateDeliveries(db, tx, ours, settings, random);
    const byEndpoint = new Map<number, Outcome[]>();
    for (const o of [...ours].sort((a, b) => a.endedAt.getTime() - b.endedAt.getTime())) {
      byEndpoint.set(o.claim.webhookId, [...(byEndpoint.get(o.claim.webhookId) ?? []), o]);
    }
    for (const id of [...byEndpoint.keys()].sort((a, b) => a - b)) {
      await updateHealth(db, tx, id, byEndpoint.get(id) as Outcome[], settings, changes);
    }
  });
  return changes;
}

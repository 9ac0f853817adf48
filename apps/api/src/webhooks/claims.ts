import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { writeTransaction } from '../db/transaction.js';
import type { WebhooksSettings } from './settings.js';

/** A delivery this dispatcher holds until its lease ends, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number;
  webhookId: number;
  eventId: string;
  /** The attempt being made (1 for the first). */
  attempt: number;
  url: string;
  /** The signing secret as stored (sealed when SECRETS_KEY is set): opened just before sending. */
  secret: string;
  /** The event's body as stored, byte for byte what is signed. */
  body: string;
  /** The one attempt a half-open circuit lets through: its outcome closes or reopens it. */
  probe: boolean;
}

interface Endpoint {
  id: number;
  url: string;
  secret: string;
  circuit_open_until: Date | null;
}

interface DueRow {
  id: number | string;
  webhook_id: number | string;
  event_id: string;
  attempts: number | string;
}

/**
 * MySQL/MariaDB: rows another dispatcher is claiming are skipped, not waited for, so any number
 * of instances claim side by side and each row goes to one. SQLite: the claim runs in the
 * write transaction (BEGIN IMMEDIATE) of the only process that can write.
 */
const lockClause = (db: Database) => (db.dialect === 'mysql' ? ' FOR UPDATE SKIP LOCKED' : '');
/** Walk the due index in time order (with an IN list of endpoints the optimizer may pick another and sort). */
const dueIndex = (db: Database) => (db.dialect === 'mysql' ? ' FORCE INDEX (webhook_deliveries_due)' : '');

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * Active endpoints, read without locks: the claim must not wait on, or block, anyone editing them.
 * A plain statement: every claim asks, and a model finder cost a millisecond more than the read.
 */
async function activeEndpoints(db: Database): Promise<Endpoint[]> {
  const rows = await db.sequelize.query<{
    id: number | string;
    url: string;
    secret: string;
    until: Date | string | null;
  }>('SELECT id, url, secret, circuit_open_until AS until FROM webhooks WHERE active = ?', {
    replacements: [true],
    type: QueryTypes.SELECT,
  });
  return rows.map((w) => ({
    id: Number(w.id),
    url: w.url,
    secret: w.secret,
    circuit_open_until: w.until === null ? null : new Date(w.until),
  }));
}

/**
 * A half-open endpoint lets one probe through: the dispatcher that moves its reopening time
 * forward (by a lease) first is the one that sends it; the others see it open.
 */
async function takeProbe(db: Database, tx: Transaction, id: number, now: Date, settings: WebhooksSettings) {
  const [, affected] = await db.sequelize.query(
    'UPDATE webhooks SET circuit_open_until = ? WHERE id = ? AND active = ? AND circuit_open_until <= ?',
    {
      replacements: [sqlDate(db, new Date(now.getTime() + settings.leaseMs)), id, true, sqlDate(db, now)],
      type: QueryTypes.UPDATE,
      transaction: tx,
    },
  );
  return Number(affected) === 1;
}

async function selectDue(db: Database, tx: Transaction, sql: string, replacements: unknown[]): Promise<DueRow[]> {
  return db.sequelize.query<DueRow>(sql, { replacements, type: QueryTypes.SELECT, transaction: tx });
}

/**
 * Due rows for closed endpoints: leases a crashed claimer left behind (when `withLapsed`), then
 * pending ones oldest first.
 */
async function dueForClosed(
  db: Database,
  tx: Transaction,
  ids: number[],
  now: Date,
  limit: number,
  withLapsed: boolean,
) {
  const lapsed = !withLapsed
    ? []
    : await selectDue(
        db,
        tx,
        `SELECT id, webhook_id, event_id, attempts FROM webhook_deliveries${dueIndex(db)}
      WHERE status = 'sending' AND locked_until < ? AND webhook_id IN (${placeholders(ids.length)})
      LIMIT ${Number(limit)}${lockClause(db)}`,
        [sqlDate(db, now), ...ids],
      );
  const room = limit - lapsed.length;
  if (room <= 0) return lapsed;
  const pending = await selectDue(
    db,
    tx,
    `SELECT id, webhook_id, event_id, attempts FROM webhook_deliveries${dueIndex(db)}
      WHERE status = 'pending' AND next_attempt_at <= ? AND webhook_id IN (${placeholders(ids.length)})
      ORDER BY next_attempt_at LIMIT ${Number(room)}${lockClause(db)}`,
    [sqlDate(db, now), ...ids],
  );
  return [...lapsed, ...pending];
}

/** The oldest due delivery of one endpoint, for its probe. */
async function dueForProbe(db: Database, tx: Transaction, id: number, now: Date) {
  return selectDue(
    db,
    tx,
    `SELECT id, webhook_id, event_id, attempts FROM webhook_deliveries
      WHERE webhook_id = ? AND status = 'pending' AND next_attempt_at <= ?
      ORDER BY id LIMIT 1${lockClause(db)}`,
    [id, sqlDate(db, now)],
  );
}

/**
 * Claims up to `limit` due deliveries in one short transaction: each is marked `sending` with a
 * lease and its attempt counted before anything is sent. Endpoints that are inactive or whose
 * circuit is open are left alone; a half-open one gives at most one probe. Leases a crashed
 * claimer left behind are taken over only when `lapsed` (the dispatcher asks about once a second).
 */
export async function claimDeliveries(
  db: Database,
  settings: WebhooksSettings,
  limit: number,
  { now = new Date(), lapsed = true }: { now?: Date; lapsed?: boolean } = {},
): Promise<ClaimedDelivery[]> {
  const endpoints = await activeEndpoints(db);
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const closed = endpoints.filter((e) => e.circuit_open_until === null).map((e) => e.id);
  const halfOpen = endpoints.filter((e) => e.circuit_open_until !== null && e.circuit_open_until <= now);
  if (limit <= 0 || (closed.length === 0 && halfOpen.length === 0)) return [];

  const claimed = await writeTransaction(db, async (tx) => {
    const rows: Array<DueRow & { probe: boolean }> = [];
    for (const endpoint of halfOpen) {
      if (rows.length >= limit) break;
      const due = await dueForProbe(db, tx, endpoint.id, now);
      // No due delivery: leave the circuit half-open for the next one.
      if (due.length && (await takeProbe(db, tx, endpoint.id, now, settings))) {
        rows.push(...due.map((r) => ({ ...r, probe: true })));
      }
    }
    if (closed.length && rows.length < limit) {
      const due = await dueForClosed(db, tx, closed, now, limit - rows.length, lapsed);
      rows.push(...due.map((r) => ({ ...r, probe: false })));
    }
    if (rows.length === 0) return rows;
    await db.models.WebhookDelivery.update(
      {
        status: 'sending',
        locked_until: new Date(now.getTime() + settings.leaseMs),
        attempts: db.sequelize.literal('attempts + 1') as unknown as number,
      },
      { where: { id: { [Op.in]: rows.map((r) => Number(r.id)) } }, transaction: tx },
    );
    return rows;
  });
  if (claimed.length === 0) return [];

  const eventIds = [...new Set(claimed.map((r) => r.event_id))];
  const events = await db.models.WebhookEvent.findAll({
    attributes: ['id', 'payload'],
    where: { id: { [Op.in]: eventIds } },
  });
  const bodies = new Map(events.map((e) => [e.id, e.payload]));
  return claimed.map((r) => {
    const endpoint = byId.get(Number(r.webhook_id)) as Endpoint;
    return {
      id: Number(r.id),
      webhookId: endpoint.id,
      eventId: r.event_id,
      attempt: Number(r.attempts) + 1,
      url: endpoint.url,
      secret: endpoint.secret,
      // An event row is never deleted while a delivery of it exists; '' would be sent and logged.
      body: bodies.get(r.event_id) ?? '',
      probe: r.probe,
    };
  });
}

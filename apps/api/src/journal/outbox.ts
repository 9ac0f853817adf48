import type { WebhookEventType } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { sqlDate } from '../db/sql-date.js';
import { beforeCommit } from '../db/transaction.js';
import { newEventId } from './event-id.js';
import type { EventPlan } from './event-plan.js';
import { announceNewDeliveries } from './signal.js';

/**
 * The transactional outbox. `recordChange` calls `recordWebhookEvents` inside the transaction of
 * every user or role change, so an event row exists exactly when its change committed: a rollback
 * takes both, a crash after commit leaves both for a dispatcher to find.
 */

/** Rows per INSERT and ids per IN (): a 10 000-user bulk in ten statements each. */
const ROWS_PER_STATEMENT = 1_000;

interface Endpoint {
  id: number;
  events: ReadonlySet<string>;
  /** Whether it receives personal attribute values (`include_personal`). */
  personal: boolean;
}

interface UserSnapshot {
  id: number;
  name: string;
  email: string;
  is_active: boolean;
  created_at: string | null;
  updated_at: string | null;
  deleted_at: string | null;
}

interface RawUser {
  id: number | string;
  name: string;
  email: string;
  is_active: number | boolean;
  created_at: Date | string | null;
  updated_at: Date | string | null;
  deleted_at: Date | string | null;
}

/**
 * Who an event row is for: every subscriber, or — when a change holds personal attribute values —
 * the endpoints that opted in (`personal`: the whole changes) and the others (`plain`: without them).
 */
type Audience = 'all' | 'personal' | 'plain';

interface EventRow {
  id: string;
  type: WebhookEventType;
  payload: string;
  audience: Audience;
}

const iso = (v: Date | string | null) => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString());

const chunks = <T>(list: readonly T[], size = ROWS_PER_STATEMENT): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

/** Active endpoints and what they subscribe to, read in the change's transaction (never cached). */
async function activeEndpoints(db: Database, tx: Transaction | null): Promise<Endpoint[]> {
  const rows = await db.models.Webhook.findAll({
    attributes: ['id', 'events', 'include_personal'],
    where: { active: true },
    transaction: tx,
  });
  return rows.map((w) => ({ id: w.id, events: new Set(w.events), personal: Boolean(w.include_personal) }));
}

/** The users as the transaction leaves them, deleted ones included. */
async function userSnapshots(db: Database, tx: Transaction | null, ids: number[]): Promise<Map<number, UserSnapshot>> {
  const out = new Map<number, UserSnapshot>();
  for (const part of chunks(ids)) {
    const rows = await db.sequelize.query<RawUser>(
      `SELECT id, name, email, is_active, created_at, updated_at, deleted_at FROM users WHERE id IN (${part.map(() => '?').join(', ')})`,
      { replacements: part, type: QueryTypes.SELECT, transaction: tx },
    );
    for (const r of rows) {
      out.set(Number(r.id), {
        id: Number(r.id),
        name: r.name,
        email: r.email,
        is_active: Boolean(r.is_active),
        created_at: iso(r.created_at),
        updated_at: iso(r.updated_at),
        deleted_at: iso(r.deleted_at),
      });
    }
  }
  return out;
}

interface RoleSnapshot {
  id: number;
  name: string;
  description: string | null;
  permissions: string[];
  created_at: string | null;
  updated_at: string | null;
}

/** The role as the transaction leaves it, with the names of the permissions it grants; null when gone. */
async function roleSnapshot(db: Database, tx: Transaction | null, id: number): Promise<RoleSnapshot | null> {
  const [row] = await db.sequelize.query<{
    id: number | string;
    name: string;
    description: string | null;
    created_at: Date | string | null;
    updated_at: Date | string | null;
  }>('SELECT id, name, description, created_at, updated_at FROM roles WHERE id = ?', {
    replacements: [id],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  if (!row) return null;
  const permissions = await db.sequelize.query<{ name: string }>(
    `SELECT p.name FROM permissions p JOIN role_permissions rp ON rp.permission_id = p.id
      WHERE rp.role_id = ? ORDER BY p.name`,
    { replacements: [id], type: QueryTypes.SELECT, transaction: tx },
  );
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description ?? null,
    permissions: permissions.map((p) => p.name),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The events of `plan` that at least one endpoint wants, with their Standard Webhooks bodies. */
async function buildEvents(
  db: Database,
  tx: Transaction | null,
  plan: EventPlan,
  wanted: ReadonlySet<string>,
  endpoints: readonly Endpoint[],
  now: Date,
): Promise<EventRow[]> {
  const timestamp = now.toISOString();
  const types = plan.userTypes.filter((type) => wanted.has(type));
  const needsUsers = types.some((type) => type !== 'user.force_deleted');
  const users = needsUsers ? await userSnapshots(db, tx, plan.userIds) : new Map<number, UserSnapshot>();
  const rows: EventRow[] = [];
  const add = (type: WebhookEventType, data: unknown, audience: Audience = 'all') =>
    rows.push({ id: newEventId(now.getTime()), type, payload: JSON.stringify({ type, timestamp, data }), audience });
  for (const id of plan.userIds) {
    for (const type of types) {
      // An erased user is only an id: nothing of the account's data outlives it.
      const user = type === 'user.force_deleted' ? { id } : (users.get(id) ?? { id });
      if (type !== 'user.updated' && type !== 'user.created') add(type, { user });
      else
        for (const body of bodiesWithChanges(plan, id, type, endpoints))
          add(type, { user, ...body.data }, body.audience);
    }
  }
  if (plan.bulk && wanted.has('bulk.completed')) add('bulk.completed', plan.bulk);
  const role = plan.role;
  if (role && wanted.has(role.type)) {
    // A deleted role is its id and name: the row is gone before the event is written.
    const snapshot = role.type === 'role.deleted' ? null : await roleSnapshot(db, tx, role.id);
    const data = snapshot ?? { id: role.id, name: role.name };
    add(role.type, role.type === 'role.updated' ? { role: data, changes: plan.changes ?? {} } : { role: data });
  }
  const attribute = plan.attribute;
  if (attribute && wanted.has(attribute.type)) {
    const data = { attribute: attribute.definition };
    add(attribute.type, attribute.type === 'attribute.updated' ? { ...data, changes: plan.changes ?? {} } : data);
  }
  return rows;
}

/**
 * The `changes` of a user's created or updated event: one body for every subscriber, or, when
 * they hold personal attribute values, a whole one for the endpoints that opted in and one
 * without those values for the others (only the bodies some subscriber will receive).
 */
function bodiesWithChanges(plan: EventPlan, id: number, type: WebhookEventType, endpoints: readonly Endpoint[]) {
  const changes = plan.changesByUser?.get(id) ?? plan.changes ?? {};
  const plain = withoutFields(changes, plan.personal ?? new Set<string>());
  if (plain === changes) return [{ data: { changes }, audience: 'all' as Audience }];
  const subscribers = endpoints.filter((endpoint) => endpoint.events.has(type));
  return [
    ...(subscribers.some((e) => e.personal) ? [{ data: { changes }, audience: 'personal' as Audience }] : []),
    ...(subscribers.some((e) => !e.personal) ? [{ data: { changes: plain }, audience: 'plain' as Audience }] : []),
  ];
}

/** `changes` less `fields`; the same object when it holds none of them. */
function withoutFields<T extends Record<string, unknown>>(changes: T, fields: ReadonlySet<string>): T {
  if (!Object.keys(changes).some((field) => fields.has(field))) return changes;
  return Object.fromEntries(Object.entries(changes).filter(([field]) => !fields.has(field))) as T;
}

const reaches = (endpoint: Endpoint, event: EventRow) =>
  endpoint.events.has(event.type) &&
  (event.audience === 'all' || (event.audience === 'personal') === endpoint.personal);

async function insertEvents(db: Database, tx: Transaction | null, events: EventRow[], now: Date) {
  for (const part of chunks(events)) {
    await db.sequelize.query(
      `INSERT INTO webhook_events (id, type, payload, created_at) VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')}`,
      { replacements: part.flatMap((e) => [e.id, e.type, e.payload, sqlDate(db, now)]), transaction: tx },
    );
  }
}

/** One pending delivery per event and endpoint subscribed to its type, due now. */
async function insertDeliveries(
  db: Database,
  tx: Transaction | null,
  events: EventRow[],
  endpoints: Endpoint[],
  now: Date,
) {
  const rows = events.flatMap((event) =>
    endpoints.filter((endpoint) => reaches(endpoint, event)).map((endpoint) => ({ endpoint, event })),
  );
  for (const part of chunks(rows)) {
    await db.sequelize.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, status, attempts, next_attempt_at, created_at)
       VALUES ${part.map(() => "(?, ?, ?, 'pending', 0, ?, ?)").join(', ')}`,
      {
        replacements: part.flatMap(({ endpoint, event }) => [
          endpoint.id,
          event.id,
          event.type,
          sqlDate(db, now),
          sqlDate(db, now),
        ]),
        transaction: tx,
      },
    );
  }
}

/**
 * Writes the events `plan` makes (`planEvents` of a change), and their deliveries, in `tx` — only
 * when an active endpoint subscribes to one of them. The endpoints are read now; the rows are
 * written at the end of the transaction's work, so each body shows the users as the change leaves
 * them whatever order the handler wrote in. After commit, this process's dispatcher is told at once.
 */
export async function recordWebhookEvents(db: Database, tx: Transaction | null, plan: EventPlan | null): Promise<void> {
  if (!plan) return;
  const endpoints = await activeEndpoints(db, tx);
  const types = new Set<string>([
    ...plan.userTypes,
    ...(plan.bulk ? ['bulk.completed'] : []),
    ...(plan.role ? [plan.role.type] : []),
    ...(plan.attribute ? [plan.attribute.type] : []),
  ]);
  const wanted = new Set([...types].filter((type) => endpoints.some((endpoint) => endpoint.events.has(type))));
  if (wanted.size === 0) return;
  const write = async () => {
    const now = new Date();
    const events = await buildEvents(db, tx, plan, wanted, endpoints, now);
    await insertEvents(db, tx, events, now);
    await insertDeliveries(db, tx, events, endpoints, now);
  };
  if (!tx) {
    await write();
    announceNewDeliveries();
    return;
  }
  if (!beforeCommit(tx, write)) await write();
  tx.afterCommit(announceNewDeliveries);
}

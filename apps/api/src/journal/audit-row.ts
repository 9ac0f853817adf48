import type { Transaction } from 'sequelize';
import type { Database } from '../db/database.js';
import { insertMany, insertWithIds } from '../db/inserted-ids.js';
import { sqlDate } from '../db/sql-date.js';
import type { ChangeEntry } from './entry.js';

/** Audit rows per multi-row INSERT (11 values each): an import chunk's 1 000 in two statements. */
const ROWS_PER_INSERT = 500;
/** Target rows per INSERT: a bulk's 10 000 targets in ten statements. */
const TARGETS_PER_INSERT = 1_000;

const AUDIT_INSERT = `INSERT INTO audit_logs
  (actor_id, action, target_type, target_ids, changes, context, ip, request_id, via, via_name, created_at)
  VALUES :rows`;
const TARGETS_INSERT = 'INSERT INTO audit_targets (target_id, audit_id, created_at) VALUES :rows';
const ATTRIBUTES_INSERT = 'INSERT INTO audit_attributes (attribute_key, created_at, audit_id) VALUES :rows';
const ATTRIBUTE_FIELD = 'attributes.';

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/**
 * The audit rows of `entries` and their target rows, in `tx`, in multi-row statements: one row
 * for a form's change, an import chunk's new accounts at once. Plain INSERTs rather than model
 * instances: a chunk's thousand rows would otherwise build a thousand instances to throw away.
 * Only the journal calls it.
 */
export async function writeAuditRows(db: Database, tx: Transaction, entries: readonly ChangeEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const at = sqlDate(db, new Date());
  const ids = await insertWithIds(
    db,
    tx,
    AUDIT_INSERT,
    entries.map((entry) => [
      entry.actorId,
      entry.action,
      entry.targetType ?? null,
      JSON.stringify(entry.targetIds ?? []),
      json(entry.changes),
      json(entry.source ? { source: entry.source, ...entry.context } : entry.context),
      entry.ip ?? null,
      entry.requestId ?? null,
      entry.via?.kind ?? null,
      entry.via?.name ?? null,
      at,
    ]),
    ROWS_PER_INSERT,
  );
  // The events' targets, indexed for "this user's history", in the events' own transaction. Only
  // users: a role's id there would put the role's events in the history of the user with that id.
  const targets = entries.flatMap((entry, k) =>
    entry.targetType === 'user' ? [...new Set(entry.targetIds ?? [])].map((id) => [id, ids[k], at]) : [],
  );
  await insertMany(db, tx, TARGETS_INSERT, targets, TARGETS_PER_INSERT);
  // The custom attributes each event changed, indexed for the audit's `attribute` filter.
  const attributes = entries.flatMap((entry, k) =>
    Object.keys(entry.changes ?? {})
      .filter((field) => field.startsWith(ATTRIBUTE_FIELD))
      .map((field) => [field.slice(ATTRIBUTE_FIELD.length), at, ids[k]]),
  );
  await insertMany(db, tx, ATTRIBUTES_INSERT, attributes, TARGETS_PER_INSERT);
}

import { AUDIT_ROW_TARGETS, type AuditItem, type AuditRow, type AuditVia } from '@app/contracts';
import { Op, QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { AuditLog } from '../../db/models/audit.model.js';
import { toIso } from '../users/users.read-repository.js';

/** The door an event came through; older events (before it was recorded) say `unknown`. */
function viaOf(event: AuditLog): AuditVia {
  if (event.via === 'session' || event.via === 'token' || event.via === 'cli') {
    return { kind: event.via, name: event.via_name };
  }
  return event.context?.source === 'cli' ? { kind: 'cli', name: null } : { kind: 'unknown', name: null };
}

/** Stored `{before, after}` as the contract's `{from, to}`. */
function changesOf(event: AuditLog): AuditRow['changes'] {
  const out: AuditRow['changes'] = {};
  for (const [field, change] of Object.entries(event.changes ?? {}))
    out[field] = { from: change.before, to: change.after };
  return out;
}

async function actorNames(db: Database, events: AuditLog[]): Promise<Map<number, string>> {
  const ids = [...new Set(events.flatMap((e) => (e.actor_id ? [e.actor_id] : [])))];
  if (ids.length === 0) return new Map();
  const rows = await db.sequelize.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE id IN (:ids)', {
    replacements: { ids },
    type: QueryTypes.SELECT,
  });
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

function toRow(event: AuditLog, names: Map<number, string>, targets: number): AuditRow {
  const ids = (event.target_ids ?? []).map(Number);
  return {
    id: event.id,
    occurred_at: toIso(event.created_at) as string,
    actor_id: event.actor_id,
    actor_name: event.actor_id ? (names.get(event.actor_id) ?? null) : null,
    action: event.action,
    target_type: event.target_type,
    target_ids: ids.slice(0, targets),
    target_count: ids.length,
    changes: changesOf(event),
    ip: event.ip,
    via: viaOf(event),
    request_id: event.request_id,
  };
}

/** Rows for `ids`, in the order of `ids`, each with its first targets (all of them for an export). */
export async function auditRowsByIds(
  db: Database,
  ids: readonly number[],
  { allTargets = false } = {},
): Promise<AuditRow[]> {
  if (ids.length === 0) return [];
  const events = await db.models.AuditLog.findAll({ where: { id: { [Op.in]: [...ids] } } });
  const names = await actorNames(db, events);
  const targets = allTargets ? Number.POSITIVE_INFINITY : AUDIT_ROW_TARGETS;
  const byId = new Map(events.map((e) => [e.id, toRow(e, names, targets)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One event with every target and its context; null when there is none. */
export async function auditItem(db: Database, id: number): Promise<AuditItem | null> {
  const event = await db.models.AuditLog.findByPk(id);
  if (!event) return null;
  const row = toRow(event, await actorNames(db, [event]), Number.POSITIVE_INFINITY);
  return { ...row, context: event.context };
}

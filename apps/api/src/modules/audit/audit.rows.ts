import { AUDIT_ROW_TARGETS, type AuditItem, type AuditRow, type AuditVia, SIGN_IN_ACTIONS } from '@app/contracts';
import { Op, QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { AuditLog } from '../../db/models/audit.model.js';
import type { AuditRedaction } from './audit.redaction.js';
import { toIso } from '../../db/sql-date.js';

/** The door an event came through; older events (before it was recorded) say `unknown`. */
function viaOf(event: AuditLog): AuditVia {
  if (event.via === 'session' || event.via === 'token' || event.via === 'scim' || event.via === 'cli') {
    return { kind: event.via, name: event.via_name };
  }
  return event.context?.source === 'cli' ? { kind: 'cli', name: null } : { kind: 'unknown', name: null };
}

type Json = AuditRow['changes'][string]['from'];
/** A value read back from the JSON column is JSON; a side that was never written is null. */
const json = (value: unknown): Json => (value ?? null) as Json;

/** Stored `{before, after}` as the contract's `{from, to}`, less the fields the reader may not see (named apart). */
function changesOf(event: AuditLog, redaction: AuditRedaction): Pick<AuditRow, 'changes' | 'hidden_changes'> {
  const changes: AuditRow['changes'] = {};
  const hidden: string[] = [];
  for (const [field, change] of Object.entries(event.changes ?? {})) {
    if (redaction?.(field, event.context)) hidden.push(field);
    else changes[field] = { from: json(change.before), to: json(change.after) };
  }
  return { changes, hidden_changes: hidden };
}

/** The users whose names an event's row shows: its actor and (unless not wanted) its first targets. */
function namedIds(event: AuditLog, withTargets: boolean): number[] {
  const targets =
    withTargets && event.target_type === 'user' ? (event.target_ids ?? []).slice(0, AUDIT_ROW_TARGETS).map(Number) : [];
  return event.actor_id ? [event.actor_id, ...targets] : targets;
}

/** Current names of the users `events` name, in one query; a user erased since has none. */
async function userNames(db: Database, events: AuditLog[], withTargets = true): Promise<Map<number, string>> {
  const ids = [...new Set(events.flatMap((event) => namedIds(event, withTargets)))];
  if (ids.length === 0) return new Map();
  const rows = await db.sequelize.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE id IN (:ids)', {
    replacements: { ids },
    type: QueryTypes.SELECT,
  });
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

function targetNamesOf(event: AuditLog, names: Map<number, string>): AuditRow['target_names'] {
  if (event.target_type !== 'user') return {};
  const out: AuditRow['target_names'] = {};
  for (const id of (event.target_ids ?? []).slice(0, AUDIT_ROW_TARGETS)) {
    const name = names.get(Number(id));
    if (name !== undefined) out[String(id)] = name;
  }
  return out;
}

/** A sign-in event's user agent, as its writer kept it in the context; null for every other event. */
function userAgentOf(event: AuditLog): string | null {
  if (!(SIGN_IN_ACTIONS as readonly string[]).includes(event.action)) return null;
  const value = event.context?.user_agent;
  return typeof value === 'string' ? value : null;
}

function toRow(event: AuditLog, names: Map<number, string>, targets: number, redaction: AuditRedaction): AuditRow {
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
    target_names: targetNamesOf(event, names),
    ...changesOf(event, redaction),
    ip: event.ip,
    via: viaOf(event),
    request_id: event.request_id,
    user_agent: userAgentOf(event),
  };
}

/**
 * Rows for `ids`, in the order of `ids`, each with its first targets and their names. An export
 * (`allTargets`) has every target and no target names: its files carry ids, and looking up
 * thousands of names per batch would slow it for nothing.
 */
export async function auditRowsByIds(
  db: Database,
  ids: readonly number[],
  redaction: AuditRedaction,
  { allTargets = false } = {},
): Promise<AuditRow[]> {
  if (ids.length === 0) return [];
  const events = await db.models.AuditLog.findAll({ where: { id: { [Op.in]: [...ids] } } });
  const names = await userNames(db, events, !allTargets);
  const targets = allTargets ? Number.POSITIVE_INFINITY : AUDIT_ROW_TARGETS;
  const byId = new Map(events.map((e) => [e.id, toRow(e, names, targets, redaction)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One event with every target and its context; null when there is none. */
export async function auditItem(db: Database, id: number, redaction: AuditRedaction): Promise<AuditItem | null> {
  const event = await db.models.AuditLog.findByPk(id);
  if (!event) return null;
  const row = toRow(event, await userNames(db, [event]), Number.POSITIVE_INFINITY, redaction);
  return { ...row, context: contextFor(event.context, redaction) };
}

/**
 * An event's context as the reader may see it: an export's filter on a sensitive attribute (its
 * bound is a value, or close to one) is left out for a reader who may not see that attribute.
 */
function contextFor(
  context: Record<string, unknown> | null,
  redaction: AuditRedaction,
): Record<string, unknown> | null {
  const filters = context?.filters as Record<string, unknown> | undefined;
  const attributes = filters?.attributes as Record<string, unknown> | undefined;
  if (!redaction || !context || !attributes || typeof attributes !== 'object') return context;
  const kept = Object.fromEntries(
    Object.entries(attributes).filter(([key]) => !redaction(`attributes.${key}`, context)),
  );
  return { ...context, filters: { ...filters, attributes: kept } };
}

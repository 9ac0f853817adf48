import {
  AUDIT_ROW_TARGETS,
  type AuditItem,
  type AuditJob,
  type AuditRow,
  type AuditVia,
  SIGN_IN_ACTIONS,
} from '@app/contracts';
import { Op, QueryTypes } from 'sequelize';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { JOB_COLUMNS, type JobRow, toJob } from '../../jobs/job-rows.js';
import { targetLookups, targetOf } from '../../jobs/job-target.js';
import { maySeeJob } from '../../domain/jobs.rules.js';
import type { AuditLog } from '../../db/models/audit.model.js';
import { type AuditRedaction, redactedContext } from './audit.redaction.js';
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

/** The ids of the first targets of `events` that are jobs. */
const jobTargetIds = (events: AuditLog[]): number[] => [
  ...new Set(
    events.flatMap((event) =>
      event.target_type === 'job' ? (event.target_ids ?? []).slice(0, AUDIT_ROW_TARGETS).map(Number) : [],
    ),
  ),
];

/**
 * What names the jobs `events` are about, by id, told as `reader` may read them (a selection's
 * condition on an attribute the reader may not see is left out and counted): one read of the
 * jobs and their targets' lookups. A job pruned since is missing; an export (no reader) names none.
 */
async function jobsNamed(db: Database, events: AuditLog[], reader: Pick<Actor, 'id' | 'permissions'> | null) {
  const ids = reader === null ? [] : jobTargetIds(events);
  if (reader === null || ids.length === 0) return new Map<number, AuditJob>();
  const rows = await db.sequelize.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id IN (:ids)`, {
    replacements: { ids },
    type: QueryTypes.SELECT,
  });
  const lookups = await targetLookups(db, reader, rows);
  return new Map(
    rows.map((row) => {
      const job = toJob(row);
      const { kind, operation, active, role, attribute, dryRun, progress } = job;
      const target = targetOf(row, job, lookups);
      const open = maySeeJob(reader, row.actor_id === null ? null : Number(row.actor_id));
      return [Number(row.id), { kind, operation, active, role, attribute, dryRun, progress, target, open }];
    }),
  );
}

function targetJobsOf(event: AuditLog, jobs: Map<number, AuditJob>): AuditRow['target_jobs'] {
  if (event.target_type !== 'job') return {};
  const out: AuditRow['target_jobs'] = {};
  for (const id of (event.target_ids ?? []).slice(0, AUDIT_ROW_TARGETS)) {
    const job = jobs.get(Number(id));
    if (job) out[String(id)] = job;
  }
  return out;
}

/** A sign-in event's user agent, as its writer kept it in the context; null for every other event. */
function userAgentOf(event: AuditLog): string | null {
  if (!(SIGN_IN_ACTIONS as readonly string[]).includes(event.action)) return null;
  const value = event.context?.user_agent;
  return typeof value === 'string' ? value : null;
}

/** What an event's row names its actor and targets by: users' names, and jobs' titles. */
interface Named {
  names: Map<number, string>;
  jobs: Map<number, AuditJob>;
}

function toRow(event: AuditLog, named: Named, targets: number, redaction: AuditRedaction): AuditRow {
  const { names } = named;
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
    target_jobs: targetJobsOf(event, named.jobs),
    ...changesOf(event, redaction),
    ip: event.ip,
    via: viaOf(event),
    request_id: event.request_id,
    user_agent: userAgentOf(event),
  };
}

/** Who reads the trail: what they may not see of the changes, and whom jobs are told to (null: an export). */
interface AuditReader {
  redaction: AuditRedaction;
  actor: Pick<Actor, 'id' | 'permissions'> | null;
}

/**
 * Rows for `ids`, in the order of `ids`, each with its first targets and their names (users') or
 * titles (jobs'). An export (`reader` null) has every target and no target names: its files carry
 * ids, and looking up thousands of names per batch would slow it for nothing.
 */
export async function auditRowsByIds(db: Database, ids: readonly number[], reader: AuditReader): Promise<AuditRow[]> {
  if (ids.length === 0) return [];
  const events = await db.models.AuditLog.findAll({ where: { id: { [Op.in]: [...ids] } } });
  const allTargets = reader.actor === null;
  const [names, jobs] = await Promise.all([userNames(db, events, !allTargets), jobsNamed(db, events, reader.actor)]);
  const targets = allTargets ? Number.POSITIVE_INFINITY : AUDIT_ROW_TARGETS;
  const byId = new Map(events.map((e) => [e.id, toRow(e, { names, jobs }, targets, reader.redaction)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One event with every target and its context; null when there is none. */
export async function auditItem(db: Database, id: number, reader: AuditReader): Promise<AuditItem | null> {
  const event = await db.models.AuditLog.findByPk(id);
  if (!event) return null;
  const [names, jobs] = await Promise.all([userNames(db, [event]), jobsNamed(db, [event], reader.actor)]);
  const row = toRow(event, { names, jobs }, Number.POSITIVE_INFINITY, reader.redaction);
  return { ...row, context: redactedContext(event.context, reader.redaction) };
}

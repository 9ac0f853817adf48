import { AUDIT_ACTIONS, type AuditAction, type AuditRow, type AuditVia } from '@app/contracts';
import type { BadgeTone } from '@app/ui';
import type { AuditPageMessages } from '../../i18n/audit-messages';
import { jobName } from '../jobs/job-name';

const KNOWN = new Set<string>(AUDIT_ACTIONS);

export function actionLabel(action: string, m: AuditPageMessages): string {
  return KNOWN.has(action) ? m.audit.actions[action as AuditAction] : m.audit.unknownAction(action);
}

/** How an action reads at a glance: red for removals and refusals, amber for lost access, green for what gives. */
const ACTION_TONES: Partial<Record<AuditAction, BadgeTone>> = {
  'user.create': 'success',
  'user.activate': 'success',
  'user.restore': 'success',
  'users.bulk.restore': 'success',
  'user.deactivate': 'warning',
  'users.bulk.setActive': 'warning',
  'user.delete': 'danger',
  'user.force_delete': 'danger',
  'users.bulk.delete': 'danger',
  'users.bulk.forceDelete': 'danger',
  'auth.loginFailed': 'danger',
  'audit.prune': 'warning',
};

export const actionTone = (action: string): BadgeTone => ACTION_TONES[action as AuditAction] ?? 'neutral';

export function viaText(via: AuditVia, m: AuditPageMessages): string {
  const t = m.audit.via;
  if (via.kind === 'token' || via.kind === 'scim') return t[via.kind](via.name);
  return t[via.kind];
}

export function fieldLabel(field: string, m: AuditPageMessages): string {
  // A custom attribute's field is `attributes.<key>`: its key is the label the trail can give.
  return m.audit.fields[field] ?? (field.startsWith('attributes.') ? field.slice('attributes.'.length) : field);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A recorded value as an administrator reads it: statuses in words, lists joined, instants formatted. */
export function valueText(field: string, value: unknown, m: AuditPageMessages): string {
  const v = m.audit.values;
  if (value === null || value === undefined || value === '') return v.empty;
  if (field === 'is_active' && typeof value === 'boolean') return value ? v.active : v.inactive;
  if (Array.isArray(value)) return value.length === 0 ? v.none : value.map(String).join(', ');
  if (value === 'deleted') return v.deleted;
  if (value === 'erased') return v.erased;
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return m.common.dateTime(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Who did it: the actor's current name, the account's id if it is gone, the system (the command
 * line), or someone not signed in (a refused sign-in).
 */
export function actorText(row: Pick<AuditRow, 'actor_id' | 'actor_name' | 'via'>, m: AuditPageMessages): string {
  if (row.actor_name) return row.actor_name;
  if (row.actor_id) return m.common.erasedUser(row.actor_id);
  return row.via.kind === 'cli' ? m.common.system : m.audit.notSignedIn;
}

export function targetText(row: Pick<AuditRow, 'target_names'>, id: number, m: AuditPageMessages): string {
  return row.target_names[String(id)] ?? m.common.erasedUser(id);
}

type TargetFields = Pick<AuditRow, 'actor_id' | 'target_type' | 'target_ids' | 'target_names' | 'target_jobs'>;

/**
 * What an event in a user's History acted on, when that is not the user: they were the actor
 * and the event names another target (an account they edited, a webhook they added). Null when
 * the user is among the targets, or the event has none: then who acted is the news.
 */
export function otherTarget(
  row: TargetFields,
  userId: number,
  m: AuditPageMessages,
): { text: string; userId: number | null } | null {
  const first = row.target_ids[0];
  if (row.actor_id !== userId || first === undefined) return null;
  if (row.target_type === 'job') return { text: jobName(first, row.target_jobs[String(first)], m), userId: null };
  if (row.target_type !== 'user') return { text: m.audit.targetRef(row.target_type ?? '', first), userId: null };
  if (row.target_ids.includes(userId)) return null;
  const named = row.target_names[String(first)] !== undefined;
  return { text: targetText(row, first, m), userId: named ? first : null };
}

/**
 * One line for the changes column: the field's before → after when one changed, else the fields'
 * names; a field whose value the reader may not see is only named.
 */
export function changesSummary(
  row: Pick<AuditRow, 'changes'> & Partial<Pick<AuditRow, 'hidden_changes'>>,
  m: AuditPageMessages,
): string {
  const fields = Object.keys(row.changes);
  const hidden = (row.hidden_changes ?? []).map((field) => m.audit.hiddenField(fieldLabel(field, m)));
  if (hidden.length > 0) return m.audit.changedFields([...fields.map((field) => fieldLabel(field, m)), ...hidden]);
  if (fields.length === 0) return '';
  if (fields.length === 1) {
    const field = fields[0] as string;
    const change = row.changes[field] as { from: unknown; to: unknown };
    return `${fieldLabel(field, m)}: ${valueText(field, change.from, m)} → ${valueText(field, change.to, m)}`;
  }
  return m.audit.changedFields(fields.map((field) => fieldLabel(field, m)));
}

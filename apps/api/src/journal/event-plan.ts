import type { AuditAction, WebhookEventType } from '@app/contracts';
import type { ChangeEntry } from './entry.js';

type UserEventType = Extract<WebhookEventType, `user.${string}`>;
type RoleEventType = Extract<WebhookEventType, `role.${string}`>;
type AttributeEventType = Extract<WebhookEventType, `attribute.${string}`>;

/** A changed field as receivers see it (and as the audit API shows it). */
type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/**
 * The `data` of a `bulk.completed` event. A job's (a selection of any size) names no ids: it
 * carries its `job_id` and the skips per code instead, and `affected_ids`/`skipped` are null.
 */
interface BulkCompleted {
  operation: string;
  requested: number;
  affected: number;
  affected_ids: number[] | null;
  skipped: Array<{ id: number; code: string }> | null;
  job_id?: number;
  /** How the job ended: succeeded, or cancelled part-way (what was committed stays). */
  job_status?: string;
  skipped_counts?: Record<string, number>;
  /** What the job ran on, as GET /jobs/{id} says it (JobTarget) to a reader who may not see sensitive attributes. */
  target?: unknown;
}

/** A finished bulk job's summary event: when it changed at least one account (never for a dry run). */
function jobSummary(entry: ChangeEntry): EventPlan | null {
  const context = entry.context ?? {};
  const progress = (context.progress ?? {}) as { processed?: unknown; changed?: unknown };
  const changed = typeof progress.changed === 'number' ? progress.changed : 0;
  const jobId = entry.targetIds?.[0];
  if (context.kind !== 'bulk' || context.dryRun === true || changed === 0 || jobId === undefined) return null;
  const counts = (context.counts ?? {}) as Record<string, number>;
  return {
    userIds: [],
    userTypes: [],
    changes: null,
    bulk: {
      operation: String(context.operation),
      requested: typeof progress.processed === 'number' ? progress.processed : changed,
      affected: changed,
      affected_ids: null,
      skipped: null,
      job_id: jobId,
      job_status: String(context.status),
      skipped_counts: counts,
      target: context.target ?? null,
    },
  };
}

/** The events one audited change makes: the same types for each of its users, and a bulk summary. */
export interface EventPlan {
  /** The users whose events are sent (a bulk's affected ids less those it left as they were). */
  userIds: number[];
  userTypes: UserEventType[];
  /** `user.updated`'s and `user.created`'s before/after (the audit entry's, which never holds a password). */
  changes: FieldChanges | null;
  /** Each user's own `changes`, when the entries recorded at once differ per user (many creations). */
  changesByUser?: ReadonlyMap<number, FieldChanges>;
  bulk: BulkCompleted | null;
  /** A role's event: the role's id, and its name for `role.deleted` (the row is gone by then). */
  role?: { type: RoleEventType; id: number; name: string | null } | null;
  /** An attribute's event: the definition as the change left it (as it was, for a removal). */
  attribute?: { type: AttributeEventType; definition: Record<string, unknown> } | null;
  /**
   * Changed fields holding a `personal` attribute's value: sent only to endpoints that opted in
   * (`include_personal`). A `sensitive` one's never reaches a plan (see fieldChanges).
   */
  personal?: ReadonlySet<string>;
}

/** Single-user actions and the event each makes. Keyed by the contract's actions: a renamed one fails to compile. */
const SINGLE = {
  'user.create': 'user.created',
  'user.activate': 'user.activated',
  'user.deactivate': 'user.deactivated',
  'user.delete': 'user.deleted',
  'user.restore': 'user.restored',
  'user.force_delete': 'user.force_deleted',
  // One row names every user a request or a job's chunk invited: an event each.
  'user.invite': 'user.invited',
  // A password set through a reset link: receivers may want to know the account's credentials changed.
  'auth.passwordReset': 'user.password_reset',
} as const satisfies Partial<Record<AuditAction, UserEventType>>;

/** Bulk actions: their operation's name in `bulk.completed`, and each user's event (`setActive`: from `changes`). */
const BULK = {
  'users.bulk.setActive': { operation: 'setActive', type: null },
  'users.bulk.delete': { operation: 'delete', type: 'user.deleted' },
  'users.bulk.restore': { operation: 'restore', type: 'user.restored' },
  'users.bulk.forceDelete': { operation: 'forceDelete', type: 'user.force_deleted' },
} as const satisfies Partial<Record<AuditAction, { operation: string; type: UserEventType | null }>>;

/** Role actions and the event each makes (`role.updated` carries the audit entry's changes). */
const ROLE = {
  'role.create': 'role.created',
  'role.update': 'role.updated',
  'role.delete': 'role.deleted',
} as const satisfies Partial<Record<AuditAction, RoleEventType>>;

/** Attribute actions and the event each makes. */
const ATTRIBUTE = {
  'attribute.create': 'attribute.created',
  'attribute.update': 'attribute.updated',
  'attribute.delete': 'attribute.deleted',
} as const satisfies Partial<Record<AuditAction, AttributeEventType>>;

const isAttribute = (action: AuditAction): action is keyof typeof ATTRIBUTE => action in ATTRIBUTE;

/**
 * An attribute change's event: the definition as the change left it (as it was, for a removal),
 * which the handler hands over as the entry's `subject`; an update's `changes` beside it.
 */
function attributeEvent(entry: ChangeEntry & { action: keyof typeof ATTRIBUTE }): EventPlan | null {
  if (entry.targetType !== 'attribute') return null;
  const type = ATTRIBUTE[entry.action];
  const definition = entry.subject;
  if (!definition) return null;
  return {
    userIds: [],
    userTypes: [],
    changes: type === 'attribute.updated' ? fieldChanges(entry) : null,
    bulk: null,
    attribute: { type, definition },
  };
}

const isSingle = (action: AuditAction): action is keyof typeof SINGLE => action in SINGLE;
const isBulk = (action: AuditAction): action is keyof typeof BULK => action in BULK;
const isRole = (action: AuditAction): action is keyof typeof ROLE => action in ROLE;

/** A role change's event: one role, named by the entry's `name` change when the row is gone. */
function roleEvent(entry: ChangeEntry & { action: keyof typeof ROLE }): EventPlan | null {
  const id = entry.targetIds?.[0];
  if (entry.targetType !== 'role' || id === undefined) return null;
  const type = ROLE[entry.action];
  const name = entry.changes?.name?.before;
  return {
    userIds: [],
    userTypes: [],
    changes: type === 'role.updated' ? fieldChanges(entry) : null,
    bulk: null,
    role: { type, id, name: typeof name === 'string' ? name : null },
  };
}

/** The sensitivity its writer gave each changed field that has one (a custom attribute's). */
function sensitivityOf(entry: ChangeEntry): Record<string, unknown> {
  return (entry.context?.sensitivity ?? {}) as Record<string, unknown>;
}

/** The entry's changes as receivers see them: a sensitive attribute's value never leaves the product. */
function fieldChanges(entry: ChangeEntry): FieldChanges {
  const sensitivity = sensitivityOf(entry);
  const out: FieldChanges = {};
  for (const [field, change] of Object.entries(entry.changes ?? {})) {
    if (sensitivity[field] === 'sensitive') continue;
    out[field] = { from: change.before ?? null, to: change.after ?? null };
  }
  return out;
}

/** The entries' changed fields that hold a personal attribute's value. */
function personalFields(entries: readonly ChangeEntry[]): Set<string> {
  const out = new Set<string>();
  for (const entry of entries) {
    for (const [field, level] of Object.entries(sensitivityOf(entry))) if (level === 'personal') out.add(field);
  }
  return out;
}

/** A status change recorded in `changes`, as the event it is; null when the status did not change. */
function statusEvent(entry: ChangeEntry): UserEventType | null {
  const change = entry.changes?.is_active;
  if (!change || Boolean(change.before) === Boolean(change.after)) return null;
  return change.after ? 'user.activated' : 'user.deactivated';
}

function idsOf(value: unknown): Set<number> {
  return new Set(Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : []);
}

function skippedOf(context: Record<string, unknown> | undefined): BulkCompleted['skipped'] {
  const raw = Array.isArray(context?.skipped) ? (context.skipped as unknown[]) : [];
  return raw.flatMap((s) => {
    const skip = s as { id?: unknown; code?: unknown };
    return typeof skip.id === 'number' && typeof skip.code === 'string' ? [{ id: skip.id, code: skip.code }] : [];
  });
}

/**
 * The events of many single-user entries of one action recorded at once (`recordChanges`: an
 * import chunk's creations): one plan over all their users, each event carrying its own user's
 * changes where the action's events carry changes.
 */
export function planManyEvents(entries: readonly ChangeEntry[]): EventPlan | null {
  const first = entries[0];
  if (!first) return null;
  const plan = planEvents({ ...first, changes: null, targetIds: entries.flatMap((e) => e.targetIds ?? []) });
  if (!plan || plan.changes === null) return plan;
  return {
    ...plan,
    changesByUser: new Map(entries.map((e) => [e.targetIds?.[0] ?? 0, fieldChanges(e)])),
    personal: personalFields(entries),
  };
}

/**
 * A bulk role change made in the request (POST /users/bulk with ids, `addRole`/`removeRole`):
 * it is recorded as the edit form's `user.update` rows, one per set of users whose roles were
 * alike, and the last of them carries the summary that `bulk.completed` reports.
 */
function roleBulkSummary(entry: ChangeEntry): BulkCompleted | null {
  const summary = entry.context?.bulk_summary as { affected_ids?: unknown } | undefined;
  const operation = entry.context?.bulk;
  if (!summary || typeof operation !== 'string') return null;
  const affected = [...idsOf(summary.affected_ids)];
  const requested = entry.context?.requested;
  return {
    operation,
    requested: typeof requested === 'number' ? requested : affected.length,
    affected: affected.length,
    affected_ids: affected,
    skipped: skippedOf(summary as Record<string, unknown>),
  };
}

/**
 * The webhook events an audited action makes, or null for actions no event reports (sign-ins,
 * exports, tokens, webhooks themselves). Every user change passes through `recordChange`, so
 * this is the one place that knows which change is which event.
 */
export function planEvents(entry: ChangeEntry): EventPlan | null {
  if (entry.action === 'job.finish') return jobSummary(entry);
  if (isRole(entry.action)) return roleEvent({ ...entry, action: entry.action });
  if (isAttribute(entry.action)) return attributeEvent({ ...entry, action: entry.action });
  const userIds = entry.targetType === 'user' ? [...new Set(entry.targetIds ?? [])] : [];
  if (userIds.length === 0) return null;
  if (isSingle(entry.action)) {
    // A creation says what it gave beside the account's fields: its roles and direct grants, as an edit does.
    const changes = entry.action === 'user.create' ? fieldChanges(entry) : null;
    return { userIds, userTypes: [SINGLE[entry.action]], changes, bulk: null, personal: personalFields([entry]) };
  }
  // One's own name changed on /account is the same change to receivers as an administrator's edit.
  if (entry.action === 'user.update' || entry.action === 'account.update') {
    const status = statusEvent(entry);
    return {
      userIds,
      userTypes: status ? ['user.updated', status] : ['user.updated'],
      changes: fieldChanges(entry),
      bulk: roleBulkSummary(entry),
      personal: personalFields([entry]),
    };
  }
  if (!isBulk(entry.action)) return null;
  const { operation, type: bulkType } = BULK[entry.action];
  const type = bulkType ?? statusEvent(entry);
  const requested = entry.context?.requested;
  const unchanged = idsOf(entry.context?.unchanged);
  // A job's chunk: each user's events now, one summary when the job ends (not one per chunk).
  const inJob = typeof entry.context?.job_id === 'number';
  return {
    userIds: userIds.filter((id) => !unchanged.has(id)),
    userTypes: type ? [type] : [],
    changes: null,
    bulk: inJob
      ? null
      : {
          operation,
          requested: typeof requested === 'number' ? requested : userIds.length,
          affected: userIds.length,
          affected_ids: userIds,
          skipped: skippedOf(entry.context),
        },
  };
}

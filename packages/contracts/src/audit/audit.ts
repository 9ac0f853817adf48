import { z } from 'zod';
import { AttributeKeySchema } from '../attributes/attribute-schema';
import { AuditViaSchema } from '../audit-via';
import { IdSchema, IsoDateTimeSchema } from '../common';
import { JobSchema } from '../jobs/jobs';
import { defineListQuery, type ListQueryOf } from '../query/define-list-query';
import { integer, numeric } from '../query/fields';
import { dateRange, exact, oneOrMany } from '../query/filters';
import { exportShape, listResultSchema } from '../lists';
import type { ColumnDefinition } from '../columns';
import { plainTextCheck } from '../text';

/**
 * Every action the audit trail records, as stored. The names are the trail's history: older
 * rows keep theirs, so a name is added here, never renamed.
 */
export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.activate',
  'user.deactivate',
  'user.delete',
  'user.restore',
  'user.force_delete',
  'user.invite',
  'user.sendPasswordReset',
  'users.bulk.setActive',
  'users.bulk.delete',
  'users.bulk.restore',
  'users.bulk.forceDelete',
  'users.export',
  'roles.export',
  'auth.login',
  'auth.loginFailed',
  'auth.logout',
  'auth.invitationAccept',
  'auth.passwordResetRequest',
  'auth.passwordReset',
  'role.create',
  'role.update',
  'role.delete',
  'token.create',
  'token.revoke',
  'session.revoke',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.rotateSecret',
  'webhook.redeliver',
  'webhook.test',
  'webhook.disable',
  'webhook.reseal',
  'audit.export',
  'audit.prune',
  'job.submit',
  'job.finish',
  'job.cancel',
  'authProvider.create',
  'authProvider.update',
  'authProvider.delete',
  'attribute.create',
  'attribute.update',
  'attribute.delete',
  'scim.mappingUpdate',
  'auth.ssoLogin',
  'auth.ssoFailed',
  'account.update',
  'account.passwordChange',
  'account.twoFactorEnable',
  'account.twoFactorDisable',
  'user.twoFactorReset',
  'secrets.reseal',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** At most this many target ids travel with a list row; the record itself has them all. */
export const AUDIT_ROW_TARGETS = 20;

/** The doors a list may be narrowed to (`filters[via]`): every recorded kind; `unknown` (older rows) is no door. */
export const AUDIT_VIA_FILTER = AuditViaSchema.shape.kind.exclude(['unknown'], {
  error: 'Give one of session, token, scim or cli.',
});
export type AuditViaFilter = z.infer<typeof AUDIT_VIA_FILTER>;

const id = (what: string) => numeric(integer(`${what} must be a whole number of 1 or more.`, { min: 1 }));

/**
 * GET /audit. `q` finds the events of the users whose name or e-mail holds the text (as actor
 * or as target), or the events from that exact IP address or request id. `user_id` is a user's
 * history: the events they took part in, as the actor or as a target.
 */
export const auditListQuery = defineListQuery({
  search: ['actor', 'target', 'ip', 'request_id'],
  filters: {
    actor_id: oneOrMany(id('An actor id'), { max: 100 }),
    action: oneOrMany(z.enum(AUDIT_ACTIONS, { error: 'Unknown action.' }), { max: AUDIT_ACTIONS.length }),
    target_id: exact(id('A target id')),
    // The events a user took part in, as the actor or as a target: a user's history.
    user_id: exact(id('A user id')),
    occurred_between: dateRange(),
    // The events that changed a custom attribute's value, by its key (kept after it is removed).
    attribute: exact(AttributeKeySchema),
    // The door the change came through: `scim` is what identity providers did.
    via: exact(AUDIT_VIA_FILTER),
    ip: exact(
      plainTextCheck(z.string({ error: 'Give one IP address.' }).trim(), 'filter')
        .min(1)
        .max(45),
    ),
  },
  sorts: ['id', 'occurred_at'],
  // Newest first by when it happened: every filter's index ends with the time (migrations 0001, 0008).
  defaultOrder: ['occurred_at', 'desc'],
  perPage: { default: 25, max: 100, choices: [25, 50, 100] },
});
export type AuditListQuery = ListQueryOf<typeof auditListQuery>;
export type AuditSort = (typeof auditListQuery.sorts)[number];
export type AuditFilterName = keyof typeof auditListQuery.filters;

/**
 * A job an event is about, as much of it as its title needs ("Deactivate 1,500 users matching
 * Status: Active"): what it does (`kind`, `operation`, `active`, `role`, `attribute`), how many
 * users it ran on (`progress.total`), whether it was a dry run, and what it ran on (`target`).
 */
export const AuditJobSchema = JobSchema.pick({
  kind: true,
  operation: true,
  active: true,
  role: true,
  attribute: true,
  dryRun: true,
  progress: true,
  target: true,
}).extend({
  /** Whether the reader may open the job's page (its submitter, or a holder of jobs.view): else it is named, not linked. */
  open: z.boolean(),
});
export type AuditJob = z.infer<typeof AuditJobSchema>;

/** One field's change: `from` and `to` as they were written (absent on that side: null). */
export const AuditChangeSchema = z.object({ from: z.json(), to: z.json() });

export const AuditRowSchema = z.object({
  id: IdSchema,
  occurred_at: IsoDateTimeSchema,
  actor_id: IdSchema.nullable(),
  /** The actor's name now; null when there is no actor (the command line) or it was erased. */
  actor_name: z.string().nullable(),
  action: z.string(),
  target_type: z.string().nullable(),
  /** The first {@link AUDIT_ROW_TARGETS} targets; `target_count` says how many there are. */
  target_ids: z.array(IdSchema),
  target_count: z.number().int().nonnegative(),
  /**
   * The current names of the first targets that are users, by id; a user erased since has none.
   * Exports leave it empty (their files carry ids).
   */
  target_names: z.record(z.string(), z.string()),
  /**
   * The first targets that are jobs, by id, with what the jobs list names each by (what it does and
   * what it ran on, told as the reader may read it); a job pruned since has none, and is named by
   * its id. Exports leave it empty.
   */
  target_jobs: z.record(z.string(), AuditJobSchema),
  changes: z.record(z.string(), AuditChangeSchema),
  /**
   * Fields the event changed whose values the reader may not see (a sensitive attribute, for a
   * reader without attributes.sensitive.view): absent from `changes`, named here so the trail
   * still says that they changed.
   */
  hidden_changes: z.array(z.string()),
  ip: z.string().nullable(),
  via: AuditViaSchema,
  request_id: z.string().nullable(),
  /** The browser or client of a sign-in event (`auth.login`, `auth.loginFailed`); null for other events. */
  user_agent: z.string().nullable(),
});
export type AuditRow = z.infer<typeof AuditRowSchema>;

/** The events that keep the client's user agent: the login history. */
export const SIGN_IN_ACTIONS = ['auth.login', 'auth.loginFailed'] as const satisfies readonly AuditAction[];

/** GET /audit/{id}: the row with every target and the context the writer recorded. */
export const AuditItemSchema = AuditRowSchema.extend({ context: z.record(z.string(), z.unknown()).nullable() });
export type AuditItem = z.infer<typeof AuditItemSchema>;

export const AuditListResultSchema = listResultSchema(AuditRowSchema, {
  filters: z.record(z.string(), z.unknown()),
});
export type AuditListResult = z.infer<typeof AuditListResultSchema>;

export const AuditShowResultSchema = z.object({ item: AuditItemSchema });
export type AuditShowResult = z.infer<typeof AuditShowResultSchema>;

/** The audit log's columns, in display order; the table and every export read them. */
export const AUDIT_COLUMNS = [
  { key: 'id', label: 'ID', type: 'number' },
  { key: 'occurred_at', label: 'When', type: 'datetime' },
  { key: 'actor_name', label: 'Who', type: 'string' },
  { key: 'action', label: 'Action', type: 'string' },
  { key: 'target_ids', label: 'Targets', type: 'json' },
  { key: 'changes', label: 'Changes', type: 'json' },
  { key: 'ip', label: 'IP address', type: 'string' },
  { key: 'via', label: 'Through', type: 'json' },
] as const satisfies readonly ColumnDefinition[];
export type AuditColumnKey = (typeof AUDIT_COLUMNS)[number]['key'];
export const AUDIT_COLUMN_KEYS = AUDIT_COLUMNS.map((column) => column.key) as [AuditColumnKey, ...AuditColumnKey[]];

/**
 * GET /audit/export: the list query (page and perPage ignored), `format` (csv when absent) and
 * `columns` picking and ordering (all when absent).
 */
export const AuditExportInputSchema = auditListQuery.extend(exportShape(AUDIT_COLUMN_KEYS));
export type AuditExportInput = z.output<typeof AuditExportInputSchema>;

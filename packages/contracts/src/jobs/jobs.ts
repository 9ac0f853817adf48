import { z } from 'zod';
import { AttributeFieldSchema } from '../attributes/user-attributes';
import { AuditViaSchema } from '../audit-via';
import type { ColumnDefinition } from '../columns';
import { IdSchema, IsoDateTimeSchema, NamedRefSchema } from '../common';
import { ActionStateSchema, listResultSchema } from '../lists';
import { defineListQuery, type ListQueryOf } from '../query/define-list-query';
import { booleanish } from '../query/fields';
import { exact, oneOrMany } from '../query/filters';
import {
  IMPORT_ERROR_CODES,
  IMPORT_MODES,
  IMPORT_PROBLEMS_SHOWN,
  IMPORT_SKIP_CODES,
  ImportProblemSchema,
  ImportSummarySchema,
} from '../imports/imports';
import { BULK_SKIP_CODES } from '../users/users.bulk';
import { BULK_OPERATIONS } from '../users/users.bulk-operations';
import { JOB_STATUSES } from './job-status';

/**
 * Background jobs (SPEC §13): work too large for a request — a bulk change over every user a
 * list query matches — runs as a job row that any API or worker process claims with a lease and
 * moves in chunks, each committing its changes, audit, events and checkpoint together.
 */
export const JOB_KINDS = ['bulk', 'import', 'undo'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const JobProgressSchema = z.object({
  /** Users the selection matched when the job was submitted (an estimate for what remains). */
  total: z.number().int().nonnegative(),
  processed: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type JobProgress = z.infer<typeof JobProgressSchema>;

/**
 * What a job ran on, in terms a caller can show: every user a users list query matched (its
 * search and filters as the list takes them, and the names its filters need for their chips), an
 * import's file (its name and mode, as `import` has them), or the job an undo reverses.
 */
export const JobTargetSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('selection'),
    /** The users list query it ran on, as GET /users takes it (`filters` in their plain form). */
    query: z.object({ q: z.string().nullable(), filters: z.record(z.string(), z.unknown()) }),
    /** Users the submitter left out of the selection by id. */
    except: z.number().int().nonnegative(),
    /**
     * Conditions left out of `query` because they are on attributes the caller may not see (a
     * sensitive one without attributes.sensitive.view, or one deleted since).
     */
    withheld: z.number().int().nonnegative(),
    /** The roles `filters.role_id` names, by their names now (a role deleted since is missing). */
    roles: z.array(NamedRefSchema),
    /** The attributes `filters.attributes` names, as the users list describes them. */
    attributes: z.array(AttributeFieldSchema),
  }),
  // The file's name as uploaded (null when it came without one).
  z.object({ kind: z.literal('file'), name: z.string().nullable(), mode: z.enum(IMPORT_MODES) }),
  z.object({ kind: z.literal('job'), id: IdSchema }),
]);
export type JobTarget = z.infer<typeof JobTargetSchema>;

export const JobSchema = z.object({
  id: IdSchema,
  kind: z.enum(JOB_KINDS),
  /** A bulk job's operation, or an import's mode; null for an undo. */
  operation: z.enum([...BULK_OPERATIONS, ...IMPORT_MODES]).nullable(),
  /** For setActive: the state asked for. */
  active: z.boolean().nullable(),
  /** For addRole / removeRole: the role given or taken, named as it was when the job was submitted. */
  role: NamedRefSchema.nullable(),
  /**
   * For setAttribute: the attribute set, labelled as it was when the job was submitted (its key
   * alone for a job submitted before labels were kept). Null for other operations.
   */
  attribute: z.object({ key: z.string(), label: z.string() }).nullable(),
  /** A dry run judges every user and changes none: its counts and report say what would happen. */
  dryRun: z.boolean(),
  status: z.enum(JOB_STATUSES),
  progress: JobProgressSchema,
  /** Skipped users per reason code. */
  counts: z.record(z.string(), z.number().int().nonnegative()),
  /** Why a failed job stopped, in a sentence; null otherwise. */
  error: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  started_at: IsoDateTimeSchema.nullable(),
  finished_at: IsoDateTimeSchema.nullable(),
  actor_id: IdSchema.nullable(),
  via: AuditViaSchema,
  /** An import's file, options and outcomes; null for other kinds. */
  import: ImportSummarySchema.nullable(),
  /** An undo: the job it undoes. A job that can be undone: until when (null once it cannot), and the undo once asked. */
  undo: z
    .object({
      of: IdSchema.nullable(),
      until: IsoDateTimeSchema.nullable(),
      by: IdSchema.nullable(),
      /**
       * An import's undo: the accounts it removed (those the import created) and put back (those
       * it updated) so far — in a dry run, would. Null for other jobs.
       */
      accounts: z
        .object({ removed: z.number().int().nonnegative(), restored: z.number().int().nonnegative() })
        .nullable()
        .optional(),
    })
    .nullable(),
  /**
   * An invite: whether its links go by mail, and how many invitations it sent (or, in a dry run,
   * would). Without mail (no SMTP_URL) no link is kept anywhere: each user's page sends it again
   * once mail is set up. Null for other operations.
   */
  invitations: z.object({ mailed: z.boolean(), sent: z.number().int().nonnegative() }).nullable().optional(),
  /**
   * What it ran on ({@link JobTargetSchema}), named as the caller may read it, in every answer
   * about a job — the list, its page, a submission, a cancel, an undo — and in `bulk.completed`;
   * null for a job too old to say.
   */
  target: JobTargetSchema.nullable(),
});
export type Job = z.infer<typeof JobSchema>;

/**
 * A job as the list and its page show it: with who submitted it, so that those who see everyone's
 * jobs (`jobs.view`) can tell whose it is; null when it came from the command line or its
 * submitter has been erased since. A submission's or a cancel's answer is about a job the caller
 * just acted on, and goes without.
 */
export const JobWithSubmitterSchema = JobSchema.extend({
  submitted_by: NamedRefSchema.nullable(),
});
export type JobWithSubmitter = z.infer<typeof JobWithSubmitterSchema>;

export const JobAnswerSchema = z.object({ job: JobSchema });
export type JobAnswer = z.infer<typeof JobAnswerSchema>;

/** At most this many examples per skip code travel with a job (the report has every one). */
export const JOB_EXAMPLES_PER_CODE = 20;

/** A user a job skipped: null id and e-mail, and the code's sentence, for a caller who may not see users. */
export const JobExampleSchema = z.object({
  id: IdSchema.nullable(),
  email: z.string().nullable(),
  message: z.string(),
});

/**
 * GET /jobs/{id}: the job (`item`, as every show answers; a submission answers `{job}`), and the first skipped users of each code (a dry run's "who and why");
 * for an import, its first problem lines in line order.
 */
export const JobShowSchema = z.object({
  /** `actions.cancel`: whether the caller may cancel it, and why not (domain/jobs.rules.ts). */
  item: JobWithSubmitterSchema.extend({ actions: z.object({ cancel: ActionStateSchema }) }),
  examples: z.record(z.string(), z.array(JobExampleSchema).max(JOB_EXAMPLES_PER_CODE)),
  problems: z.array(ImportProblemSchema).max(IMPORT_PROBLEMS_SHOWN),
  /**
   * Whether the examples and problems name the users (id, e-mail, the rule's own sentence): only
   * for a caller holding users.view; otherwise each keeps its code and line, with the code's
   * sentence ({@link JOB_CODE_SENTENCES}), and this says why.
   */
  people: ActionStateSchema,
});
export type JobShow = z.infer<typeof JobShowSchema>;

/**
 * GET /jobs: own jobs (everyone's with `jobs.view`), newest first. Dry runs only when asked
 * (`filters[dry_run]=true`); without the filter, or with `false`, only real runs (the server
 * applies that default: modules/jobs/jobs.mapping.ts).
 */
export const jobsListQuery = defineListQuery({
  search: ['kind', 'operation', 'status'],
  filters: {
    status: oneOrMany(z.enum(JOB_STATUSES, { error: `Status must be one of: ${JOB_STATUSES.join(', ')}.` }), {
      max: JOB_STATUSES.length,
    }),
    kind: oneOrMany(z.enum(JOB_KINDS, { error: `Kind must be one of: ${JOB_KINDS.join(', ')}.` }), {
      max: JOB_KINDS.length,
    }),
    dry_run: exact(booleanish(z.boolean({ error: 'Dry run must be true or false (1 or 0 also work).' }))),
  },
  sorts: ['id', 'created_at'],
  defaultOrder: ['id', 'desc'],
  perPage: { default: 25, max: 100, choices: [10, 25, 50, 100] },
});
export type JobsListQuery = ListQueryOf<typeof jobsListQuery>;

export const JobIdSchema = z.object({
  id: z.coerce.number({ error: 'The job id must be a whole number.' }).int().positive(),
});

export const JOB_REPORT_FORMATS = ['csv', 'json'] as const;
export const JobReportInputSchema = JobIdSchema.extend({
  format: z.enum(JOB_REPORT_FORMATS, { error: 'Format must be csv or json.' }).default('csv'),
});
export type JobReportInput = z.output<typeof JobReportInputSchema>;

/**
 * One line of a job's report: a user the job changed (with the fields it changed, before and
 * after), skipped or failed on, and why — every user it touched (SPEC §14, "Mass changes").
 */
export const JobReportRowSchema = z.object({
  /** The file's line (imports), first so a user can fix the file and upload it again. */
  line: z.number().int().positive().nullable(),
  id: IdSchema.nullable(),
  /** Null, as `id`, for a caller who may not see users (the message is then the code's sentence). */
  email: z.string().nullable(),
  outcome: z.enum(['changed', 'skipped', 'failed']),
  // An import's rule codes are the bulk's (SPEC §7), so each code is listed once.
  code: z.enum(['CHANGED', ...BULK_SKIP_CODES, ...IMPORT_SKIP_CODES, ...IMPORT_ERROR_CODES, 'INTERNAL']),
  message: z.string(),
  /** A changed user's fields as they were and as the job left them; null otherwise (and for a caller who may not see users). */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type JobReportRow = z.infer<typeof JobReportRowSchema>;
export type JobReportCode = JobReportRow['code'];

/**
 * Every code a job can report, as a sentence that names nobody: what a caller without users.view
 * reads in place of a line's own message (a rule's message names the user it refused; a file's
 * names the value it could not read). Keyed by every code, so a new code needs its sentence.
 */
export const JOB_CODE_SENTENCES: Readonly<Record<JobReportCode, string>> = {
  CHANGED: 'The job changed this user.',
  OUTRANKED: 'The user holds permissions the job’s submitter does not have.',
  SELF_DEACTIVATION: 'The job’s submitter cannot deactivate their own account.',
  LAST_ADMIN: 'This would have left no active administrator.',
  NOT_INACTIVE: 'Only an inactive user can be deleted.',
  SELF_DELETE: 'The job’s submitter cannot delete their own account.',
  NOT_FOUND: 'The user no longer exists.',
  NOT_DELETED: 'The user is not deleted.',
  FORBIDDEN: 'The job’s submitter lacks a permission this change needs.',
  ROLE_ALREADY_HELD: 'The user already holds the role.',
  ROLE_NOT_HELD: 'The user does not hold the role.',
  NOT_ACTIVE: 'The user is not active: activate the account before inviting them.',
  ALREADY_SIGNED_IN: 'The user has already signed in: send a password reset instead.',
  ATTRIBUTE_VALUE_TAKEN: 'Another user already holds this value of a unique attribute.',
  EMAIL_TAKEN: 'The e-mail address already has an account.',
  DUPLICATE_IN_FILE: 'An earlier line of the file has the same e-mail address.',
  USER_DELETED: 'The account is deleted, and the import was not asked to restore it.',
  CHANGED_SINCE: 'The account was changed after the import: left as it is.',
  INVALID_ROW: 'The line cannot be read as a user.',
  INVALID_EMAIL: 'The e-mail address is not valid.',
  INVALID_NAME: 'The name is not valid.',
  INVALID_PASSWORD: 'The password is not valid.',
  BAD_PASSWORD_HASH: 'The password hash is not one that can be imported.',
  BAD_ACTIVE: 'The active column is not yes or no.',
  UNKNOWN_ROLE: 'The line names a role that does not exist.',
  ROLE_NOT_GRANTABLE: 'The line names a role the job’s submitter may not give.',
  ID_NOT_FOUND: 'No account has the id the line names.',
  INVALID_ATTRIBUTE: 'A custom attribute’s value on the line is not valid.',
  INTERNAL: 'Something went wrong on our side with this line.',
};

/** A bulk job's report columns, in the file's order (CSV header, JSON keys). */
export const JOB_REPORT_COLUMNS = [
  { key: 'id', label: 'id', type: 'number' },
  { key: 'email', label: 'email', type: 'string' },
  { key: 'outcome', label: 'outcome', type: 'string' },
  { key: 'code', label: 'code', type: 'string' },
  { key: 'message', label: 'message', type: 'string' },
  { key: 'before', label: 'before', type: 'json' },
  { key: 'after', label: 'after', type: 'json' },
] as const satisfies readonly ColumnDefinition<keyof JobReportRow & string>[];

/** An import's report: the file's line first, so a user can fix the file and upload it again. */
export const IMPORT_REPORT_COLUMNS = [
  { key: 'line', label: 'line', type: 'number' },
  ...JOB_REPORT_COLUMNS,
] as const satisfies readonly ColumnDefinition<keyof JobReportRow & string>[];

export const JobsListResultSchema = listResultSchema(JobWithSubmitterSchema);
export type JobsListResult = z.infer<typeof JobsListResultSchema>;

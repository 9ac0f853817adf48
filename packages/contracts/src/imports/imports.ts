import { z } from 'zod';
import { booleanish } from '../query/fields';
import { RoleNameSchema } from '../roles/role-name';

/**
 * Importing users from a file (SPEC §13, issue "Bring an organisation's people in"): the file is
 * the body of `POST /users/imports`, the options are its query string, and the answer is a job
 * (202) whose counts and report say, per line of the file, what happened or would happen.
 */

/**
 * The fields a column of the file can fill. `id` (an export's "ID") names the account a line
 * updates in `upsert` mode, before its e-mail; `create` mode fills nothing from it.
 */
export const IMPORT_FIELDS = [
  'id',
  'name',
  'email',
  'roles',
  'is_active',
  'password',
  'password_hash',
  'external_id',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/**
 * A column holding a custom attribute's values (SPEC §14): `attributes.<key>`. The file names it
 * by the attribute's key or label (or `attributes.<key>`, as a JSON export writes it).
 */
export const ImportAttributeColumnSchema = z.templateLiteral(['attributes.', z.string().regex(/^[a-z][a-z0-9_]*$/)]);
export type ImportAttributeColumn = z.infer<typeof ImportAttributeColumnSchema>;
/** What a column of the file can fill: a user's field, or a custom attribute. */
export type ImportTarget = ImportField | ImportAttributeColumn;
export const isImportAttributeColumn = (target: string): target is ImportAttributeColumn =>
  ImportAttributeColumnSchema.safeParse(target).success;

export const IMPORT_FORMATS = ['csv', 'xlsx', 'json', 'ndjson'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const IMPORT_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'iso-8859-1'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

/** CSV delimiters; a tab may be given as `tab`. */
export const IMPORT_DELIMITERS = [',', ';', '\t', '|'] as const;
export type ImportDelimiter = (typeof IMPORT_DELIMITERS)[number];

/**
 * `create` adds new users only; `upsert` also updates the users the file names: by a line's `id`
 * when it has one (its e-mail may then change), by its e-mail otherwise.
 */
export const IMPORT_MODES = ['create', 'upsert'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** The media types a file may be sent as (or `multipart/form-data` with the file in field `file`). */
export const IMPORT_MEDIA_TYPES: Readonly<Record<string, ImportFormat>> = {
  'text/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/json': 'json',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
};

/** What a line of the file can end as. */
export const IMPORT_OUTCOMES = ['create', 'update', 'unchanged', 'skip', 'error'] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

/**
 * Why a line was not imported: `skip` codes leave a valid line alone on purpose (a deleted user
 * not asked to be restored, an e-mail already taken in `create` mode, a later line repeating an
 * e-mail or id; an undo: an account changed since the import), every other code is an error in
 * the line that the file's author can fix.
 */
export const IMPORT_SKIP_CODES = ['EMAIL_TAKEN', 'DUPLICATE_IN_FILE', 'USER_DELETED', 'CHANGED_SINCE'] as const;
export const IMPORT_ERROR_CODES = [
  'INVALID_ROW',
  'INVALID_EMAIL',
  'INVALID_NAME',
  'INVALID_PASSWORD',
  'BAD_PASSWORD_HASH',
  'BAD_ACTIVE',
  'UNKNOWN_ROLE',
  'ROLE_NOT_GRANTABLE',
  // An upsert line's id that no account has (deleted accounts included).
  'ID_NOT_FOUND',
  // A custom attribute's value the definition refuses (its message names the attribute and the rule).
  'INVALID_ATTRIBUTE',
] as const;
/** Rules of SPEC §7 an update in the file can break, with the codes the API answers them with. */
export const IMPORT_RULE_CODES = ['OUTRANKED', 'FORBIDDEN', 'SELF_DEACTIVATION', 'LAST_ADMIN'] as const;
export const IMPORT_PROBLEM_CODES = [...IMPORT_SKIP_CODES, ...IMPORT_ERROR_CODES, ...IMPORT_RULE_CODES] as const;
export type ImportProblemCode = (typeof IMPORT_PROBLEM_CODES)[number];

const delimiter = z.preprocess(
  (raw) => (raw === 'tab' || raw === '\\t' ? '\t' : raw),
  z.enum(IMPORT_DELIMITERS, { error: 'The delimiter must be one of: , ; | tab.' }),
);

/**
 * The upload's options, from the query string. `map[<column>]=<field>` names the field a column
 * fills (or `ignore`), for headers the server does not recognise or recognises wrongly.
 */
export const ImportOptionsSchema = z.object({
  mode: z.enum(IMPORT_MODES, { error: 'The mode must be create or upsert.' }).default('create'),
  dryRun: booleanish(z.boolean()).default(false),
  /** Roles (by name) given to each new user whose line names none. */
  defaultRoles: z
    .preprocess((raw) => (typeof raw === 'string' ? [raw] : raw), z.array(RoleNameSchema).max(50))
    .default([]),
  /** Whether new users whose line does not say are active. */
  activate: booleanish(z.boolean()).default(true),
  /** Whether a line naming a deleted user restores it (upsert); otherwise it is skipped. */
  restore: booleanish(z.boolean()).default(false),
  encoding: z
    .enum(IMPORT_ENCODINGS, { error: `The encoding must be one of: ${IMPORT_ENCODINGS.join(', ')}.` })
    .optional(),
  delimiter: delimiter.optional(),
  sheet: z.string().trim().min(1).max(31).optional(),
  map: z
    .record(
      z.string().max(255),
      z.union([z.enum([...IMPORT_FIELDS, 'ignore']), ImportAttributeColumnSchema], {
        error: `Map a column to one of: ${IMPORT_FIELDS.join(', ')}, ignore, or attributes.<key> for a custom attribute.`,
      }),
    )
    .optional(),
});
export type ImportOptions = z.output<typeof ImportOptionsSchema>;

export const ImportColumnSchema = z.object({
  header: z.string(),
  field: z.union([z.enum(IMPORT_FIELDS), ImportAttributeColumnSchema]).nullable(),
});
export type ImportColumn = z.infer<typeof ImportColumnSchema>;

/** What the server read from the file and how it understood it: shown before anything is applied. */
export const ImportFileSchema = z.object({
  name: z.string().nullable(),
  bytes: z.number().int().nonnegative(),
  format: z.enum(IMPORT_FORMATS),
  encoding: z.enum(IMPORT_ENCODINGS).nullable(),
  delimiter: z.enum(IMPORT_DELIMITERS).nullable(),
  sheet: z.string().nullable(),
  /** Data rows (the header row not counted). */
  rows: z.number().int().nonnegative(),
  columns: z.array(ImportColumnSchema),
  /** Headers that fill no field (reported, not fatal). */
  unknown: z.array(z.string()),
  /** The first rows as read, cell by cell in the columns' order. */
  sample: z.array(z.array(z.string())).max(5),
});
export type ImportFile = z.infer<typeof ImportFileSchema>;

/** What a refused file was read as before it was refused (no rows counted): its columns to map. */
export const ImportFilePreviewSchema = ImportFileSchema.omit({ rows: true });
export type ImportFilePreview = z.infer<typeof ImportFilePreviewSchema>;

/** An import job's own part of the job: its file, its options and what each line ended as. */
export const ImportSummarySchema = z.object({
  file: ImportFileSchema,
  mode: z.enum(IMPORT_MODES),
  activate: z.boolean(),
  restore: z.boolean(),
  defaultRoles: z.array(z.string()),
  outcomes: z.record(z.enum(IMPORT_OUTCOMES), z.number().int().nonnegative()),
  /** For `update`: how many lines change each field. */
  fields: z.record(z.string(), z.number().int().nonnegative()),
});
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

/** At most this many problem lines travel with an import job (its report has every one). */
export const IMPORT_PROBLEMS_SHOWN = 100;

export const ImportProblemSchema = z.object({
  line: z.number().int().positive(),
  /** Null for a caller who may not see users (see JobShow's `people`). */
  email: z.string().nullable(),
  code: z.enum(IMPORT_PROBLEM_CODES),
  message: z.string(),
});
export type ImportProblem = z.infer<typeof ImportProblemSchema>;

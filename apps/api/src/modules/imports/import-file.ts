import {
  canonicalEmail,
  type ImportFile,
  type ImportMode,
  type ImportOptions,
  UserCreateInputSchema,
} from '@app/contracts';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { hashPassword } from '../../auth/password.js';
import { AppError } from '../../errors.js';
import {
  type AttributeHeader,
  ImportFileError,
  looksLikePasswordHash,
  matchColumns,
  openImportFile,
  recordOf,
  type SourceRow,
} from '../../imports/reading/index.js';
import type { SpooledFile } from '../../imports/spool.js';
import { dropUpload } from '../../imports/prune.js';
import { completeUpload, createUpload, type StagedLine, type StagedRecord, stageLines } from './imports.staging.js';

/** Rows shown before anything is applied (the preview of the SPA's import page). */
const SAMPLE_ROWS = 5;
/** Lines written per round of staging. */
const STAGE_BATCH = 1_000;
/** Passwords hashed at once: the hashes run on libuv's pool, which has four threads. */
const HASHES_AT_ONCE = 4;

const MB = 1024 * 1024;

const passwordSchema = UserCreateInputSchema.shape.password;

/** A refusal of the whole file, as the 422 the person who sent it reads. */
const fileRefused = (message: string) => new AppError('VALIDATION_FAILED', message, { errors: { file: [message] } });

/**
 * A line's `password` is validated like any password and hashed here, before it is staged: the
 * staging table never holds a password in clear. A dry run only validates it (a hash costs ~60 ms
 * of CPU and the dry run writes nothing).
 */
async function withPassword(record: StagedRecord, password: string | null, dryRun: boolean): Promise<StagedRecord> {
  if (password === null || record.problem) return record;
  const checked = passwordSchema.safeParse(password);
  if (!checked.success) {
    const message = checked.error.issues[0]?.message ?? 'The password is not valid.';
    return { ...record, problem: { code: 'INVALID_PASSWORD', message } };
  }
  if (record.hash_from === 'password_hash') {
    const message = 'The line has both a password and a password hash; keep one of them.';
    return { ...record, problem: { code: 'INVALID_PASSWORD', message } };
  }
  return { ...record, password_hash: dryRun ? null : await hashPassword(password), hash_from: 'password' };
}

async function stagedLine(
  row: SourceRow,
  columns: ReturnType<typeof matchColumns>['columns'],
  dryRun: boolean,
): Promise<StagedLine> {
  const read = recordOf(row, columns);
  if ('error' in read) {
    const record: StagedRecord = {
      id: null,
      name: null,
      email: null,
      roles: null,
      is_active: null,
      password_hash: null,
      hash_from: null,
      external_id: null,
      problem: { code: read.error.code === 'BAD_ACTIVE' ? 'BAD_ACTIVE' : 'INVALID_ROW', message: read.error.message },
    };
    // The e-mail still names the line in the report, when the row has one.
    const email = emailCell(row, columns);
    return { line: row.line, emailKey: null, record: { ...record, email } };
  }
  const r = read.record;
  const base: StagedRecord = {
    name: r.name,
    email: r.email,
    roles: r.roles,
    is_active: r.is_active,
    password_hash: r.password_hash,
    hash_from: r.password_hash === null ? null : 'password_hash',
    external_id: r.external_id,
    ...(Object.keys(r.attributes).length > 0 ? { attributes: r.attributes } : {}),
    problem: null,
  };
  const record = await withPassword(withId(base, r.id), r.password, dryRun);
  return { line: row.line, emailKey: r.email ? canonicalEmail(r.email).slice(0, 255) : null, record };
}

/** An account id as a cell says it: a whole number (an export writes it so), at most 15 digits. */
const ACCOUNT_ID = /^\d{1,15}$/;

/** The line's `id` cell read as the account it names, or the line's problem when it names none. */
function withId(record: StagedRecord, cell: string | null): StagedRecord {
  const text = cell?.trim() ?? '';
  if (text === '') return { ...record, id: null };
  const id = ACCOUNT_ID.test(text) ? Number(text) : 0;
  if (id > 0) return { ...record, id };
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  const message = `"${shown}" is not an account id: leave the ID empty to match the line by its e-mail.`;
  return { ...record, id: null, problem: record.problem ?? { code: 'INVALID_ROW', message } };
}

/**
 * A later line naming an id an earlier line named is not imported, as with e-mails: lines are
 * checked in the file's order while staged (`firstLineOfId` holds the ids seen so far), so a dry
 * run and the real run agree whatever chunk each line falls in.
 */
function withoutRepeatedIds(lines: StagedLine[], firstLineOfId: Map<number, number>): void {
  for (const staged of lines) {
    const { id, problem } = staged.record;
    if (id === null || id === undefined || problem) continue;
    const first = firstLineOfId.get(id);
    if (first === undefined) {
      firstLineOfId.set(id, staged.line);
      continue;
    }
    const message = `Line ${first} already names the account with ID ${id}; only the first line naming it is imported.`;
    staged.record = { ...staged.record, problem: { code: 'DUPLICATE_IN_FILE', message } };
  }
}

/**
 * In `create` mode an ID column fills nothing (there is no account to name): it is listed with
 * the headers that fill no field, so the file's preview says it is not imported.
 */
function idColumnIgnored(match: ReturnType<typeof matchColumns>, mode: ImportMode): ReturnType<typeof matchColumns> {
  if (mode !== 'create') return match;
  if (!match.columns.some((c) => c.field === 'id')) return match;
  const unknown = new Set(match.unknown);
  return {
    ...match,
    columns: match.columns.map((c) => (c.field === 'id' ? { ...c, field: null } : c)),
    // In the file's order, as the other headers that fill nothing.
    unknown: match.columns.filter((c) => c.field === 'id' || unknown.has(c.header)).map((c) => c.header),
  };
}

function emailCell(row: SourceRow, columns: ReturnType<typeof matchColumns>['columns']): string | null {
  const column = columns.find((c) => c.field === 'email');
  const value = column ? row.values[column.index]?.trim() : '';
  return value ? value : null;
}

const HIDDEN = '••••••';
const SECRET_FIELDS = new Set(['password', 'password_hash']);
const SECRET_HEADER = /pass(word)?|pwd|hash|secret/i;

/**
 * A preview row with its secrets hidden: a password or hash column (by its field, or by a header
 * that names one, however it is mapped) is shown as dots, and so is any cell holding a hash. The
 * preview travels with the job to whoever may see it; a password never does.
 */
function maskSecrets(values: readonly string[], columns: ReturnType<typeof matchColumns>['columns']): string[] {
  return values.map((value, index) => {
    const column = columns[index];
    const secret =
      (column?.field && SECRET_FIELDS.has(column.field)) ||
      SECRET_HEADER.test(column?.header ?? '') ||
      looksLikePasswordHash(value);
    return secret && value !== '' ? HIDDEN : value;
  });
}

/** Stages `lines`, hashing at most HASHES_AT_ONCE passwords at a time; `firstLineOfId`: see withoutRepeatedIds. */
async function stageBatch(
  db: Database,
  uploadId: number,
  rows: readonly SourceRow[],
  columns: ReturnType<typeof matchColumns>['columns'],
  dryRun: boolean,
  firstLineOfId: Map<number, number>,
): Promise<void> {
  const lines: StagedLine[] = new Array(rows.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < rows.length; i = next++)
      lines[i] = await stagedLine(rows[i] as SourceRow, columns, dryRun);
  };
  await Promise.all(Array.from({ length: HASHES_AT_ONCE }, worker));
  withoutRepeatedIds(lines, firstLineOfId);
  await stageLines(db, uploadId, lines);
}

/**
 * Reads a spooled file into the staging tables: its format as detected (or given), its columns
 * as matched (the options' `map` first; `attributes`: the custom attributes the caller may see,
 * by key or label), its first rows, then every line, a batch at a time. A
 * file that cannot be read at all is refused whole (422) and nothing of it stays staged.
 */
export async function stageFile(
  db: Database,
  config: AppConfig,
  actorId: number | null,
  spooled: SpooledFile,
  options: ImportOptions,
  attributes: readonly AttributeHeader[] = [],
): Promise<{ uploadId: number; file: ImportFile }> {
  let uploadId: number | null = null;
  try {
    const opened = await openImportFile(spooled.path, {
      ...(spooled.format ? { format: spooled.format } : {}),
      ...(options.encoding ? { encoding: options.encoding } : {}),
      ...(options.delimiter ? { delimiter: options.delimiter } : {}),
      ...(options.sheet ? { sheet: options.sheet } : {}),
      limits: {
        maxRows: config.IMPORT_MAX_ROWS,
        maxUncompressedBytes: config.IMPORT_MAX_UNCOMPRESSED_MB * MB,
        maxSharedStringBytes: config.IMPORT_MAX_SHARED_STRINGS_MB * MB,
      },
    });
    const iterator = opened.rows[Symbol.asyncIterator]();
    const first: SourceRow[] = [];
    let step = await iterator.next();
    while (!step.done && first.length < SAMPLE_ROWS) {
      first.push(step.value);
      step = await iterator.next();
    }
    const { headers } = opened.detected;
    const match = idColumnIgnored(matchColumns(headers, options.map ?? {}, first, attributes), options.mode);
    const file: Omit<ImportFile, 'rows'> = {
      name: spooled.name,
      bytes: spooled.bytes,
      format: opened.detected.format,
      encoding: opened.detected.encoding,
      delimiter: opened.detected.delimiter,
      sheet: opened.detected.sheet,
      columns: match.columns.map((c) => ({ header: c.header, field: c.field })),
      unknown: match.unknown,
      sample: first.map((row) => maskSecrets(row.values, match.columns)),
    };
    if (match.missing.includes('email')) {
      // The answer says how the file was read, so its sender can name the e-mail column and retry.
      const message = `No column holds the e-mail addresses. The file's columns are: ${headers.join(', ') || 'none'}. Name the right one with map[<column>]=email.`;
      throw new AppError('VALIDATION_FAILED', message, { errors: { file: [message] }, extra: { file } });
    }
    const id = await createUpload(db, actorId, file);
    uploadId = id;
    // Each batch is written while the next one is read: parsing and the database overlap.
    let writing: Promise<void> = Promise.resolve();
    const firstLineOfId = new Map<number, number>();
    const write = async (lines: SourceRow[]) => {
      await writing;
      writing = stageBatch(db, id, lines, match.columns, options.dryRun, firstLineOfId);
      // Handled when awaited; until then a failure must not count as unhandled.
      writing.catch(() => undefined);
    };
    let batch = first;
    let rows = 0;
    while (!step.done) {
      batch.push(step.value);
      if (batch.length >= STAGE_BATCH) {
        await write(batch);
        rows += batch.length;
        batch = [];
      }
      step = await iterator.next();
    }
    await write(batch);
    await writing;
    rows += batch.length;
    if (rows === 0) throw fileRefused('The file has a header row but no rows below it.');
    await completeUpload(db, uploadId, rows);
    return { uploadId, file: { ...file, rows } };
  } catch (err) {
    if (uploadId !== null) await dropUpload(db, uploadId);
    if (err instanceof ImportFileError) throw fileRefused(err.message);
    throw err;
  }
}

import type { ImportFile } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { sqlDate } from '../../db/sql-date.js';
import { inWriteTurn } from '../../db/transaction.js';

/**
 * The staging tables of imports (migration 0014): an upload's description and its lines, each
 * line's fields as JSON. Lines are written as the file is read, in multi-row statements, and read
 * back by the import job in line order, a chunk at a time.
 */

/** A line's fields as staged: what the file said, a password already hashed, never in clear. */
export interface StagedRecord {
  /** The account the line names by id (upsert only); absent in lines staged before ids were read. */
  id?: number | null;
  name: string | null;
  email: string | null;
  roles: string[] | null;
  is_active: boolean | null;
  /** Our own hash of the line's `password`, or the imported hash of its `password_hash`. */
  password_hash: string | null;
  /** Which column the hash came from: `password_hash` must still pass the imported-hash check. */
  hash_from: 'password' | 'password_hash' | null;
  external_id: string | null;
  /** Custom attribute values by key, as the file's cells say them (absent: none given). */
  attributes?: Record<string, string>;
  /** Why the line cannot be imported, found while reading it. */
  problem: { code: string; message: string } | null;
}

export interface StagedLine {
  line: number;
  emailKey: string | null;
  record: StagedRecord;
}

/** Lines per INSERT: a statement of about 150 KB. */
const LINES_PER_INSERT = 1_000;

type UploadDescription = Omit<ImportFile, 'rows'>;

export async function createUpload(db: Database, actorId: number | null, file: UploadDescription): Promise<number> {
  const now = new Date();
  const [id] = await inWriteTurn(db, () =>
    db.sequelize.query(
      `INSERT INTO import_uploads (actor_id, name, bytes, format, encoding, delimiter, sheet, \`rows\`, columns, sample, created_at)
       VALUES (:actorId, :name, :bytes, :format, :encoding, :delimiter, :sheet, 0, :columns, :sample, :now)`,
      {
        replacements: {
          actorId,
          name: file.name,
          bytes: file.bytes,
          format: file.format,
          encoding: file.encoding,
          delimiter: file.delimiter,
          sheet: file.sheet,
          columns: JSON.stringify({ columns: file.columns, unknown: file.unknown }),
          sample: JSON.stringify(file.sample),
          now: sqlDate(db, now),
        },
        type: QueryTypes.INSERT,
      },
    ),
  );
  return Number(id);
}

/** Writes `lines` of an upload, each statement its own short write (no transaction held open). */
export async function stageLines(db: Database, uploadId: number, lines: readonly StagedLine[]): Promise<void> {
  for (let i = 0; i < lines.length; i += LINES_PER_INSERT) {
    const part = lines.slice(i, i + LINES_PER_INSERT);
    await inWriteTurn(db, () =>
      db.sequelize.query('INSERT INTO import_rows (upload_id, line, email_key, record) VALUES :rows', {
        // One named replacement holding the rows: Sequelize writes each inner array as `(…)`,
        // without scanning a statement of thousands of `?`s.
        replacements: { rows: part.map((l) => [uploadId, l.line, l.emailKey, JSON.stringify(l.record)]) },
        type: QueryTypes.INSERT,
      }),
    );
  }
}

export async function completeUpload(db: Database, uploadId: number, rows: number): Promise<void> {
  await inWriteTurn(db, () =>
    db.sequelize.query('UPDATE import_uploads SET `rows` = :rows, completed_at = :now WHERE id = :uploadId', {
      replacements: { rows, now: sqlDate(db, new Date()), uploadId },
    }),
  );
}

/** The next `limit` lines after `afterLine`, in line order. */
export async function linesAfter(
  db: Database,
  tx: Transaction,
  uploadId: number,
  afterLine: number,
  limit: number,
): Promise<StagedLine[]> {
  const rows = await db.sequelize.query<{ line: number | string; email_key: string | null; record: string }>(
    'SELECT line, email_key, record FROM import_rows WHERE upload_id = :uploadId AND line > :afterLine ORDER BY line LIMIT :limit',
    { replacements: { uploadId, afterLine, limit }, type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.map((r) => ({
    line: Number(r.line),
    emailKey: r.email_key,
    record: JSON.parse(r.record) as StagedRecord,
  }));
}

/** For each e-mail key, the first line of the upload holding it (one index read per key). */
export async function firstLines(
  db: Database,
  tx: Transaction,
  uploadId: number,
  keys: readonly string[],
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await db.sequelize.query<{ email_key: string; first: number | string }>(
    'SELECT email_key, MIN(line) AS first FROM import_rows WHERE upload_id = :uploadId AND email_key IN (:keys) GROUP BY email_key',
    { replacements: { uploadId, keys: [...keys] }, type: QueryTypes.SELECT, transaction: tx },
  );
  // The key column compares like users.email (case-insensitively); the keys are canonical already.
  return new Map(rows.map((r) => [r.email_key.toLowerCase(), Number(r.first)]));
}

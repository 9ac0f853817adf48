import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import type mysql from 'mysql2/promise';

/** Every user the imports bench creates has an e-mail on this domain, and no one else does. */
export const IMPORT_DOMAIN = 'import.bench.example';
const DOMAIN_LIKE = `%@${IMPORT_DOMAIN}`;
const ROLE = 'viewer';
const BATCH = 1_000;

/** Line `i` (0-based) of every file and of the floor: the same rows everywhere. */
export function importRow(i: number) {
  const n = String(i + 1).padStart(7, '0');
  return { name: `Import Person ${n}`, email: `person.${n}@${IMPORT_DOMAIN}`, roles: ROLE, active: 'true' };
}

/** A CSV of `rows` lines (header `name,email,roles,active`), streamed to disk 10 000 lines at a time. */
export async function writeCsv(file: string, rows: number): Promise<number> {
  async function* text() {
    yield 'name,email,roles,active\n';
    for (let start = 0; start < rows; start += 10_000) {
      let chunk = '';
      for (let i = start; i < Math.min(rows, start + 10_000); i++) {
        const r = importRow(i);
        chunk += `${r.name},${r.email},${r.roles},${r.active}\n`;
      }
      yield chunk;
    }
  }
  await pipeline(Readable.from(text()), fs.createWriteStream(file));
  return fs.statSync(file).size;
}

/** The same lines as an XLSX workbook (one sheet), written by exceljs's streaming writer. */
export async function writeXlsx(file: string, rows: number): Promise<number> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet('users');
  sheet.addRow(['name', 'email', 'roles', 'active']).commit();
  for (let i = 0; i < rows; i++) {
    const r = importRow(i);
    sheet.addRow([r.name, r.email, r.roles, r.active]).commit();
  }
  sheet.commit();
  await book.commit();
  return fs.statSync(file).size;
}

/**
 * The floor: the same `rows` users inserted as plainly as the database allows — multi-row INSERTs
 * of 1 000 users and their role rows, one transaction each, the triggers (counters, search grams)
 * firing as for any insert. Returns the seconds taken; the rows stay (removeImported deletes them).
 */
export async function insertFloor(conn: mysql.Connection, rows: number, log: (s: string) => void): Promise<number> {
  const [[viewer]] = (await conn.query<mysql.RowDataPacket[]>('SELECT id FROM roles WHERE name = ?', [
    ROLE,
  ])) as unknown as [[{ id: number } | undefined]];
  if (!viewer) throw new Error(`no role named ${ROLE}`);
  const started = Date.now();
  let lastLog = started;
  for (let start = 0; start < rows; start += BATCH) {
    const now = new Date();
    const values: unknown[][] = [];
    for (let i = start; i < Math.min(rows, start + BATCH); i++) {
      const r = importRow(i);
      values.push([r.name, r.email, '!', 1, now, now]);
    }
    await conn.query('START TRANSACTION');
    const [res] = await conn.query<mysql.ResultSetHeader>(
      'INSERT INTO users (name, email, password_hash, is_active, created_at, updated_at) VALUES ?',
      [values],
    );
    // innodb_autoinc_lock_mode ≤ 1 (checked by the caller): a multi-row INSERT takes consecutive ids.
    const links = values.map((_, k) => [res.insertId + k, viewer.id]);
    await conn.query('INSERT INTO user_roles (user_id, role_id) VALUES ?', [links]);
    await conn.query('COMMIT');
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      log(`  floor: ${(start + values.length).toLocaleString('en')} / ${rows.toLocaleString('en')} rows`);
    }
  }
  return (Date.now() - started) / 1000;
}

/**
 * Deletes every user on the bench domain with its role rows, 1 000 at a time by id (one scan finds
 * the ids; a `LIKE '%@…'` per batch would rescan the e-mail index each time). The delete triggers
 * take them off the counters and the search grams. Returns how many were deleted.
 */
export async function removeImported(conn: mysql.Connection, log: (s: string) => void): Promise<number> {
  const [found] = await conn.query<mysql.RowDataPacket[]>('SELECT id FROM users WHERE email LIKE ? ORDER BY id', [
    DOMAIN_LIKE,
  ]);
  const ids = found.map((r) => Number(r.id));
  let lastLog = Date.now();
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    await conn.query('START TRANSACTION');
    await conn.query('DELETE FROM user_roles WHERE user_id IN (?)', [batch]);
    await conn.query('DELETE FROM users WHERE id IN (?) AND email LIKE ?', [batch, DOMAIN_LIKE]);
    await conn.query('COMMIT');
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      log(`  deleted ${(i + batch.length).toLocaleString('en')} / ${ids.length.toLocaleString('en')} bench users`);
    }
  }
  return ids.length;
}

export interface UserCounts {
  rows: number;
  total: number;
  active: number;
  trashed: number;
}

/** The user_stats counters and the users table's row count. */
export async function userCounts(conn: mysql.Connection): Promise<UserCounts> {
  const [[s]] = (await conn.query<mysql.RowDataPacket[]>(
    'SELECT total, active, trashed, (SELECT COUNT(*) FROM users) AS n FROM user_stats WHERE id = 1',
  )) as unknown as [[{ total: number; active: number; trashed: number; n: number }]];
  return { rows: Number(s.n), total: Number(s.total), active: Number(s.active), trashed: Number(s.trashed) };
}

export const sameCounts = (a: UserCounts, b: UserCounts) =>
  a.rows === b.rows && a.total === b.total && a.active === b.active && a.trashed === b.trashed;

/**
 * Recounts user_stats from the users table: only when the counters differ from the start after
 * the bench's own users are gone (they should not — every insert, import and delete here goes
 * through the triggers or the importer's exact deferred deltas — but a run killed mid-chunk must
 * not leave them wrong).
 */
export async function recountStats(conn: mysql.Connection): Promise<void> {
  await conn.query(
    `UPDATE user_stats s, (SELECT SUM(deleted_at IS NULL) AS total, SUM(deleted_at IS NULL AND is_active = 1) AS active,
       SUM(deleted_at IS NOT NULL) AS trashed FROM users) c
     SET s.total = c.total, s.active = c.active, s.trashed = c.trashed WHERE s.id = 1`,
  );
}

/**
 * Drops the staged lines of the bench's imports, as the job runner's hourly prune would (10 000
 * per statement): a rerun within the hour must not find a million stale lines per earlier run.
 */
export async function dropStaging(conn: mysql.Connection, jobIds: readonly number[]): Promise<void> {
  if (jobIds.length === 0) return;
  const [uploads] = await conn.query<mysql.RowDataPacket[]>('SELECT id FROM import_uploads WHERE job_id IN (?)', [
    jobIds,
  ]);
  for (const { id } of uploads) {
    for (;;) {
      const [res] = await conn.query<mysql.ResultSetHeader>('DELETE FROM import_rows WHERE upload_id = ? LIMIT 10000', [
        id,
      ]);
      if (res.affectedRows < 10_000) break;
    }
    await conn.query('DELETE FROM import_uploads WHERE id = ?', [id]);
  }
}

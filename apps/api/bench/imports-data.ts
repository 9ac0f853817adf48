import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import type mysql from 'mysql2/promise';

/**
 * The e-mail domains the imports bench writes, one per scenario, so that no scenario runs into
 * another's users and nothing has to be deleted between them (the scratch database is dropped
 * at the end). The two comparison files' domains have the same length, so their lines weigh the same.
 */
export const IMPORT_DOMAINS = {
  floor: 'floor.imports.bench.example',
  lines: 'lines.imports.bench.example',
  csv: 'csv-compare.imports.bench.example',
  xlsx: 'xls-compare.imports.bench.example',
} as const;
const ROLE = 'viewer';
const BATCH = 1_000;

/** Line `i` (0-based) of a file or of the floor on `domain`: the same rows everywhere but the domain. */
export function importRow(i: number, domain: string) {
  const n = String(i + 1).padStart(7, '0');
  return { name: `Import Person ${n}`, email: `person.${n}@${domain}`, roles: ROLE, active: 'true' };
}

/** A CSV of `rows` lines (header `name,email,roles,active`), streamed to disk 10 000 lines at a time. */
export async function writeCsv(file: string, rows: number, domain: string): Promise<number> {
  async function* text() {
    yield 'name,email,roles,active\n';
    for (let start = 0; start < rows; start += 10_000) {
      let chunk = '';
      for (let i = start; i < Math.min(rows, start + 10_000); i++) {
        const r = importRow(i, domain);
        chunk += `${r.name},${r.email},${r.roles},${r.active}\n`;
      }
      yield chunk;
    }
  }
  await pipeline(Readable.from(text()), fs.createWriteStream(file));
  return fs.statSync(file).size;
}

/** The same lines as an XLSX workbook (one sheet), written by exceljs's streaming writer. */
export async function writeXlsx(file: string, rows: number, domain: string): Promise<number> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: false, useSharedStrings: false });
  const sheet = book.addWorksheet('users');
  sheet.addRow(['name', 'email', 'roles', 'active']).commit();
  for (let i = 0; i < rows; i++) {
    const r = importRow(i, domain);
    sheet.addRow([r.name, r.email, r.roles, r.active]).commit();
  }
  sheet.commit();
  await book.commit();
  return fs.statSync(file).size;
}

/**
 * The floor: `rows` users (the files' lines, on `domain`) inserted as plainly as the database
 * allows — multi-row INSERTs of 1 000 users and their role rows, one transaction each, the
 * triggers (counters, search grams) firing as for any insert. Returns the seconds taken. The rows stay (nothing is deleted: the
 * imports after it run into a table that much larger).
 */
export async function insertFloor(
  conn: mysql.Connection,
  rows: number,
  domain: string,
  log: (s: string) => void,
): Promise<number> {
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
      const r = importRow(i, domain);
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

import type { Database } from './database.js';

/**
 * A Date as a replacement in hand-written SQL, to the millisecond. Sequelize writes a Date
 * replacement for MySQL without its milliseconds, so a retry due in 150 ms would read as due
 * now; the DATETIME(3) columns take `YYYY-MM-DD HH:MM:SS.mmm` (UTC, the sessions' time zone).
 * SQLite gets the Date itself, which Sequelize writes as its models do.
 */
export function sqlDate(db: Pick<Database, 'dialect'>, date: Date): Date | string {
  return db.dialect === 'mysql' ? date.toISOString().replace('T', ' ').replace('Z', '') : date;
}

/** `sqlDate` for a value that may be null. */
export const sqlDateOrNull = (db: Pick<Database, 'dialect'>, date: Date | null) =>
  date === null ? null : sqlDate(db, date);

/** A date as either driver returns it (a Date, or text), as the API answers it: ISO 8601 in UTC. */
export const toIso = (v: Date | string | null | undefined): string | null => {
  if (v === null || v === undefined) return null;
  return (v instanceof Date ? v : new Date(v)).toISOString();
};

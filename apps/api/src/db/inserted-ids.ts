import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from './database.js';

/**
 * How the engine numbers the rows of one multi-row INSERT. SQLite has one writer, so a
 * statement's rowids follow each other. MariaDB and MySQL give consecutive ids (by
 * `auto_increment_increment`) while `innodb_autoinc_lock_mode` is 0 or 1, MariaDB's default;
 * mode 2, MySQL 8's default, may interleave them with another statement's, so there each row is
 * inserted on its own. Read once per database.
 */
type Numbering = { consecutive: true; step: number } | { consecutive: false };

const numberings = new WeakMap<Database, Promise<Numbering>>();

/**
 * Read on the caller's own transaction: a read on another pooled connection would wait for one,
 * and with as many writers as connections, each holding one, it would wait for ever.
 */
function numbering(db: Database, tx: Transaction): Promise<Numbering> {
  let known = numberings.get(db);
  if (!known) {
    known =
      db.dialect === 'sqlite'
        ? Promise.resolve({ consecutive: true, step: 1 })
        : db.sequelize
            .query<{ mode: number | string; step: number | string }>(
              'SELECT @@innodb_autoinc_lock_mode AS mode, @@auto_increment_increment AS step',
              { type: QueryTypes.SELECT, plain: false, transaction: tx },
            )
            .then(([row]) =>
              row && Number(row.mode) <= 1 ? { consecutive: true, step: Number(row.step) } : { consecutive: false },
            );
    numberings.set(db, known);
    // A failed read is asked again next time rather than remembered.
    known.catch(() => numberings.delete(db));
  }
  return known;
}

/** Runs `sql` (an INSERT whose values are the named replacement `:rows`) for `rows`; their new ids. */
async function insertOnce(db: Database, tx: Transaction, sql: string, rows: readonly unknown[][], step: number) {
  const [id, affected] = (await db.sequelize.query(sql, {
    replacements: { rows },
    type: QueryTypes.INSERT,
    transaction: tx,
  })) as unknown as [number | string, number];
  if (Number(affected) !== rows.length) throw new Error(`an INSERT of ${rows.length} rows wrote ${affected}`);
  // mysql2 answers the first row's id, sqlite3 the last one's.
  const first = db.dialect === 'sqlite' ? Number(id) - (rows.length - 1) * step : Number(id);
  return rows.map((_, k) => first + k * step);
}

/**
 * Inserts `rows` with `sql` (`INSERT INTO t (…) VALUES :rows`), `perStatement` rows at a time,
 * and returns each row's new id in order, without reading the rows back.
 */
export async function insertWithIds(
  db: Database,
  tx: Transaction,
  sql: string,
  rows: readonly unknown[][],
  perStatement: number,
): Promise<number[]> {
  // A first read that failed with another caller's transaction is asked again on this one.
  const how = await numbering(db, tx).catch(() => numbering(db, tx));
  const ids: number[] = [];
  const size = how.consecutive ? perStatement : 1;
  const step = how.consecutive ? how.step : 1;
  for (let i = 0; i < rows.length; i += size)
    ids.push(...(await insertOnce(db, tx, sql, rows.slice(i, i + size), step)));
  return ids;
}

/** Inserts `rows` with `sql` (`… VALUES :rows`), `perStatement` rows at a time; no ids needed. */
export async function insertMany(
  db: Database,
  tx: Transaction | null,
  sql: string,
  rows: readonly unknown[][],
  perStatement: number,
): Promise<void> {
  for (let i = 0; i < rows.length; i += perStatement) {
    await db.sequelize.query(sql, {
      replacements: { rows: rows.slice(i, i + perStatement) },
      type: QueryTypes.INSERT,
      ...(tx ? { transaction: tx } : {}),
    });
  }
}

import type { Sequelize } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * The search index behind `q` (a substring of name or e-mail): a trigram index, so a search
 * reads the few users holding the term's rarest trigram instead of every row. The LIKE of the
 * plain search still decides every match (modules/users/users.search.ts); the index only has to
 * hold a superset of the matches, never miss one.
 *
 * - MySQL/MariaDB have no trigram index of their own (MySQL's ngram parser is MySQL-only and
 *   word-based): `user_search_grams` holds one row per distinct trigram of each user's name and
 *   e-mail, keyed (gram, user_id). The gram column has the users table's collation, so a gram
 *   matches every spelling the collation's LIKE matches (case, accents). Triggers keep it in the
 *   same transaction as every write to `users`, whatever the path (API, bulk, CLI, seeding, SQL).
 * - SQLite: an FTS5 table with the `trigram` tokenizer over the users table (external content),
 *   kept by triggers the same way.
 *
 * Existing users are indexed in batches of BATCH ids, each its own short transaction, so writers
 * are never held for long; the triggers exist before the first batch, so nothing written during
 * the build is missed (a batch skips grams a trigger already added).
 */

/** Ids per backfill batch: at ~35 grams a user, about 175 000 index rows per transaction. */
const BATCH = 5_000;
/** Longest indexed text: users.email is VARCHAR(255). */
const MAX_LENGTH = 255;

export const GRAMS_TABLE = 'user_search_grams';
export const FTS_TABLE = 'user_search';
const POSITIONS = 'user_search_positions';
const TRIGGERS = ['users_search_insert', 'users_search_update', 'users_search_delete'] as const;

/** The distinct trigrams of a row's name and e-mail (`row` is NEW, OLD or a table alias). */
const gramsOf = (row: string) =>
  `SELECT DISTINCT SUBSTRING(s.v, p.n, 3) AS gram
     FROM (SELECT ${row}.name AS v UNION ALL SELECT ${row}.email) AS s
     JOIN ${POSITIONS} AS p ON p.n <= CHAR_LENGTH(s.v) - 2`;

const insertGrams = (row: string) =>
  `INSERT INTO ${GRAMS_TABLE} (gram, user_id) SELECT o.gram, ${row}.id FROM (${gramsOf(row)}) AS o
   ON DUPLICATE KEY UPDATE gram = ${GRAMS_TABLE}.gram`;

const deleteGrams = (row: string) =>
  `DELETE g FROM ${GRAMS_TABLE} AS g JOIN (${gramsOf(row)}) AS o ON g.gram = o.gram WHERE g.user_id = ${row}.id`;

/** A byte comparison: the collation would call 'Zoe' and 'Zoë' unchanged, but their grams differ. */
const TEXT_CHANGED =
  'NOT (CAST(NEW.name AS BINARY) <=> CAST(OLD.name AS BINARY) AND CAST(NEW.email AS BINARY) <=> CAST(OLD.email AS BINARY))';

const MYSQL_TRIGGERS: Record<(typeof TRIGGERS)[number], string> = {
  users_search_insert: `AFTER INSERT ON users FOR EACH ROW ${insertGrams('NEW')}`,
  users_search_update: `AFTER UPDATE ON users FOR EACH ROW BEGIN IF ${TEXT_CHANGED} THEN ${deleteGrams('OLD')}; ${insertGrams('NEW')}; END IF; END`,
  users_search_delete: `AFTER DELETE ON users FOR EACH ROW ${deleteGrams('OLD')}`,
};

const ftsInsert = (row: string) =>
  `INSERT INTO ${FTS_TABLE} (rowid, name, email) VALUES (${row}.id, ${row}.name, ${row}.email)`;
const ftsDelete = (row: string) =>
  `INSERT INTO ${FTS_TABLE} (${FTS_TABLE}, rowid, name, email) VALUES ('delete', ${row}.id, ${row}.name, ${row}.email)`;

const SQLITE_TRIGGERS: Record<(typeof TRIGGERS)[number], string> = {
  users_search_insert: `AFTER INSERT ON users BEGIN ${ftsInsert('NEW')}; END`,
  users_search_update: `AFTER UPDATE OF name, email ON users BEGIN ${ftsDelete('OLD')}; ${ftsInsert('NEW')}; END`,
  users_search_delete: `AFTER DELETE ON users BEGIN ${ftsDelete('OLD')}; END`,
};

export const userSearchIndex: Migration = {
  name: '0007-user-search-index',
  async up({ qi, dialect, progress }) {
    const seq = qi.sequelize;
    if (dialect === 'mysql') {
      await seq.query(`CREATE TABLE ${POSITIONS} (n SMALLINT UNSIGNED NOT NULL PRIMARY KEY) ENGINE=InnoDB`);
      const positions = Array.from({ length: MAX_LENGTH }, (_, i) => `(${i + 1})`).join(',');
      await seq.query(`INSERT INTO ${POSITIONS} (n) VALUES ${positions}`);
      await seq.query(
        `CREATE TABLE ${GRAMS_TABLE} (
           gram VARCHAR(3) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL,
           user_id INT UNSIGNED NOT NULL,
           PRIMARY KEY (gram, user_id)
         ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
      );
      for (const name of TRIGGERS) await seq.query(`CREATE TRIGGER ${name} ${MYSQL_TRIGGERS[name]}`);
    } else {
      await seq.query(
        `CREATE VIRTUAL TABLE ${FTS_TABLE} USING fts5(name, email, content='users', content_rowid='id', tokenize='trigram')`,
      );
      // Per-trigram row counts, read by the search planner to find a term's rarest trigram.
      await seq.query(`CREATE VIRTUAL TABLE ${FTS_TABLE}_vocab USING fts5vocab(${FTS_TABLE}, 'row')`);
      for (const name of TRIGGERS) await seq.query(`CREATE TRIGGER ${name} ${SQLITE_TRIGGERS[name]}`);
    }
    await backfill(seq, dialect, progress ?? (() => undefined));
  },
  async down({ qi, dialect }) {
    const seq = qi.sequelize;
    for (const name of TRIGGERS) await seq.query(`DROP TRIGGER IF EXISTS ${name}`);
    if (dialect === 'mysql') {
      await seq.query(`DROP TABLE IF EXISTS ${GRAMS_TABLE}`);
      await seq.query(`DROP TABLE IF EXISTS ${POSITIONS}`);
    } else {
      await seq.query(`DROP TABLE IF EXISTS ${FTS_TABLE}_vocab`);
      await seq.query(`DROP TABLE IF EXISTS ${FTS_TABLE}`);
    }
  },
};

/** Indexes the users that existed before the triggers, BATCH ids at a time, reporting progress. */
async function backfill(seq: Sequelize, dialect: 'mysql' | 'sqlite', progress: (message: string) => void) {
  const [[bounds]] = (await seq.query('SELECT MIN(id) AS lo, MAX(id) AS hi, COUNT(*) AS n FROM users')) as unknown as [
    [{ lo: number | null; hi: number | null; n: number | string }],
  ];
  const total = Number(bounds.n);
  if (bounds.lo === null || bounds.hi === null || total === 0) return;
  const started = Date.now();
  let lastReport = started;
  const batch =
    dialect === 'mysql'
      ? `INSERT INTO ${GRAMS_TABLE} (gram, user_id)
           SELECT DISTINCT SUBSTRING(s.v, p.n, 3), s.id
             FROM (SELECT id, name AS v FROM users WHERE id BETWEEN :from AND :to
                   UNION ALL SELECT id, email FROM users WHERE id BETWEEN :from AND :to) AS s
             JOIN ${POSITIONS} AS p ON p.n <= CHAR_LENGTH(s.v) - 2
         ON DUPLICATE KEY UPDATE gram = ${GRAMS_TABLE}.gram`
      : // SQLite writes one transaction at a time: nothing can have indexed these rows already.
        `INSERT INTO ${FTS_TABLE} (rowid, name, email) SELECT id, name, email FROM users WHERE id BETWEEN :from AND :to`;
  const lo = Number(bounds.lo);
  const hi = Number(bounds.hi);
  progress(`search index: indexing ${total.toLocaleString('en')} users`);
  for (let from = lo; from <= hi; from += BATCH) {
    const to = Math.min(hi, from + BATCH - 1);
    await seq.transaction(async (transaction) => {
      await seq.query(batch, { replacements: { from, to }, transaction });
    });
    if (Date.now() - lastReport >= 5_000) {
      lastReport = Date.now();
      const share = (to - lo + 1) / (hi - lo + 1);
      progress(`search index: ${Math.round(share * 100)}% (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  }
  progress(
    `search index: ${total.toLocaleString('en')} users indexed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

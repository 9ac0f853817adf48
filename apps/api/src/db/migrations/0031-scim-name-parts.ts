import type { Migration } from './migration.js';

/**
 * What an identity provider says of a name and an e-mail beyond the product's one name and one
 * e-mail (issue 39; docs/decisions.md, "SCIM: name parts as sent"):
 *
 * - `users.given_name`, `users.family_name`: SCIM's `name.givenName` and `name.familyName` as the
 *   provider sent them ("Mary Ann" / "van der Berg" cannot be read back from one name). NULL when
 *   none was sent: SCIM then reads the parts from the name. Any other door that renames the
 *   account clears them (modules/users/users.write-repository.ts).
 * - `users.email_primary`: the e-mail's `primary` as last sent (NULL: not said), 1 for accounts
 *   made elsewhere.
 *
 * The parts join the search index, so `name.familyName co "berg"` narrows through it as a
 * substring of the name does: MariaDB's gram triggers are replaced in place (`CREATE OR REPLACE`,
 * one statement each: no write goes unindexed between a drop and a create); SQLite's FTS5 table
 * is rebuilt with the two columns. No backfill: the columns start empty. Adding nullable columns
 * is a metadata-only change on MariaDB.
 */

const POSITIONS = 'user_search_positions';
const GRAMS = 'user_search_grams';
const FTS = 'user_search';
const TEXTS = ['name', 'email', 'given_name', 'family_name'] as const;

type Texts = readonly string[];

const gramsOf = (row: string, texts: Texts) =>
  `SELECT DISTINCT SUBSTRING(s.v, p.n, 3) AS gram
     FROM (${texts.map((c, i) => `SELECT ${row}.${c}${i === 0 ? ' AS v' : ''}`).join(' UNION ALL ')}) AS s
     JOIN ${POSITIONS} AS p ON p.n <= CHAR_LENGTH(s.v) - 2`;
const insertGrams = (row: string, texts: Texts) =>
  `INSERT INTO ${GRAMS} (gram, user_id) SELECT o.gram, ${row}.id FROM (${gramsOf(row, texts)}) AS o
   ON DUPLICATE KEY UPDATE gram = ${GRAMS}.gram`;
const deleteGrams = (row: string, texts: Texts) =>
  `DELETE g FROM ${GRAMS} AS g JOIN (${gramsOf(row, texts)}) AS o ON g.gram = o.gram WHERE g.user_id = ${row}.id`;
const textChanged = (texts: Texts) =>
  `NOT (${texts.map((c) => `CAST(NEW.${c} AS BINARY) <=> CAST(OLD.${c} AS BINARY)`).join(' AND ')})`;

const mysqlTriggers = (texts: Texts): Record<string, string> => ({
  users_search_insert: `AFTER INSERT ON users FOR EACH ROW ${insertGrams('NEW', texts)}`,
  users_search_update: `AFTER UPDATE ON users FOR EACH ROW BEGIN IF ${textChanged(texts)} THEN ${deleteGrams('OLD', texts)}; ${insertGrams('NEW', texts)}; END IF; END`,
  users_search_delete: `AFTER DELETE ON users FOR EACH ROW ${deleteGrams('OLD', texts)}`,
});

/** MariaDB: each trigger replaced in one statement, so no write goes unindexed between a drop and a create. */
async function replaceTriggers(q: (sql: string) => Promise<unknown>, texts: Texts) {
  for (const [name, body] of Object.entries(mysqlTriggers(texts))) await q(`CREATE OR REPLACE TRIGGER ${name} ${body}`);
}

const sqliteTriggers = (columns: Texts): Record<string, string> => {
  const list = columns.join(', ');
  const values = (row: string) => columns.map((c) => `${row}.${c}`).join(', ');
  const insert = (row: string) => `INSERT INTO ${FTS} (rowid, ${list}) VALUES (${row}.id, ${values(row)})`;
  const remove = (row: string) =>
    `INSERT INTO ${FTS} (${FTS}, rowid, ${list}) VALUES ('delete', ${row}.id, ${values(row)})`;
  return {
    users_search_insert: `AFTER INSERT ON users BEGIN ${insert('NEW')}; END`,
    users_search_update: `AFTER UPDATE OF ${list} ON users BEGIN ${remove('OLD')}; ${insert('NEW')}; END`,
    users_search_delete: `AFTER DELETE ON users BEGIN ${remove('OLD')}; END`,
  };
};

/** SQLite: the FTS5 table over `columns` of users, its vocabulary and triggers, filled from the rows. */
async function rebuildFts(q: (sql: string) => Promise<unknown>, columns: Texts) {
  const triggers = sqliteTriggers(columns);
  for (const name of Object.keys(triggers)) await q(`DROP TRIGGER IF EXISTS ${name}`);
  await q(`DROP TABLE IF EXISTS ${FTS}_vocab`);
  await q(`DROP TABLE IF EXISTS ${FTS}`);
  await q(
    `CREATE VIRTUAL TABLE ${FTS} USING fts5(${columns.join(', ')}, content='users', content_rowid='id', tokenize='trigram')`,
  );
  await q(`CREATE VIRTUAL TABLE ${FTS}_vocab USING fts5vocab(${FTS}, 'row')`);
  for (const [name, body] of Object.entries(triggers)) await q(`CREATE TRIGGER ${name} ${body}`);
  await q(`INSERT INTO ${FTS} (${FTS}) VALUES ('rebuild')`);
}

export const scimNameParts: Migration = {
  name: '0031-scim-name-parts',
  async up({ qi, dialect }) {
    const q = (sql: string) => qi.sequelize.query(sql);
    if (dialect === 'mysql') {
      await q(
        `ALTER TABLE users ADD COLUMN given_name VARCHAR(100) NULL, ADD COLUMN family_name VARCHAR(100) NULL,
         ADD COLUMN email_primary TINYINT(1) NULL DEFAULT 1`,
      );
      await replaceTriggers(q, TEXTS);
      return;
    }
    await q('ALTER TABLE users ADD COLUMN given_name VARCHAR(100) COLLATE NOCASE NULL');
    await q('ALTER TABLE users ADD COLUMN family_name VARCHAR(100) COLLATE NOCASE NULL');
    await q('ALTER TABLE users ADD COLUMN email_primary BOOLEAN NULL DEFAULT 1');
    await rebuildFts(q, TEXTS);
  },
  async down({ qi, dialect }) {
    const q = (sql: string) => qi.sequelize.query(sql);
    if (dialect === 'mysql') {
      await replaceTriggers(q, ['name', 'email']);
      await q('ALTER TABLE users DROP COLUMN given_name, DROP COLUMN family_name, DROP COLUMN email_primary');
      return;
    }
    await rebuildFts(q, ['name', 'email']);
    for (const c of ['given_name', 'family_name', 'email_primary']) await q(`ALTER TABLE users DROP COLUMN ${c}`);
  },
};

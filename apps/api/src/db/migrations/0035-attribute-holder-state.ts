import type { Sequelize } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * Each custom attribute value carries its holder's trash state (issue 38; docs/database.md,
 * "Custom attribute values"): `user_live` is 1 while the user is not deleted, and the value
 * indexes become (attribute_id, value, user_live). "How many live users hold department = Sales"
 * is then one range of one index, where it probed each holder's row for its deletion date (at a
 * million users, 4.6–6.1 ms up to 10 001 holders against 21.5–47.5 ms).
 *
 * Kept exact in the writer's transaction, whatever the path:
 * - a user deleted or restored rewrites the flag of their values (a block of the one AFTER UPDATE
 *   trigger of `users` on MySQL/MariaDB, a trigger of its own on SQLite), only when the trash
 *   state changes: a status change (the bulk jobs' common case) costs the block a comparison;
 *   a batch write of many users' trash dates (users.batch-repository.ts) sets
 *   `@user_attribute_values_deferred` on its connection and rewrites the flags of its users in one
 *   statement after its own (a quarter cheaper than row by row);
 * - a value is written only for a live user (every writer locks the user's row and refuses a
 *   deleted one: the edit form, bulk, import; a restoring import restores first), so a new row's
 *   default (1) is its holder's state. A value written by hand for a deleted user must say 0.
 *
 * The value index keeps (value, user id) order for any one state, so a sort by an attribute still
 * walks it for live users (`user_live = 1`) or deleted ones (`= 0`); a list of both reads the two
 * walks and merges them (users.attribute-sort.ts).
 *
 * At 10 M users the values table is about 60 M rows. On MariaDB the column is added instantly,
 * only deleted users' values are rewritten (users walked by id, BATCH ids per short transaction,
 * after the trigger exists), and the two indexes are rebuilt with writes allowed
 * throughout (ALGORITHM=INPLACE, LOCK=NONE).
 */
const BATCH = 20_000;
const TABLE = 'user_attribute_values';
const SQLITE_TRIGGER = 'user_attribute_values_holder';

const flag = (row: 'NEW') => `(${row}.deleted_at IS NULL)`;
const rewrite = `UPDATE ${TABLE} SET user_live = ${flag('NEW')} WHERE user_id = NEW.id`;
const CHANGED = '(OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)';
/** The values block of the one update trigger on MySQL/MariaDB; a batch write of trash dates defers it. */
const VALUES_BLOCK = `IF @user_attribute_values_deferred IS NULL AND ${CHANGED} THEN ${rewrite}; END IF;`;
const MERGED = 'users_after_update';

const INDEXES = [
  ['user_attribute_values_text', 'text_value'],
  ['user_attribute_values_number', 'number_value'],
] as const;

export const attributeHolderState: Migration = {
  name: '0035-attribute-holder-state',
  async up({ qi, dialect, progress }) {
    const q = (sql: string) => qi.sequelize.query(sql);
    if (dialect === 'mysql') {
      await q(`ALTER TABLE ${TABLE} ADD COLUMN user_live TINYINT(1) NOT NULL DEFAULT 1, ALGORITHM=INSTANT`);
      await swap(qi.sequelize, [MERGED], [[MERGED, [...USERS_UPDATE_BLOCKS, VALUES_BLOCK].join('\n')]]);
    } else {
      await q(`ALTER TABLE ${TABLE} ADD COLUMN user_live BOOLEAN NOT NULL DEFAULT 1`);
      await q(`CREATE TRIGGER ${SQLITE_TRIGGER} AFTER UPDATE OF deleted_at ON users FOR EACH ROW WHEN ${CHANGED}
        BEGIN ${rewrite}; END`);
    }
    await backfill(qi.sequelize, dialect, progress ?? (() => undefined));
    await rebuildIndexes(qi.sequelize, dialect, true);
  },
  async down({ qi, dialect }) {
    const q = (sql: string) => qi.sequelize.query(sql);
    await rebuildIndexes(qi.sequelize, dialect, false);
    if (dialect === 'mysql') {
      await swap(qi.sequelize, [MERGED], [[MERGED, USERS_UPDATE_BLOCKS.join('\n')]]);
    } else {
      await q(`DROP TRIGGER IF EXISTS ${SQLITE_TRIGGER}`);
    }
    await q(`ALTER TABLE ${TABLE} DROP COLUMN user_live`);
  },
};

/** The two value indexes with the holder's state after the value (`up`), or without it. */
async function rebuildIndexes(seq: Sequelize, dialect: 'mysql' | 'sqlite', withState: boolean) {
  const columns = (value: string) => `attribute_id, ${value}${withState ? ', user_live' : ''}`;
  if (dialect === 'mysql') {
    const changes = INDEXES.flatMap(([name, value]) => [`DROP INDEX ${name}`, `ADD INDEX ${name} (${columns(value)})`]);
    await seq.query(`ALTER TABLE ${TABLE} ${changes.join(', ')}, ALGORITHM=INPLACE, LOCK=NONE`);
    return;
  }
  for (const [name, value] of INDEXES) {
    await seq.query(`DROP INDEX ${name}`);
    await seq.query(`CREATE INDEX ${name} ON ${TABLE} (${columns(value)})`);
  }
}

/** Marks the values of the users deleted before the trigger existed, walking users by id, BATCH at a time. */
async function backfill(seq: Sequelize, dialect: 'mysql' | 'sqlite', progress: (message: string) => void) {
  const [[bounds]] = (await seq.query('SELECT MIN(id) AS lo, MAX(id) AS hi FROM users')) as unknown as [
    [{ lo: number | null; hi: number | null }],
  ];
  if (bounds.lo === null || bounds.hi === null) return;
  const started = Date.now();
  // The users are read under shared locks (a locking read, as any UPDATE's): a restore meanwhile
  // waits for this batch, and its trigger then sets the flag back. MariaDB 10.11 runs an IN
  // subquery of a one-table UPDATE once per row of the table (no semi-join there): the join form.
  const batch =
    dialect === 'mysql'
      ? `UPDATE users u JOIN ${TABLE} v ON v.user_id = u.id SET v.user_live = 0
          WHERE u.id BETWEEN :from AND :to AND u.deleted_at IS NOT NULL`
      : `UPDATE ${TABLE} SET user_live = 0
          WHERE user_id IN (SELECT id FROM users WHERE id BETWEEN :from AND :to AND deleted_at IS NOT NULL)`;
  for (let from = Number(bounds.lo); from <= Number(bounds.hi); from += BATCH) {
    await seq.transaction(async (transaction) => {
      await seq.query(batch, { replacements: { from, to: from + BATCH - 1 }, transaction });
    });
  }
  progress(`attribute values: deleted holders marked in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// ---- The one update trigger of `users` (MySQL/MariaDB) as migration 0034 left it ----

/*
 * FROZEN: copies of the blocks of `users_after_update` as migration 0034 wrote them (a migration
 * never imports another), so this migration adds its block to exactly that trigger whenever it
 * runs, and `down` puts that trigger back.
 */

const STATS = `IF @user_stats_deferred IS NULL AND NOT (NEW.is_active <=> OLD.is_active AND NEW.deleted_at <=> OLD.deleted_at) THEN UPDATE user_stats SET total = total + (NEW.deleted_at IS NULL) - (OLD.deleted_at IS NULL), active = active + (NEW.deleted_at IS NULL AND NEW.is_active = 1) - (OLD.deleted_at IS NULL AND OLD.is_active = 1), trashed = trashed + (NEW.deleted_at IS NOT NULL) - (OLD.deleted_at IS NOT NULL) WHERE id = 1; END IF;`;

const ROLE_MEMBERS = `IF (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) THEN INSERT INTO role_member_counts (role_id, slot, members) SELECT ur.role_id, NEW.id % 16, CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END FROM user_roles ur WHERE ur.user_id = NEW.id ON DUPLICATE KEY UPDATE members = role_member_counts.members + (CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END); END IF;`;

const gramsOf = (row: 'NEW' | 'OLD') => `SELECT DISTINCT SUBSTRING(s.v, p.n, 3) AS gram
     FROM (SELECT ${row}.name AS v UNION ALL SELECT ${row}.email UNION ALL SELECT ${row}.given_name UNION ALL SELECT ${row}.family_name) AS s
     JOIN user_search_positions AS p ON p.n <= CHAR_LENGTH(s.v) - 2`;
const SEARCH = `IF NOT (CAST(NEW.name AS BINARY) <=> CAST(OLD.name AS BINARY) AND CAST(NEW.email AS BINARY) <=> CAST(OLD.email AS BINARY) AND CAST(NEW.given_name AS BINARY) <=> CAST(OLD.given_name AS BINARY) AND CAST(NEW.family_name AS BINARY) <=> CAST(OLD.family_name AS BINARY)) THEN DELETE g FROM user_search_grams AS g JOIN (${gramsOf('OLD')}) AS o ON g.gram = o.gram WHERE g.user_id = OLD.id; INSERT INTO user_search_grams (gram, user_id) SELECT o.gram, NEW.id FROM (${gramsOf('NEW')}) AS o
   ON DUPLICATE KEY UPDATE gram = user_search_grams.gram; END IF;`;

const MYSQL_CHANGED =
  'NOT (NEW.is_active <=> OLD.is_active AND NEW.deleted_at <=> OLD.deleted_at AND NEW.created_at <=> OLD.created_at' +
  ' AND CAST(NEW.name AS BINARY) <=> CAST(OLD.name AS BINARY))';
const KEYS_REWRITE = `UPDATE user_role_keys SET deleted_at = NEW.deleted_at, is_active = NEW.is_active, created_at = NEW.created_at, name = NEW.name WHERE user_id = NEW.id`;
const USERS_KEYS_BLOCK = `IF @user_role_keys_deferred IS NULL AND ${MYSQL_CHANGED} THEN ${KEYS_REWRITE}; END IF;`;

const USERS_UPDATE_BLOCKS: readonly string[] = [STATS, ROLE_MEMBERS, SEARCH, USERS_KEYS_BLOCK];

/**
 * Swaps trigger sets while `users` is locked for writing, so no write runs between the drop and
 * the create (it would miss a counter or count twice): writers wait for the few milliseconds the
 * swap takes. LOCK TABLES pins the statements to one connection; it is released even on failure.
 */
async function swap(seq: Sequelize, drop: readonly string[], create: ReadonlyArray<readonly [string, string]>) {
  await seq.transaction(async (transaction) => {
    const run = (sql: string) => seq.query(sql, { transaction });
    await run('LOCK TABLES users WRITE');
    try {
      for (const name of drop) await run(`DROP TRIGGER IF EXISTS ${name}`);
      for (const [name, body] of create) {
        await run(`CREATE TRIGGER ${name} AFTER UPDATE ON users FOR EACH ROW BEGIN ${body} END`);
      }
    } finally {
      await run('UNLOCK TABLES');
    }
  });
}

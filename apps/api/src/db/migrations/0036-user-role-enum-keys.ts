import { DataTypes, type Sequelize } from 'sequelize';
import { columnTypes } from './frozen-column-types.js';
import type { Migration } from './migration.js';

/**
 * The list keys per role and enumeration value (issue 38; docs/database.md, "List keys per role
 * and enumeration value"): one row per live user, enumeration attribute they hold a value of, and
 * role they hold, carrying the value and the user's status. "How many active managers are in
 * Sales" is then one range of the table's primary key, (attribute_id, text_value, role_id,
 * user_id), each status read from its row where it lies (a status change moves no index entry:
 * a bulk job changes hundreds of thousands), where it probed a role's key for each of the
 * department's holders (at a million users, 47 000 probes for 10 001 matches, 61.8 ms).
 *
 * Kept exact in the writer's transaction, whatever the path (API, bulk, import, SCIM, CLI, a
 * hand-written statement), by row triggers:
 * - a value inserted, changed or deleted (`user_attribute_values`) rewrites that user's rows of that
 *   attribute; a change of the holder's trash state alone (`user_live`) is not a change of value.
 *   A batch write of values (bulk, import) defers these on MySQL/MariaDB with the same flag as
 *   below and rewrites its users' rows of the attribute in two statements after its own;
 * - a role given, moved or taken (`user_roles`) rewrites that user's rows of that role;
 * - a user deleted loses their rows, restored gets them back, and a status change rewrites
 *   `is_active` (a block of the one AFTER UPDATE trigger of `users` on MySQL/MariaDB, which a
 *   batch write defers with `@user_role_enum_keys_deferred` and catches up in one statement;
 *   triggers of their own on SQLite);
 * - a user, a role or an attribute erased takes its rows with it through the foreign keys (MariaDB
 *   runs no trigger for a cascade).
 * Which attributes are kept is read at each write from `attributes.type`: an attribute retyped to
 * or from an enumeration has its rows built or dropped by the change itself, in batches, and
 * `attributes.enum_keys_ready` says when a list may count on them.
 *
 * Existing rows are copied in batches of BATCH users after the triggers exist, each batch its own
 * short transaction, so nothing written meanwhile is missed; only then are the enumerations
 * marked ready.
 */
const BATCH = 10_000;
const TABLE = 'user_role_enum_keys';
const COLUMNS = 'user_id, attribute_id, role_id, text_value, is_active';
const ENUM = "a.id = v.attribute_id AND a.type = 'enum'";
const FLAG = '@user_role_enum_keys_deferred';

/** MySQL keeps the latest; SQLite replaces the row. */
const upsert = (dialect: 'mysql' | 'sqlite', select: string) =>
  dialect === 'mysql'
    ? `INSERT INTO ${TABLE} (${COLUMNS}) ${select} ON DUPLICATE KEY UPDATE text_value = VALUES(text_value), is_active = VALUES(is_active)`
    : `INSERT OR REPLACE INTO ${TABLE} (${COLUMNS}) ${select}`;

/** A value row's keys: one per role of its holder, if the holder is live and the attribute an enumeration. */
const valueKeys = (d: 'mysql' | 'sqlite') =>
  upsert(
    d,
    `SELECT NEW.user_id, NEW.attribute_id, ur.role_id, NEW.text_value, u.is_active
       FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN attributes a ON a.id = NEW.attribute_id AND a.type = 'enum'
      WHERE u.id = NEW.user_id AND u.deleted_at IS NULL AND NEW.text_value IS NOT NULL`,
  );
const dropValueKeys = (row: 'OLD') =>
  `DELETE FROM ${TABLE} WHERE user_id = ${row}.user_id AND attribute_id = ${row}.attribute_id`;

/** A membership's keys: one per enumeration value its user holds, if the user is live. */
const roleKeys = (d: 'mysql' | 'sqlite') =>
  upsert(
    d,
    `SELECT v.user_id, v.attribute_id, NEW.role_id, v.text_value, u.is_active
       FROM users u JOIN user_attribute_values v ON v.user_id = u.id JOIN attributes a ON ${ENUM}
      WHERE u.id = NEW.user_id AND u.deleted_at IS NULL AND v.text_value IS NOT NULL`,
  );
const dropRoleKeys = (row: 'OLD') => `DELETE FROM ${TABLE} WHERE user_id = ${row}.user_id AND role_id = ${row}.role_id`;

/** A restored user's keys, from the users row being written (NEW). */
const restoredKeys = (d: 'mysql' | 'sqlite') =>
  upsert(
    d,
    `SELECT NEW.id, v.attribute_id, ur.role_id, v.text_value, NEW.is_active
       FROM user_attribute_values v JOIN attributes a ON ${ENUM} JOIN user_roles ur ON ur.user_id = v.user_id
      WHERE v.user_id = NEW.id AND v.text_value IS NOT NULL`,
  );
const trashedKeys = `DELETE FROM ${TABLE} WHERE user_id = NEW.id`;
const statusKeys = `UPDATE ${TABLE} SET is_active = NEW.is_active WHERE user_id = NEW.id`;

/** A byte comparison: the collation would call "sales" and "Sales" the same value. */
const VALUE_CHANGED = {
  mysql:
    'NOT (CAST(NEW.text_value AS BINARY) <=> CAST(OLD.text_value AS BINARY) AND NEW.user_id = OLD.user_id AND NEW.attribute_id = OLD.attribute_id)',
  sqlite:
    'NOT (CAST(NEW.text_value AS BLOB) IS CAST(OLD.text_value AS BLOB) AND NEW.user_id = OLD.user_id AND NEW.attribute_id = OLD.attribute_id)',
};

/** The users block of the one update trigger on MySQL/MariaDB; a batch write defers it. */
const USERS_BLOCK = `IF ${FLAG} IS NULL THEN
  IF (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) THEN
    IF NEW.deleted_at IS NULL THEN ${restoredKeys('mysql')}; ELSE ${trashedKeys}; END IF;
  ELSEIF NEW.deleted_at IS NULL AND NOT (NEW.is_active <=> OLD.is_active) THEN ${statusKeys};
  END IF;
END IF;`;

/** A values trigger's body on MySQL/MariaDB: a batch write of values defers it too. */
const unlessDeferred = (body: string) => `BEGIN IF ${FLAG} IS NULL THEN ${body}; END IF; END`;

const MYSQL_TRIGGERS: ReadonlyArray<readonly [string, string]> = [
  [
    'user_role_enum_keys_value_add',
    `AFTER INSERT ON user_attribute_values FOR EACH ROW ${unlessDeferred(valueKeys('mysql'))}`,
  ],
  [
    'user_role_enum_keys_value_drop',
    `AFTER DELETE ON user_attribute_values FOR EACH ROW ${unlessDeferred(dropValueKeys('OLD'))}`,
  ],
  [
    'user_role_enum_keys_value_change',
    `AFTER UPDATE ON user_attribute_values FOR EACH ROW ${unlessDeferred(`IF ${VALUE_CHANGED.mysql} THEN ${dropValueKeys('OLD')}; ${valueKeys('mysql')}; END IF`)}`,
  ],
  ['user_role_enum_keys_grant', `AFTER INSERT ON user_roles FOR EACH ROW ${roleKeys('mysql')}`],
  ['user_role_enum_keys_revoke', `AFTER DELETE ON user_roles FOR EACH ROW ${dropRoleKeys('OLD')}`],
  [
    'user_role_enum_keys_move',
    `AFTER UPDATE ON user_roles FOR EACH ROW BEGIN ${dropRoleKeys('OLD')}; ${roleKeys('mysql')}; END`,
  ],
];

const SQLITE_TRIGGERS: ReadonlyArray<readonly [string, string]> = [
  [
    'user_role_enum_keys_value_add',
    `AFTER INSERT ON user_attribute_values FOR EACH ROW BEGIN ${valueKeys('sqlite')}; END`,
  ],
  [
    'user_role_enum_keys_value_drop',
    `AFTER DELETE ON user_attribute_values FOR EACH ROW BEGIN ${dropValueKeys('OLD')}; END`,
  ],
  [
    'user_role_enum_keys_value_change',
    `AFTER UPDATE ON user_attribute_values FOR EACH ROW WHEN ${VALUE_CHANGED.sqlite} BEGIN ${dropValueKeys('OLD')}; ${valueKeys('sqlite')}; END`,
  ],
  ['user_role_enum_keys_grant', `AFTER INSERT ON user_roles FOR EACH ROW BEGIN ${roleKeys('sqlite')}; END`],
  ['user_role_enum_keys_revoke', `AFTER DELETE ON user_roles FOR EACH ROW BEGIN ${dropRoleKeys('OLD')}; END`],
  [
    'user_role_enum_keys_move',
    `AFTER UPDATE ON user_roles FOR EACH ROW BEGIN ${dropRoleKeys('OLD')}; ${roleKeys('sqlite')}; END`,
  ],
  [
    'user_role_enum_keys_trash',
    `AFTER UPDATE OF deleted_at ON users FOR EACH ROW WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL BEGIN ${trashedKeys}; END`,
  ],
  [
    'user_role_enum_keys_restore',
    `AFTER UPDATE OF deleted_at ON users FOR EACH ROW WHEN OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL BEGIN ${restoredKeys('sqlite')}; END`,
  ],
  [
    'user_role_enum_keys_status',
    `AFTER UPDATE OF is_active ON users FOR EACH ROW WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NULL AND NEW.is_active IS NOT OLD.is_active BEGIN ${statusKeys}; END`,
  ],
];

export const userRoleEnumKeys: Migration = {
  name: '0036-user-role-enum-keys',
  async up({ qi, dialect, progress }) {
    const t = columnTypes(dialect);
    const fk = (model: string) => ({
      type: t.fk,
      allowNull: false,
      primaryKey: true,
      references: { model, key: 'id' },
      onDelete: 'CASCADE',
      onUpdate: 'CASCADE',
    });
    // The primary key, in this column order, is the count's range: InnoDB keeps the rows in it,
    // so "Sales, manager" is one contiguous run of rows and each status is read where it lies.
    await qi.createTable(
      TABLE,
      {
        attribute_id: fk('attributes'),
        text_value: { type: t.ciText(255), allowNull: false, primaryKey: true },
        role_id: fk('roles'),
        user_id: fk('users'),
        is_active: { type: DataTypes.BOOLEAN, allowNull: false },
      },
      dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {},
    );
    // A user's rows (every rewrite), one per attribute and role; the users foreign key's index.
    await qi.addIndex(TABLE, ['user_id', 'attribute_id', 'role_id'], {
      name: 'user_role_enum_keys_user',
      unique: true,
    });
    // The role's foreign key needs one of its own (a role's cascade); the attribute's is the key's.
    await qi.addIndex(TABLE, ['role_id'], { name: 'user_role_enum_keys_role' });
    if (dialect === 'mysql') {
      await qi.sequelize.query('ALTER TABLE attributes ADD COLUMN enum_keys_ready TINYINT(1) NOT NULL DEFAULT 0');
    } else {
      await qi.sequelize.query('ALTER TABLE attributes ADD COLUMN enum_keys_ready BOOLEAN NOT NULL DEFAULT 0');
    }
    for (const [name, body] of dialect === 'mysql' ? MYSQL_TRIGGERS : SQLITE_TRIGGERS) {
      await qi.sequelize.query(`CREATE TRIGGER ${name} ${body}`);
    }
    if (dialect === 'mysql') await swap(qi.sequelize, [...USERS_UPDATE_BLOCKS, USERS_BLOCK]);
    await backfill(qi.sequelize, dialect, progress ?? (() => undefined));
    // Every attribute's keys are now as its type says (none for the other types).
    await qi.sequelize.query('UPDATE attributes SET enum_keys_ready = 1');
  },
  async down({ qi, dialect }) {
    if (dialect === 'mysql') await swap(qi.sequelize, USERS_UPDATE_BLOCKS);
    for (const [name] of dialect === 'mysql' ? MYSQL_TRIGGERS : SQLITE_TRIGGERS) {
      await qi.sequelize.query(`DROP TRIGGER IF EXISTS ${name}`);
    }
    await qi.dropTable(TABLE);
    await qi.removeColumn('attributes', 'enum_keys_ready');
  },
};

/** Copies the keys of the users that existed before the triggers, BATCH users at a time. */
async function backfill(seq: Sequelize, dialect: 'mysql' | 'sqlite', progress: (message: string) => void) {
  const [[bounds]] = (await seq.query(
    'SELECT MIN(user_id) AS lo, MAX(user_id) AS hi FROM user_attribute_values',
  )) as unknown as [[{ lo: number | null; hi: number | null }]];
  if (bounds.lo === null || bounds.hi === null) return;
  // A row a trigger wrote meanwhile is as new as this batch's: kept. The batch's reads lock what
  // they read (an INSERT … SELECT's), so a change meanwhile waits and its trigger comes after.
  const insert = dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
  const batch = `${insert} INTO ${TABLE} (${COLUMNS})
    SELECT v.user_id, v.attribute_id, ur.role_id, v.text_value, u.is_active
      FROM user_attribute_values v JOIN attributes a ON ${ENUM}
      JOIN users u ON u.id = v.user_id JOIN user_roles ur ON ur.user_id = v.user_id
     WHERE v.user_id BETWEEN :from AND :to AND u.deleted_at IS NULL AND v.text_value IS NOT NULL`;
  const started = Date.now();
  for (let from = Number(bounds.lo); from <= Number(bounds.hi); from += BATCH) {
    await seq.transaction(async (transaction) => {
      await seq.query(batch, { replacements: { from, to: from + BATCH - 1 }, transaction });
    });
  }
  progress(`enumeration list keys: copied in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// ---- The one update trigger of `users` (MySQL/MariaDB) as migration 0035 left it ----

/*
 * FROZEN: copies of the blocks of `users_after_update` as migration 0035 wrote them (a migration
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

const VALUES_BLOCK = `IF @user_attribute_values_deferred IS NULL AND (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) THEN UPDATE user_attribute_values SET user_live = (NEW.deleted_at IS NULL) WHERE user_id = NEW.id; END IF;`;

const USERS_UPDATE_BLOCKS: readonly string[] = [STATS, ROLE_MEMBERS, SEARCH, USERS_KEYS_BLOCK, VALUES_BLOCK];

/**
 * Replaces the one update trigger of `users` while the table is locked for writing, so no write
 * runs between the drop and the create (it would miss a block): writers wait for the few
 * milliseconds the swap takes. LOCK TABLES pins the statements to one connection; it is released
 * even on failure.
 */
async function swap(seq: Sequelize, blocks: readonly string[]) {
  await seq.transaction(async (transaction) => {
    const run = (sql: string) => seq.query(sql, { transaction });
    await run('LOCK TABLES users WRITE');
    try {
      await run('DROP TRIGGER IF EXISTS users_after_update');
      await run(`CREATE TRIGGER users_after_update AFTER UPDATE ON users FOR EACH ROW BEGIN ${blocks.join('\n')} END`);
    } finally {
      await run('UNLOCK TABLES');
    }
  });
}

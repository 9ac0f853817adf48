import { DataTypes, type Sequelize } from 'sequelize';
import { columnTypes } from './frozen-column-types.js';
import type { Migration } from './migration.js';

/**
 * The list keys of role-filtered views (issue 41; docs/database.md, "List keys per role"): one
 * row per (user, role) holding what the list filters and sorts by — the user's deletion time,
 * status, creation date and name — so "active managers created in 2025" is one range of one
 * index instead of a walk of the users' creation dates probing user_roles for every user.
 *
 * Kept exact in the writer's transaction, whatever the path (API, bulk, import, SCIM, CLI, a
 * hand-written statement):
 * - a role given or taken (`user_roles` insert, delete) adds or removes the user's row of it;
 * - a user's status, deletion, creation date or name changing rewrites the user's rows;
 * - a user or a role deleted takes its rows with it through the foreign keys (MariaDB runs no
 *   trigger for a cascade, so the cascade is declared here, not left to `user_roles`' triggers).
 *
 * On MySQL/MariaDB the users part is a block of the one AFTER UPDATE trigger of `users`
 * (see below), and a batch write of many users' status or trash dates
 * (users.batch-repository.ts) sets `@user_role_keys_deferred` on its connection and updates the
 * keys of its users in one statement after its own. SQLite keeps a trigger of its own.
 *
 * Existing memberships are copied in batches of BATCH users, each its own short transaction; the
 * triggers exist before the first batch, so nothing written meanwhile is missed (a batch keeps a
 * row a trigger already wrote). At 10 M users the table is about 8 M rows.
 */
const BATCH = 5_000;
const TABLE = 'user_role_keys';

const TRIGGERS = [
  'user_role_keys_user',
  'user_role_keys_grant',
  'user_role_keys_revoke',
  'user_role_keys_move',
] as const;

/** The columns of a user's row of a role, read from the users row `u`. */
const COLUMNS = 'user_id, role_id, deleted_at, is_active, created_at, name';
const valuesFrom = (roleId: string) => `u.id, ${roleId}, u.deleted_at, u.is_active, u.created_at, u.name`;

/** A byte comparison of the name: the collation would call "Zoe" and "Zoë" unchanged. */
const MYSQL_CHANGED =
  'NOT (NEW.is_active <=> OLD.is_active AND NEW.deleted_at <=> OLD.deleted_at AND NEW.created_at <=> OLD.created_at' +
  ' AND CAST(NEW.name AS BINARY) <=> CAST(OLD.name AS BINARY))';
const SQLITE_CHANGED =
  'NOT (NEW.is_active IS OLD.is_active AND NEW.deleted_at IS OLD.deleted_at AND NEW.created_at IS OLD.created_at' +
  ' AND CAST(NEW.name AS BLOB) IS CAST(OLD.name AS BLOB))';

const rewrite = `UPDATE ${TABLE} SET deleted_at = NEW.deleted_at, is_active = NEW.is_active, created_at = NEW.created_at, name = NEW.name WHERE user_id = NEW.id`;
/** The users block of the one update trigger on MySQL/MariaDB; a batch write defers it. */
const USERS_KEYS_BLOCK = `IF @user_role_keys_deferred IS NULL AND ${MYSQL_CHANGED} THEN ${rewrite}; END IF;`;
const revoke = (row: 'OLD') => `DELETE FROM ${TABLE} WHERE user_id = ${row}.user_id AND role_id = ${row}.role_id`;

const MYSQL_GRANT = `INSERT INTO ${TABLE} (${COLUMNS}) SELECT ${valuesFrom('NEW.role_id')} FROM users u WHERE u.id = NEW.user_id
  ON DUPLICATE KEY UPDATE deleted_at = u.deleted_at, is_active = u.is_active, created_at = u.created_at, name = u.name`;
const SQLITE_GRANT = `INSERT OR REPLACE INTO ${TABLE} (${COLUMNS}) SELECT ${valuesFrom('NEW.role_id')} FROM users u WHERE u.id = NEW.user_id`;

/** On MySQL/MariaDB the users part is a block of the one update trigger (below), not a trigger. */
const MYSQL_TRIGGERS: Partial<Record<(typeof TRIGGERS)[number], string>> = {
  user_role_keys_grant: `AFTER INSERT ON user_roles FOR EACH ROW ${MYSQL_GRANT}`,
  user_role_keys_revoke: `AFTER DELETE ON user_roles FOR EACH ROW ${revoke('OLD')}`,
  user_role_keys_move: `AFTER UPDATE ON user_roles FOR EACH ROW BEGIN ${revoke('OLD')}; ${MYSQL_GRANT}; END`,
};
const SQLITE_TRIGGERS: Record<(typeof TRIGGERS)[number], string> = {
  user_role_keys_user: `AFTER UPDATE ON users FOR EACH ROW WHEN ${SQLITE_CHANGED} BEGIN ${rewrite}; END`,
  user_role_keys_grant: `AFTER INSERT ON user_roles FOR EACH ROW BEGIN ${SQLITE_GRANT}; END`,
  user_role_keys_revoke: `AFTER DELETE ON user_roles FOR EACH ROW BEGIN ${revoke('OLD')}; END`,
  user_role_keys_move: `AFTER UPDATE ON user_roles FOR EACH ROW BEGIN ${revoke('OLD')}; ${SQLITE_GRANT}; END`,
};

/**
 * One index per way a role-filtered page is read, each carrying the creation date after its order:
 * by id (the default order), (role_id, deleted_at, user_id, created_at); by creation date, and
 * the count of a date range, (role_id, deleted_at, created_at, user_id); by name, (role_id,
 * deleted_at, name, user_id, created_at). The status is in the row only, read by key for each
 * entry a status-filtered list passes: a bulk job changes the status of hundreds of thousands of
 * users, and an index holding it is rewritten (and later purged) for every one of them. Measured
 * at a million users, the jobs bench ran 12–43 % slower with the status in the id index alone
 * (docs/decisions.md, "List keys per role").
 */
const INDEXES: ReadonlyArray<readonly [name: string, columns: string[]]> = [
  ['user_role_keys_by_id', ['role_id', 'deleted_at', 'user_id', 'created_at']],
  ['user_role_keys_by_created', ['role_id', 'deleted_at', 'created_at', 'user_id']],
  ['user_role_keys_by_name', ['role_id', 'deleted_at', 'name', 'user_id', 'created_at']],
];

export const userRoleKeys: Migration = {
  name: '0034-user-role-keys',
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
    await qi.createTable(
      TABLE,
      {
        user_id: fk('users'),
        role_id: fk('roles'),
        deleted_at: { type: t.date, allowNull: true },
        is_active: { type: DataTypes.BOOLEAN, allowNull: false },
        created_at: { type: t.date, allowNull: false },
        name: { type: t.ciText(100), allowNull: false },
      },
      dialect === 'mysql' ? { charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci', engine: 'InnoDB' } : {},
    );
    for (const [name, columns] of INDEXES) await qi.addIndex(TABLE, columns, { name });
    const triggers: Partial<Record<(typeof TRIGGERS)[number], string>> =
      dialect === 'mysql' ? MYSQL_TRIGGERS : SQLITE_TRIGGERS;
    for (const name of TRIGGERS) {
      const body = triggers[name];
      if (body) await qi.sequelize.query(`CREATE TRIGGER ${name} ${body}`);
    }
    if (dialect === 'mysql') await mergeUsersUpdateTriggers(qi.sequelize, USERS_KEYS_BLOCK);
    await backfill(qi.sequelize, dialect, progress ?? (() => undefined));
  },
  async down({ qi, dialect }) {
    if (dialect === 'mysql') await splitUsersUpdateTriggers(qi.sequelize);
    for (const name of TRIGGERS) await qi.sequelize.query(`DROP TRIGGER IF EXISTS ${name}`);
    await qi.dropTable(TABLE);
  },
};

/** Copies the memberships that existed before the triggers, BATCH users at a time. */
async function backfill(seq: Sequelize, dialect: 'mysql' | 'sqlite', progress: (message: string) => void) {
  const [[bounds]] = (await seq.query('SELECT MIN(user_id) AS lo, MAX(user_id) AS hi FROM user_roles')) as unknown as [
    [{ lo: number | null; hi: number | null }],
  ];
  if (bounds.lo === null || bounds.hi === null) return;
  const lo = Number(bounds.lo);
  const hi = Number(bounds.hi);
  // A row a trigger wrote meanwhile is as new as this batch's: kept.
  const insert = dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
  const batch = `${insert} INTO ${TABLE} (${COLUMNS})
    SELECT ${valuesFrom('ur.role_id')} FROM user_roles ur JOIN users u ON u.id = ur.user_id
     WHERE ur.user_id BETWEEN :from AND :to`;
  const started = Date.now();
  let lastReport = started;
  progress('role list keys: copying memberships');
  for (let from = lo; from <= hi; from += BATCH) {
    const to = Math.min(hi, from + BATCH - 1);
    await seq.transaction(async (transaction) => {
      await seq.query(batch, { replacements: { from, to }, transaction });
    });
    if (Date.now() - lastReport >= 5_000) {
      lastReport = Date.now();
      const share = (to - lo + 1) / (hi - lo + 1);
      progress(`role list keys: ${Math.round(share * 100)}% (${Math.round((Date.now() - started) / 1000)} s)`);
    }
  }
  progress(`role list keys: copied in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

// ---- The one update trigger of `users` (MySQL/MariaDB) ----

/**
 * MySQL/MariaDB only: the AFTER UPDATE triggers of `users` become one
 * trigger holding each rule's block, in the order they ran. MariaDB pays for every trigger it
 * invokes on every row, whether its condition holds or not: a fourth update trigger (the list
 * keys') cost about 44 µs per user in a bulk job that changes 820,165 users, more than the writes
 * it does; the four as one trigger ran the job within 2 % of the three before (docs/decisions.md,
 * "List keys per role").
 *
 * FROZEN: the blocks are copies of the triggers as migrations 0006 (counters), 0015 (role member
 * counts) and 0031 (search index) left them, so this migration does the same whenever it runs;
 * `down` puts those three back exactly.
 */

const STATS = `IF @user_stats_deferred IS NULL AND NOT (NEW.is_active <=> OLD.is_active AND NEW.deleted_at <=> OLD.deleted_at) THEN UPDATE user_stats SET total = total + (NEW.deleted_at IS NULL) - (OLD.deleted_at IS NULL), active = active + (NEW.deleted_at IS NULL AND NEW.is_active = 1) - (OLD.deleted_at IS NULL AND OLD.is_active = 1), trashed = trashed + (NEW.deleted_at IS NOT NULL) - (OLD.deleted_at IS NOT NULL) WHERE id = 1; END IF;`;

const ROLE_MEMBERS = `IF (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) THEN INSERT INTO role_member_counts (role_id, slot, members) SELECT ur.role_id, NEW.id % 16, CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END FROM user_roles ur WHERE ur.user_id = NEW.id ON DUPLICATE KEY UPDATE members = role_member_counts.members + (CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END); END IF;`;

const gramsOf = (row: 'NEW' | 'OLD') => `SELECT DISTINCT SUBSTRING(s.v, p.n, 3) AS gram
     FROM (SELECT ${row}.name AS v UNION ALL SELECT ${row}.email UNION ALL SELECT ${row}.given_name UNION ALL SELECT ${row}.family_name) AS s
     JOIN user_search_positions AS p ON p.n <= CHAR_LENGTH(s.v) - 2`;
const SEARCH = `IF NOT (CAST(NEW.name AS BINARY) <=> CAST(OLD.name AS BINARY) AND CAST(NEW.email AS BINARY) <=> CAST(OLD.email AS BINARY) AND CAST(NEW.given_name AS BINARY) <=> CAST(OLD.given_name AS BINARY) AND CAST(NEW.family_name AS BINARY) <=> CAST(OLD.family_name AS BINARY)) THEN DELETE g FROM user_search_grams AS g JOIN (${gramsOf('OLD')}) AS o ON g.gram = o.gram WHERE g.user_id = OLD.id; INSERT INTO user_search_grams (gram, user_id) SELECT o.gram, NEW.id FROM (${gramsOf('NEW')}) AS o
   ON DUPLICATE KEY UPDATE gram = user_search_grams.gram; END IF;`;

/** The triggers this replaces, in the order they ran. */
const SEPARATE: ReadonlyArray<readonly [name: string, block: string]> = [
  ['users_stats_update', STATS],
  ['role_members_trash', ROLE_MEMBERS],
  ['users_search_update', SEARCH],
];
const MERGED = 'users_after_update';

/**
 * Swaps trigger sets while `users` is locked for writing, so no write runs between the drops and
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

/** Up: the three update triggers and the list keys' block (`keysBlock`) as one trigger. */
function mergeUsersUpdateTriggers(seq: Sequelize, keysBlock: string): Promise<void> {
  const blocks = [...SEPARATE.map(([, block]) => block), keysBlock];
  return swap(
    seq,
    SEPARATE.map(([name]) => name),
    [[MERGED, blocks.join('\n')]],
  );
}

/** Down: the three triggers as migrations 0006, 0015 and 0031 left them. */
function splitUsersUpdateTriggers(seq: Sequelize): Promise<void> {
  return swap(seq, [MERGED], SEPARATE);
}

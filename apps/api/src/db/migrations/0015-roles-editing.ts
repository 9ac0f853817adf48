import { DataTypes } from 'sequelize';
import type { Dialect } from '../dialect.js';
import type { Migration } from './migration.js';

/**
 * Roles become editable (issue 27):
 *
 * - `roles.description` (an optional sentence for the role's page) and `roles.lock_version`,
 *   the optimistic-lock counter behind the edit form's `version`, as users have.
 * - `role_member_counts (role_id, slot, members)`: how many users not in the trash hold each
 *   role, striped over SLOTS rows per role (slot = user_id % SLOTS), so GET /roles shows an
 *   exact `users_count` with a sum over 16 rows per role instead of a COUNT over the role's
 *   members (up to a million). Stripes, not one row per role: that row would be locked by every
 *   transaction giving the role to anyone until it commits; with stripes two writers meet only
 *   when their users share a slot.
 *
 * Triggers keep the counters in the same transaction as every write, whatever the path (API,
 * bulk, imports, the command line, seeding, a manual statement). A member counts while the user
 * row exists and is not in the trash:
 * - user_roles AFTER INSERT / AFTER DELETE: +1 / −1 when the user is not in the trash (and, for
 *   a delete, while the role still exists: a role's own deletion clears its counters at once);
 * - users AFTER UPDATE, when `deleted_at` goes from NULL to a date or back: ±1 for each role;
 * - users BEFORE DELETE, when the user is not in the trash: −1 for each role. MariaDB/MySQL do
 *   not fire user_roles' triggers for the rows a foreign key cascade removes; SQLite does, but
 *   after the user row is gone, when user_roles' triggers find no user and count nothing;
 * - roles AFTER DELETE: the role's counters go with it (its user_roles rows go by cascade).
 * Each write is an upsert (ON DUPLICATE KEY UPDATE / ON CONFLICT DO UPDATE), so no slot row has
 * to exist beforehand. These triggers never stand aside for a batch (`@user_stats_deferred` is
 * the user_stats triggers' alone): a batch moves a handful of slot rows per role, not one row.
 *
 * The counters are filled from the existing rows once the triggers exist; migrations run before
 * the API serves, so no write falls between the two.
 */

/** Stripes per role. Frozen: the triggers and the backfill were written with it. */
const SLOTS = 16;
const TABLE = 'role_member_counts';

const TRIGGERS = [
  'role_members_grant',
  'role_members_revoke',
  'role_members_trash',
  'role_members_erase',
  'role_members_drop',
] as const;
type TriggerName = (typeof TRIGGERS)[number];

/** Adds `delta` (SQL) to role `role`'s slot of user `user`, for each row `from` selects. */
function upsert(dialect: Dialect, role: string, user: string, delta: string, from: string): string {
  const insert = `INSERT INTO ${TABLE} (role_id, slot, members) SELECT ${role}, ${user} % ${SLOTS}, ${delta} ${from}`;
  return dialect === 'mysql'
    ? `${insert} ON DUPLICATE KEY UPDATE members = ${TABLE}.members + (${delta})`
    : // SQLite takes ON CONFLICT after a SELECT as the upsert's only when the SELECT has a WHERE: every `from` has.
      `${insert} ON CONFLICT (role_id, slot) DO UPDATE SET members = members + excluded.members`;
}

/** The user holding the role is there and not in the trash. */
const memberCounts = (row: 'NEW' | 'OLD') => `FROM users u WHERE u.id = ${row}.user_id AND u.deleted_at IS NULL`;

/** +1 when the user comes back from the trash, −1 when it goes there. */
const TRASH_DELTA = 'CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END';

function triggers(dialect: Dialect): Record<TriggerName, string> {
  const mysql = dialect === 'mysql';
  const grant = upsert(dialect, 'NEW.role_id', 'NEW.user_id', '1', memberCounts('NEW'));
  const revoke = upsert(
    dialect,
    'OLD.role_id',
    'OLD.user_id',
    '-1',
    `${memberCounts('OLD')} AND EXISTS (SELECT 1 FROM roles r WHERE r.id = OLD.role_id)`,
  );
  const trash = upsert(dialect, 'ur.role_id', 'NEW.id', TRASH_DELTA, 'FROM user_roles ur WHERE ur.user_id = NEW.id');
  const erase = upsert(dialect, 'ur.role_id', 'OLD.id', '-1', 'FROM user_roles ur WHERE ur.user_id = OLD.id');
  const drop = `DELETE FROM ${TABLE} WHERE role_id = OLD.id`;
  if (mysql) {
    const trashChanged = '(OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)';
    return {
      role_members_grant: `AFTER INSERT ON user_roles FOR EACH ROW ${grant}`,
      role_members_revoke: `AFTER DELETE ON user_roles FOR EACH ROW ${revoke}`,
      role_members_trash: `AFTER UPDATE ON users FOR EACH ROW BEGIN IF ${trashChanged} THEN ${trash}; END IF; END`,
      role_members_erase: `BEFORE DELETE ON users FOR EACH ROW BEGIN IF OLD.deleted_at IS NULL THEN ${erase}; END IF; END`,
      role_members_drop: `AFTER DELETE ON roles FOR EACH ROW ${drop}`,
    };
  }
  return {
    role_members_grant: `AFTER INSERT ON user_roles FOR EACH ROW BEGIN ${grant}; END`,
    role_members_revoke: `AFTER DELETE ON user_roles FOR EACH ROW BEGIN ${revoke}; END`,
    role_members_trash:
      'AFTER UPDATE OF deleted_at ON users FOR EACH ROW WHEN (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) ' +
      `BEGIN ${trash}; END`,
    role_members_erase: `BEFORE DELETE ON users FOR EACH ROW WHEN OLD.deleted_at IS NULL BEGIN ${erase}; END`,
    role_members_drop: `AFTER DELETE ON roles FOR EACH ROW BEGIN ${drop}; END`,
  };
}

export const rolesEditing: Migration = {
  name: '0015-roles-editing',
  async up({ qi, dialect }) {
    const seq = qi.sequelize;
    await qi.addColumn('roles', 'description', { type: DataTypes.STRING(500), allowNull: true });
    await qi.addColumn('roles', 'lock_version', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 });
    await seq.query(
      dialect === 'mysql'
        ? `CREATE TABLE ${TABLE} (
             role_id INT UNSIGNED NOT NULL,
             slot TINYINT UNSIGNED NOT NULL,
             members INT NOT NULL DEFAULT 0,
             PRIMARY KEY (role_id, slot)
           ) ENGINE=InnoDB`
        : `CREATE TABLE ${TABLE} (
             role_id INTEGER NOT NULL,
             slot INTEGER NOT NULL,
             members INTEGER NOT NULL DEFAULT 0,
             PRIMARY KEY (role_id, slot)
           ) WITHOUT ROWID`,
    );
    const bodies = triggers(dialect);
    for (const name of TRIGGERS) await seq.query(`CREATE TRIGGER ${name} ${bodies[name]}`);
    await seq.query(
      `INSERT INTO ${TABLE} (role_id, slot, members)
       SELECT ur.role_id, ur.user_id % ${SLOTS}, COUNT(*)
         FROM user_roles ur JOIN users u ON u.id = ur.user_id
        WHERE u.deleted_at IS NULL
        GROUP BY ur.role_id, ur.user_id % ${SLOTS}`,
    );
  },
  async down({ qi }) {
    const seq = qi.sequelize;
    for (const name of TRIGGERS) await seq.query(`DROP TRIGGER IF EXISTS ${name}`);
    await seq.query(`DROP TABLE IF EXISTS ${TABLE}`);
    // Plain SQL: Sequelize's SQLite removeColumn rebuilds the table (and `roles` is referenced).
    await seq.query('ALTER TABLE roles DROP COLUMN lock_version');
    await seq.query('ALTER TABLE roles DROP COLUMN description');
  },
};

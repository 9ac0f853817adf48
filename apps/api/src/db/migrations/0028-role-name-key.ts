import { QueryTypes, type Sequelize } from 'sequelize';
import type { Migration } from './migration.js';

/**
 * Role names may hold spaces and any letters (issue 39: "Help Desk", "Sales – EMEA"), and stay
 * unique whatever their case and spacing (docs/decisions.md, "Role names with spaces").
 *
 * - `roles.name_key`: the name as the contracts' `roleNameKey` makes it (NFC, trimmed, inner
 *   white space one space, lower-cased), under a unique index, so the database decides between
 *   two writers racing for "Help Desk" and "help  desk". Compared byte for byte
 *   (`utf8mb4_bin`; SQLite's default): the key already says what counts as the same name, and
 *   MariaDB's `unicode_ci` would add its own rules (accents, "ß" = "ss") that SQLite lacks.
 * - `roles_name_unique (name, guard_name)` goes: it was the old rule, and on MariaDB its collation
 *   would still refuse "Café" beside "Cafe", a pair the key tells apart.
 *
 * The column is nullable in the schema (SQLite cannot make an added column NOT NULL without
 * rebuilding a table other tables reference); the model and the role writes always set it.
 * Existing names stay as they are; their keys are filled BATCH roles at a time, each batch its
 * own short transaction. Adding a nullable column is instant on MariaDB and the index is built
 * online (writes go on meanwhile); roles are few in any case.
 */

/** Roles per backfill batch. */
const BATCH = 500;

/**
 * The key as `roleNameKey` made it when this migration was written. Frozen: a migration must do
 * the same thing whenever it runs; a later change to the rule re-keys in a migration of its own.
 */
const keyOf = (name: string) => name.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();

/**
 * A key for a role whose name another, older role's already keys to (possible only for rows
 * written around the API): a control character no name may hold and the role's id keep it
 * apart, so the migration never fails and no name changes. Renaming the role gives it its key.
 */
const apartKey = (key: string, id: number) => `${key.slice(0, 88)}\u0001${id}`;

async function backfill(seq: Sequelize) {
  const taken = new Set<string>();
  let after = 0;
  for (;;) {
    const rows = await seq.query<{ id: number | string; name: string }>(
      `SELECT id, name FROM roles WHERE id > :after ORDER BY id LIMIT ${BATCH}`,
      { replacements: { after }, type: QueryTypes.SELECT },
    );
    if (rows.length === 0) return;
    await seq.transaction(async (transaction) => {
      for (const row of rows) {
        const id = Number(row.id);
        const key = keyOf(row.name);
        const nameKey = taken.has(key) ? apartKey(key, id) : key;
        taken.add(key);
        await seq.query('UPDATE roles SET name_key = :nameKey WHERE id = :id', {
          replacements: { nameKey, id },
          transaction,
        });
      }
    });
    after = Number(rows[rows.length - 1]?.id);
  }
}

export const roleNameKey: Migration = {
  name: '0028-role-name-key',
  async up({ qi, dialect }) {
    const seq = qi.sequelize;
    await seq.query(
      dialect === 'mysql'
        ? 'ALTER TABLE roles ADD COLUMN name_key VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL'
        : 'ALTER TABLE roles ADD COLUMN name_key VARCHAR(100) NULL',
    );
    await backfill(seq);
    await seq.query('CREATE UNIQUE INDEX roles_name_key_unique ON roles (name_key)');
    await qi.removeIndex('roles', 'roles_name_unique');
  },
  async down({ qi }) {
    await qi.addIndex('roles', ['name', 'guard_name'], { name: 'roles_name_unique', unique: true });
    await qi.removeIndex('roles', 'roles_name_key_unique');
    // Plain SQL: Sequelize's SQLite removeColumn rebuilds the table (and `roles` is referenced).
    await qi.sequelize.query('ALTER TABLE roles DROP COLUMN name_key');
  },
};

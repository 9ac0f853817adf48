import { roleNameKey } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { insertWithIds } from '../../db/inserted-ids.js';
import { sqlDate } from '../../db/sql-date.js';

// The statements of the role writes (create, update, delete), each in the write's transaction.

/** A role row as the writes read it. */
export interface RoleRow {
  id: number;
  name: string;
  description: string | null;
  guard_name: string;
  lock_version: number;
  require_two_factor: number | string | boolean;
  /** The identity provider's id for the group the role is (SCIM), when one gave it. */
  external_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

interface RawRoleRow extends Omit<RoleRow, 'id' | 'lock_version'> {
  id: number | string;
  lock_version: number | string;
}

const ROLE_COLUMNS =
  'id, name, description, guard_name, lock_version, require_two_factor, external_id, created_at, updated_at';

const toRow = (raw: RawRoleRow): RoleRow => ({ ...raw, id: Number(raw.id), lock_version: Number(raw.lock_version) });

/** The role, its row locked until the transaction ends (SQLite: BEGIN IMMEDIATE already); null when absent. */
export async function lockRole(db: Database, tx: Transaction, id: number): Promise<RoleRow | null> {
  const lock = db.dialect === 'mysql' ? ' FOR UPDATE' : '';
  const [row] = await db.sequelize.query<RawRoleRow>(`SELECT ${ROLE_COLUMNS} FROM roles WHERE id = :id${lock}`, {
    replacements: { id },
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return row ? toRow(row) : null;
}

/** The permissions the role grants, sorted by name (here: the engines' collations differ). */
export async function grantedPermissions(db: Database, tx: Transaction, roleId: number) {
  const rows = await db.sequelize.query<{ id: number | string; name: string }>(
    `SELECT p.id, p.name FROM permissions p JOIN role_permissions rp ON rp.permission_id = p.id
      WHERE rp.role_id = :roleId`,
    { replacements: { roleId }, type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name })).sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * The role other than `exceptId` whose name is one with `name` (whatever its case and spacing:
 * the same `roleNameKey`), by the unique `name_key` index. The index also decides between two
 * writers racing for one name: the loser's write fails and the handler names the winner.
 */
export async function roleNamed(
  db: Database,
  tx: Transaction | null,
  name: string,
  exceptId: number | null = null,
): Promise<{ id: number; name: string } | null> {
  const other = exceptId === null ? '' : ' AND id <> :exceptId';
  const [row] = await db.sequelize.query<{ id: number | string; name: string }>(
    `SELECT id, name FROM roles WHERE name_key = :key${other} LIMIT 1`,
    { replacements: { key: roleNameKey(name), exceptId }, type: QueryTypes.SELECT, transaction: tx },
  );
  return row ? { id: Number(row.id), name: row.name } : null;
}

/** Inserts a role (version 0) and returns its id. */
export async function insertRole(
  db: Database,
  tx: Transaction,
  role: { name: string; description: string | null; requireTwoFactor?: boolean; externalId?: string | null },
): Promise<number> {
  const now = sqlDate(db, new Date());
  const [id] = await insertWithIds(
    db,
    tx,
    'INSERT INTO roles (name, name_key, description, guard_name, lock_version, require_two_factor, external_id, created_at, updated_at) VALUES :rows',
    [
      [
        role.name,
        roleNameKey(role.name),
        role.description,
        'web',
        0,
        role.requireTwoFactor ? 1 : 0,
        role.externalId ?? null,
        now,
        now,
      ],
    ],
    1,
  );
  if (id === undefined) throw new Error(`the role ${role.name} was inserted without an id`);
  return id;
}

/** Renames and describes the role, and moves its version on. */
export async function updateRoleRow(
  db: Database,
  tx: Transaction,
  id: number,
  role: { name: string; description: string | null; requireTwoFactor: boolean; externalId?: string | null },
): Promise<void> {
  const { externalId, ...rest } = role;
  const setExternal = externalId === undefined ? '' : ', external_id = :externalId';
  await db.sequelize.query(
    `UPDATE roles SET name = :name, name_key = :nameKey, description = :description, require_two_factor = :requireTwoFactor${setExternal},
            lock_version = lock_version + 1, updated_at = :now
      WHERE id = :id`,
    {
      replacements: {
        ...rest,
        ...(externalId === undefined ? {} : { externalId }),
        nameKey: roleNameKey(role.name),
        requireTwoFactor: role.requireTwoFactor ? 1 : 0,
        id,
        now: sqlDate(db, new Date()),
      },
      transaction: tx,
    },
  );
}

/**
 * Makes the role grant exactly `names` (known permission names): removes the others, adds the
 * missing. Returns the permissions it grants now, by name, sorted.
 */
export async function setRolePermissions(
  db: Database,
  tx: Transaction,
  roleId: number,
  names: readonly string[],
): Promise<Array<{ id: number; name: string }>> {
  const current = await grantedPermissions(db, tx, roleId);
  const wanted = new Set(names);
  const removed = current.filter((p) => !wanted.has(p.name)).map((p) => p.id);
  if (removed.length) {
    await db.sequelize.query('DELETE FROM role_permissions WHERE role_id = :roleId AND permission_id IN (:removed)', {
      replacements: { roleId, removed },
      transaction: tx,
    });
  }
  const held = new Set(current.map((p) => p.name));
  const added = names.filter((name) => !held.has(name));
  if (added.length) {
    await db.sequelize.query(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT :roleId, p.id FROM permissions p WHERE p.name IN (:added)`,
      { replacements: { roleId, added }, transaction: tx },
    );
  }
  return removed.length || added.length ? grantedPermissions(db, tx, roleId) : current;
}

/**
 * The role's members (in the trash or not): how many, how many of them in the trash, and the
 * first `keep` ids — without reading every id of a role given to 800 000 users.
 */
export async function membersOf(
  db: Database,
  tx: Transaction,
  roleId: number,
  keep: number,
): Promise<{ count: number; trashed: number; firstIds: number[] }> {
  const [totals] = await db.sequelize.query<{ n: number | string; trashed: number | string | null }>(
    `SELECT COUNT(*) AS n, SUM(CASE WHEN u.deleted_at IS NULL THEN 0 ELSE 1 END) AS trashed
       FROM user_roles ur JOIN users u ON u.id = ur.user_id
      WHERE ur.role_id = :roleId`,
    { replacements: { roleId }, type: QueryTypes.SELECT, transaction: tx },
  );
  const count = Number(totals?.n ?? 0);
  const first =
    count === 0
      ? []
      : await db.sequelize.query<{ id: number | string }>(
          `SELECT user_id AS id FROM user_roles WHERE role_id = :roleId ORDER BY user_id LIMIT ${Number(keep)}`,
          { replacements: { roleId }, type: QueryTypes.SELECT, transaction: tx },
        );
  return { count, trashed: Number(totals?.trashed ?? 0), firstIds: first.map((r) => Number(r.id)) };
}

/**
 * Deletes the role: its row first — MariaDB/MySQL then take it from its members and drop its
 * grants by the foreign keys' cascade, which fires no trigger (800 000 members: 4 s, against over
 * 30 s with user_roles' member-count trigger firing for each), and the role's own trigger drops
 * its counters. The two statements after it find nothing left there; they do the work where
 * the engine does not cascade, and user_roles' trigger counts nothing for a role that is gone.
 */
export async function deleteRoleRows(db: Database, tx: Transaction, roleId: number): Promise<void> {
  await db.sequelize.query('DELETE FROM roles WHERE id = :roleId', { replacements: { roleId }, transaction: tx });
  for (const table of ['user_roles', 'role_permissions']) {
    await db.sequelize.query(`DELETE FROM ${table} WHERE role_id = :roleId`, {
      replacements: { roleId },
      transaction: tx,
    });
  }
}

import type { UserItem } from '@app/contracts';
import { QueryTypes, type Transaction } from 'sequelize';
import { permissionNames } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import type { User } from '../../db/models/index.js';
import { toIso } from '../../db/sql-date.js';

/** The show/edit item's base fields; never the password hash. */
export function toUserItem(user: User): UserItem {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    is_active: Boolean(user.is_active),
    created_at: toIso(user.created_at) as string,
    updated_at: toIso(user.updated_at) as string,
    deleted_at: toIso(user.deleted_at),
  };
}

export async function rolesOf(
  db: Database,
  userId: number,
  tx?: Transaction,
): Promise<Array<{ id: number; name: string }>> {
  const rows = await db.sequelize.query<{ id: number; name: string }>(
    `SELECT r.id, r.name FROM roles r JOIN user_roles ur ON ur.role_id = r.id WHERE ur.user_id = :userId ORDER BY r.name`,
    { replacements: { userId }, type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

export async function rolesCountOf(db: Database, userId: number): Promise<number> {
  return db.models.UserRole.count({ where: { user_id: userId } });
}

export async function sortedPermissionNames(db: Database, userId: number): Promise<string[]> {
  return [...(await permissionNames(db, userId))].sort();
}

/** The opaque optimistic-lock token of the edit form. */
export const versionOf = (user: Pick<User, 'id' | 'lock_version'>) =>
  Buffer.from(`${user.id}:${user.lock_version}`).toString('base64url');

import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';

/** The authenticated caller, resolved fresh from the database on every request. */
export interface Actor {
  id: number;
  name: string;
  email: string;
  permissions: ReadonlySet<string>;
}

/**
 * How the caller proved who they are; a session is what login rotates and logout ends. A
 * token's `scopes` are as stored (null: all of its owner's); the actor's permissions are
 * already narrowed to them.
 */
export type AuthMethod =
  | { via: 'session'; sessionId: string }
  | { via: 'token'; tokenId: number; tokenName: string; scopes: readonly string[] | null };

/**
 * The caller as the database sees them now: active, not deleted, with the union of their roles'
 * permissions and their direct grants. Read on every request, never cached, so a deactivation
 * or a role change made by any instance applies to the very next request everywhere.
 */
export async function loadActor(db: Database, userId: number): Promise<Actor | null> {
  // Every request pays these two reads: plain statements, side by side (the permissions of a
  // user who is not there are read for nothing, and no request waits for the other read).
  const [[user], permissions] = await Promise.all([
    db.sequelize.query<{ id: number | string; name: string; email: string }>(
      'SELECT id, name, email FROM users WHERE id = :userId AND is_active = 1 AND deleted_at IS NULL LIMIT 1',
      { replacements: { userId }, type: QueryTypes.SELECT },
    ),
    permissionNames(db, userId),
  ]);
  if (!user) return null;
  return { id: Number(user.id), name: user.name, email: user.email, permissions };
}

export async function permissionNames(
  db: Database,
  userId: number,
  tx: Transaction | null = null,
): Promise<ReadonlySet<string>> {
  const rows = await db.sequelize.query<{ name: string }>(
    `SELECT p.name FROM permissions p
       JOIN role_permissions rp ON rp.permission_id = p.id
       JOIN user_roles ur ON ur.role_id = rp.role_id
      WHERE ur.user_id = :userId
     UNION
     SELECT p.name FROM permissions p
       JOIN user_permissions up ON up.permission_id = p.id
      WHERE up.user_id = :userId`,
    { replacements: { userId }, type: QueryTypes.SELECT, transaction: tx },
  );
  return new Set(rows.map((r) => r.name));
}

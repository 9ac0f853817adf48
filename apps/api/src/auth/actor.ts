import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/database.js';

/** Where a user's second factor stands: confirmed, and asked for by one of their roles. */
export interface TwoFactorFacts {
  enrolled: boolean;
  required: boolean;
}

/** The authenticated caller, resolved fresh from the database on every request. */
export interface Actor {
  id: number;
  name: string;
  email: string;
  permissions: ReadonlySet<string>;
  /** Read with the account on every request (absent for the command line and unit tests' actors). */
  twoFactor?: TwoFactorFacts;
  /**
   * A session of a member whose role requires a second factor they have not set up, and whose
   * sign-in did not meet one otherwise: only enrolment is open to it (trpc/preflight.ts).
   */
  heldAtEnrolment?: boolean;
}

/**
 * How the caller proved who they are; a session is what login rotates and logout ends. A
 * token's `scopes` are as stored (null: all of its owner's); the actor's permissions are
 * already narrowed to them.
 */
export type AuthMethod =
  | { via: 'session'; sessionId: string }
  | {
      via: 'token';
      tokenId: number;
      tokenName: string;
      scopes: readonly string[] | null;
      /** Set when the token came through the SCIM door: its changes are recorded `via: scim`. */
      door?: 'scim';
    };

/**
 * Whose account a request acts for: a known user id, or the user behind a token hash or a
 * session id. Keying by the credential lets the actor be read in the same round trip as the
 * credential itself, instead of after it.
 */
export type ActorKey = { userId: number } | { tokenHash: string } | { sessionId: string };

/** The key as a SQL expression for a user id (a subquery on a unique key when it is a credential). */
function userIdOf(key: ActorKey): { sql: string; value: number | string } {
  if ('userId' in key) return { sql: ':key', value: key.userId };
  if ('tokenHash' in key)
    return { sql: '(SELECT user_id FROM api_tokens WHERE token_hash = :key)', value: key.tokenHash };
  return { sql: '(SELECT user_id FROM sessions WHERE id = :key)', value: key.sessionId };
}

/**
 * The `users` row `users` (a table name or alias) has no confirmed second factor: none, or a
 * set-up still waiting for its code. The one definition of "enrolled", negated.
 */
export const withoutSecondFactor = (users: string) => `${users}.two_factor_enrolled_at IS NULL`;

/**
 * One of the roles of the `users` row `users` requires a second factor; with `exceptRole` (SQL),
 * one other than that role (what a role's impact preview asks).
 */
export const requiredByRole = (users: string, exceptRole?: string) =>
  `EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
            WHERE ur.user_id = ${users}.id AND r.require_two_factor = 1${exceptRole ? ` AND r.id <> ${exceptRole}` : ''})`;

/**
 * A user's second factor as two columns of a `users` row (`enrolled`, `required`, 0 or 1): the
 * one definition the caller's own (/auth/me, /account) and a user's page (GET /users/{id}) read.
 */
export const TWO_FACTOR_COLUMNS = `CASE WHEN ${withoutSecondFactor('users')} THEN 0 ELSE 1 END AS enrolled,
  CASE WHEN ${requiredByRole('users')} THEN 1 ELSE 0 END AS required`;

/** The facts from a row read with `TWO_FACTOR_COLUMNS` (drivers answer the 0 or 1 as a number or a string). */
export const toTwoFactorFacts = (row: { enrolled: number | string; required: number | string }): TwoFactorFacts => ({
  enrolled: Number(row.enrolled) === 1,
  required: Number(row.required) === 1,
});

/**
 * The caller as the database sees them now: active, not deleted, with the union of their roles'
 * permissions and their direct grants. Read on every request, never cached, so a deactivation
 * or a role change made by any instance applies to the very next request everywhere.
 */
export async function loadActor(db: Database, key: ActorKey): Promise<Actor | null> {
  const userId = userIdOf(key);
  // Every request pays these two reads: plain statements, side by side (the permissions of a
  // user who is not there are read for nothing, and no request waits for the other read).
  const readUser = () =>
    db.sequelize.query<{
      id: number | string;
      name: string;
      email: string;
      enrolled: number | string;
      required: number | string;
    }>(
      `SELECT id, name, email, ${TWO_FACTOR_COLUMNS}
         FROM users WHERE id = ${userId.sql} AND is_active = 1 AND deleted_at IS NULL LIMIT 1`,
      { replacements: { key: userId.value }, type: QueryTypes.SELECT },
    );
  const [[user], permissions] = await Promise.all([
    readUser(),
    readPermissionNames(db, userId.sql, userId.value, null),
  ]);
  if (!user) return null;
  // Two statements, two moments: a credential revoked between them (its owner deactivated by
  // someone else just then) leaves the permissions read with no owner, an empty set. The caller
  // was signed out, not refused: an empty set is checked against the credential again (401, not
  // 403). Only accounts holding no permission at all pay the extra read.
  if (permissions.size === 0 && !('userId' in key) && (await readUser()).length === 0) return null;
  return { id: Number(user.id), name: user.name, email: user.email, permissions, twoFactor: toTwoFactorFacts(user) };
}

export function permissionNames(
  db: Database,
  userId: number,
  tx: Transaction | null = null,
): Promise<ReadonlySet<string>> {
  return readPermissionNames(db, ':key', userId, tx);
}

async function readPermissionNames(
  db: Database,
  userIdSql: string,
  key: number | string,
  tx: Transaction | null,
): Promise<ReadonlySet<string>> {
  const rows = await db.sequelize.query<{ name: string }>(
    `SELECT p.name FROM permissions p
       JOIN role_permissions rp ON rp.permission_id = p.id
       JOIN user_roles ur ON ur.role_id = rp.role_id
      WHERE ur.user_id = ${userIdSql}
     UNION
     SELECT p.name FROM permissions p
       JOIN user_permissions up ON up.permission_id = p.id
      WHERE up.user_id = ${userIdSql}`,
    { replacements: { key }, type: QueryTypes.SELECT, transaction: tx },
  );
  return new Set(rows.map((r) => r.name));
}

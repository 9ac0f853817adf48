import type { PreviewReach, PreviewUser } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { requiredByRole, withoutSecondFactor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';

/**
 * The reads of a role change's impact preview (POST /roles/{id}/preview). Nothing here scans a
 * role's members to count them: at 1 000 000 users a role may have 800 000, and an anti-join
 * over them (each member probed for the permission another way) takes seconds. Instead:
 *
 * - the members are counted from the role's member stripes (`role_member_counts`, 16 rows);
 * - for one permission P, S = the users holding P another way (members of the *other* roles
 *   granting P, and direct grants of P) is read from the indexes `user_roles_role (role_id,
 *   user_id)` and `user_permissions_permission (permission_id, user_id)`; it is usually small
 *   (the administrators and a few managers). Each user of S is probed against user_roles'
 *   primary key (user_id, role_id) and users' primary key: |members ∩ S| costs |S| probes, and
 *   those who gain or lose P are members − |members ∩ S|;
 * - the first 20 of them walk the role's members in id order (the `user_roles_role` range,
 *   already sorted) skipping S by primary-key probes, and stop at the 20th (or at the count,
 *   when fewer gain or lose P).
 *
 * The join order is forced (MariaDB STRAIGHT_JOIN, SQLite CROSS JOIN) so neither planner
 * drives the count from the role's members, whatever its statistics say.
 */

interface RawUser {
  id: number | string;
  name: string;
  email: string;
}

const toUser = (row: RawUser): PreviewUser => ({ id: Number(row.id), name: row.name, email: row.email });

/** The users with these ids, by id (a preview's samples: a few dozen at most). */
export async function usersByIds(db: Database, ids: readonly number[]): Promise<PreviewUser[]> {
  if (ids.length === 0) return [];
  const rows = await db.sequelize.query<RawUser>('SELECT id, name, email FROM users WHERE id IN (:ids) ORDER BY id', {
    replacements: { ids: [...ids] },
    type: QueryTypes.SELECT,
  });
  return rows.map(toUser);
}

/** The join that keeps the left table as the driving one. */
const thenJoin = (db: Database) => (db.dialect === 'mysql' ? 'STRAIGHT_JOIN' : 'CROSS JOIN');

/** The role's name, the names of the permissions it grants and whether it requires a second factor; null when there is no such role. */
export async function roleForPreview(
  db: Database,
  id: number,
): Promise<{ id: number; name: string; permissions: string[]; requireTwoFactor: boolean } | null> {
  const [role] = await db.sequelize.query<{ id: number | string; name: string; require_two_factor: number | string }>(
    'SELECT id, name, require_two_factor FROM roles WHERE id = :id',
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  if (!role) return null;
  const granted = await db.sequelize.query<{ name: string }>(
    `SELECT p.name FROM permissions p JOIN role_permissions rp ON rp.permission_id = p.id WHERE rp.role_id = :id`,
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return {
    id: Number(role.id),
    name: role.name,
    permissions: granted.map((p) => p.name),
    requireTwoFactor: Number(role.require_two_factor) === 1,
  };
}

/** Every permission's id by name (a few dozen rows). */
export async function permissionIdsByName(db: Database): Promise<Map<string, number>> {
  const rows = await db.sequelize.query<{ id: number | string; name: string }>('SELECT id, name FROM permissions', {
    type: QueryTypes.SELECT,
  });
  return new Map(rows.map((r) => [r.name, Number(r.id)]));
}

/** The role's members outside the trash, from its member stripes. */
export async function memberCount(db: Database, roleId: number): Promise<number> {
  const [row] = await db.sequelize.query<{ n: number | string | null }>(
    'SELECT COALESCE(SUM(members), 0) AS n FROM role_member_counts WHERE role_id = :roleId',
    { replacements: { roleId }, type: QueryTypes.SELECT },
  );
  return Number(row?.n ?? 0);
}

/** The roles other than `exceptRoleId` granting the permission (roles number hundreds at most). */
export async function rolesGranting(db: Database, permissionId: number, exceptRoleId: number): Promise<number[]> {
  const rows = await db.sequelize.query<{ role_id: number | string }>(
    'SELECT role_id FROM role_permissions WHERE permission_id = :permissionId AND role_id <> :exceptRoleId',
    { replacements: { permissionId, exceptRoleId }, type: QueryTypes.SELECT },
  );
  return rows.map((r) => Number(r.role_id));
}

/** Holders of a permission other than through the role in question: the other roles granting it, and its id. */
export interface ElsewhereHolders {
  otherRoles: readonly number[];
  permissionId: number;
}

const bind = (roleId: number, others: ElsewhereHolders) => ({
  roleId,
  otherRoles: [...others.otherRoles],
  permissionId: others.permissionId,
});

/** S as a derived table of distinct user ids (UNION dedupes: a user in two such roles counts once). */
function holdersSql(others: ElsewhereHolders): string {
  const direct = 'SELECT up.user_id FROM user_permissions up WHERE up.permission_id = :permissionId';
  return others.otherRoles.length
    ? `SELECT ur.user_id FROM user_roles ur WHERE ur.role_id IN (:otherRoles) UNION ${direct}`
    : direct;
}

/** |members ∩ S|: the role's members outside the trash who hold the permission another way. */
export async function membersHoldingElsewhere(db: Database, roleId: number, others: ElsewhereHolders): Promise<number> {
  const join = thenJoin(db);
  const [row] = await db.sequelize.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM (${holdersSql(others)}) s
       ${join} user_roles m ON m.user_id = s.user_id AND m.role_id = :roleId
       ${join} users u ON u.id = s.user_id AND u.deleted_at IS NULL`,
    { replacements: bind(roleId, others), type: QueryTypes.SELECT },
  );
  return Number(row?.n ?? 0);
}

/** The first `limit` members outside the trash, by id, who do not hold the permission another way: their ids. */
export async function firstMembersWithout(
  db: Database,
  roleId: number,
  others: ElsewhereHolders,
  limit: number,
): Promise<number[]> {
  if (limit <= 0) return [];
  const viaRole = others.otherRoles.length
    ? 'AND NOT EXISTS (SELECT 1 FROM user_roles o WHERE o.user_id = m.user_id AND o.role_id IN (:otherRoles))'
    : '';
  const rows = await db.sequelize.query<{ id: number | string }>(
    `SELECT u.id
       FROM user_roles m ${thenJoin(db)} users u ON u.id = m.user_id
      WHERE m.role_id = :roleId AND u.deleted_at IS NULL ${viaRole}
        AND NOT EXISTS (SELECT 1 FROM user_permissions d WHERE d.user_id = m.user_id AND d.permission_id = :permissionId)
      ORDER BY m.user_id
      LIMIT ${Number(limit)}`,
    { replacements: bind(roleId, others), type: QueryTypes.SELECT },
  );
  return rows.map((r) => Number(r.id));
}

/**
 * The users who manage accounts (hold `users.update`, through a role or directly), are active and
 * not in the trash, are not members of the role (members gain what the role gains), and lack at
 * least one of `gained`: how many, and the first `limit` by id. Driven from the holders of
 * users.update (the managers: few), each probed by primary keys.
 */
export async function managersLacking(
  db: Database,
  args: { roleId: number; updateId: number; updaterRoles: readonly number[]; gained: readonly number[]; limit: number },
): Promise<{ count: number; user_ids: number[] }> {
  const { roleId, updateId, updaterRoles, gained, limit } = args;
  const viaRole = updaterRoles.length
    ? 'SELECT ur.user_id FROM user_roles ur WHERE ur.role_id IN (:updaterRoles) UNION '
    : '';
  const from = `FROM (${viaRole}SELECT up.user_id FROM user_permissions up WHERE up.permission_id = :updateId) k
      ${thenJoin(db)} users u ON u.id = k.user_id AND u.is_active = 1 AND u.deleted_at IS NULL
     WHERE NOT EXISTS (SELECT 1 FROM user_roles m WHERE m.user_id = k.user_id AND m.role_id = :roleId)
       AND EXISTS (
         SELECT 1 FROM permissions p
          WHERE p.id IN (:gained)
            AND NOT EXISTS (SELECT 1 FROM user_roles h JOIN role_permissions rp ON rp.role_id = h.role_id
                             WHERE h.user_id = k.user_id AND rp.permission_id = p.id)
            AND NOT EXISTS (SELECT 1 FROM user_permissions d WHERE d.user_id = k.user_id AND d.permission_id = p.id))`;
  const replacements = { roleId, updateId, updaterRoles: [...updaterRoles], gained: [...gained] };
  const [counted] = await db.sequelize.query<{ n: number | string }>(`SELECT COUNT(*) AS n ${from}`, {
    replacements,
    type: QueryTypes.SELECT,
  });
  const count = Number(counted?.n ?? 0);
  if (count === 0 || limit <= 0) return { count, user_ids: [] };
  const rows = await db.sequelize.query<{ id: number | string }>(
    `SELECT u.id ${from} ORDER BY u.id LIMIT ${Number(limit)}`,
    { replacements, type: QueryTypes.SELECT },
  );
  return { count, user_ids: rows.map((r) => Number(r.id)) };
}

/**
 * Whether an active user not in the trash would hold every permission in `all` if the role
 * granted `roleGrants` (ids): first through a role granting them all (one index probe per such
 * role — the administrator role always is one, so this is where an installation stops), and
 * only when none has an active member through the grants added up per user (the scan the
 * write's own guard runs in the same case).
 */
export async function someoneWouldHoldEverything(
  db: Database,
  roleId: number,
  roleGrants: readonly number[],
  all: readonly number[],
): Promise<boolean> {
  if (all.length === 0) return true;
  const others = await db.sequelize.query<{ role_id: number | string }>(
    `SELECT role_id FROM role_permissions WHERE permission_id IN (:all) AND role_id <> :roleId
      GROUP BY role_id HAVING COUNT(*) = :n`,
    { replacements: { all: [...all], roleId, n: all.length }, type: QueryTypes.SELECT },
  );
  const full = others.map((r) => Number(r.role_id));
  if (all.every((id) => roleGrants.includes(id))) full.push(roleId);
  if (full.length) {
    const [holder] = await db.sequelize.query(
      `SELECT 1 AS found FROM user_roles ur JOIN users u ON u.id = ur.user_id
        WHERE ur.role_id IN (:full) AND u.is_active = 1 AND u.deleted_at IS NULL LIMIT 1`,
      { replacements: { full }, type: QueryTypes.SELECT },
    );
    if (holder) return true;
  }
  const granted = roleGrants.filter((id) => all.includes(id));
  const viaRole = granted.length
    ? `UNION SELECT ur.user_id, p.id FROM user_roles ur JOIN permissions p ON p.id IN (:granted) WHERE ur.role_id = :roleId`
    : '';
  const [holder] = await db.sequelize.query(
    `SELECT g.user_id FROM (
        SELECT ur.user_id, rp.permission_id FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
         WHERE rp.permission_id IN (:all) AND ur.role_id <> :roleId
        ${viaRole}
        UNION
        SELECT up.user_id, up.permission_id FROM user_permissions up WHERE up.permission_id IN (:all)
      ) g JOIN users u ON u.id = g.user_id AND u.is_active = 1 AND u.deleted_at IS NULL
      GROUP BY g.user_id HAVING COUNT(*) = :n LIMIT 1`,
    { replacements: { all: [...all], roleId, granted, n: all.length }, type: QueryTypes.SELECT },
  );
  return holder !== undefined;
}

/**
 * The members a role's second-factor requirement alone holds at enrolment (or would hold, were it
 * switched on): outside the trash, active, with no confirmed second factor, and no other role of
 * theirs requiring one — `withoutSecondFactor` and `requiredByRole`, the definitions /auth/me
 * reads. How many, and the first `limit` by id.
 *
 * Two sets meet here, each possibly large: the role's members (`members`, from its stripes) and
 * the users without a confirmed second factor (U, read in id order from the index
 * `users_deleted_active_two_factor (deleted_at, is_active, two_factor_enrolled_at, id)`). The
 * count walks the smaller and probes the other by primary keys: first U is counted up to
 * `members` entries, index only (no row read); when it ends before, U drives (the usual case
 * once most people have a second factor), otherwise the members do (a small role, or an
 * installation where few have one yet). The cost is about min(|U|, members) probes.
 */
export async function membersHeldOnlyBy(
  db: Database,
  roleId: number,
  members: number,
  limit: number,
): Promise<PreviewReach> {
  if (members <= 0) return { count: 0, user_ids: [] };
  const unenrolled = `u.deleted_at IS NULL AND u.is_active = 1 AND ${withoutSecondFactor('u')}`;
  const [seen] = await db.sequelize.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM (SELECT u.id FROM users u WHERE ${unenrolled} LIMIT ${Number(members)}) x`,
    { type: QueryTypes.SELECT },
  );
  const join = thenJoin(db);
  const fromUnenrolled = Number(seen?.n ?? 0) < members;
  const [from, order] = fromUnenrolled
    ? [`users u ${join} user_roles m ON m.user_id = u.id AND m.role_id = :roleId WHERE ${unenrolled}`, 'u.id']
    : [`user_roles m ${join} users u ON u.id = m.user_id WHERE m.role_id = :roleId AND ${unenrolled}`, 'm.user_id'];
  const held = `FROM ${from} AND NOT ${requiredByRole('u', ':roleId')}`;
  const [counted] = await db.sequelize.query<{ n: number | string }>(`SELECT COUNT(*) AS n ${held}`, {
    replacements: { roleId },
    type: QueryTypes.SELECT,
  });
  const count = Number(counted?.n ?? 0);
  if (count === 0 || limit <= 0) return { count, user_ids: [] };
  const rows = await db.sequelize.query<{ id: number | string }>(
    `SELECT u.id ${held} ORDER BY ${order} LIMIT ${Number(Math.min(limit, count))}`,
    { replacements: { roleId }, type: QueryTypes.SELECT },
  );
  return { count, user_ids: rows.map((r) => Number(r.id)) };
}

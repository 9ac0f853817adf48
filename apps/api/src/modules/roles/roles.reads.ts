import type { RolesListQuery, RolesSort } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import { MAY_READ_REPLICA } from '../../db/replica-routing.js';
import { ROLE_RECORD_COLUMNS, type RoleRecord } from './roles.item.js';

/**
 * The reads of the roles list and its export, as SQL over `roles` aliased `r`. However many roles
 * there are, a page costs the same statements: the page with its total, then the permissions of
 * its roles. A role's `users_count` is the sum of its member stripes (migration 0015: at most 16
 * rows, read by primary key), never a COUNT over its members.
 */

type RolesQuery = Pick<RolesListQuery, 'q' | 'filters' | 'order'>;

/** A role's members outside the trash, from its counter stripes. */
export const USERS_COUNT_SQL = '(SELECT COALESCE(SUM(c.members), 0) FROM role_member_counts c WHERE c.role_id = r.id)';

/** A role as the list reads it: the record and its member count. */
export type RoleListRecord = RoleRecord & { users_count: number | string };

/** Each sort's expression. Names order without regard to case on both engines (MySQL's collation does so already). */
function sortSql(db: Database): Readonly<Record<RolesSort | 'id', string>> {
  return {
    name: db.dialect === 'sqlite' ? 'r.name COLLATE NOCASE' : 'r.name',
    users_count: USERS_COUNT_SQL,
    created_at: 'r.created_at',
    id: 'r.id',
  };
}

function orderSql(db: Database, query: RolesQuery): string {
  const sorts = sortSql(db);
  return query.order.map(([key, dir]) => `${sorts[key]} ${dir === 'desc' ? 'DESC' : 'ASC'}`).join(', ');
}

/** The query's conditions (ANDed) and their values, bound as replacements. */
function whereSql(query: RolesQuery): { sql: string; replacements: Record<string, unknown> } {
  const conditions: string[] = [];
  const replacements: Record<string, unknown> = {};
  if (query.q) {
    // A substring in any case, with no character of it special (INSTR, not LIKE: no escaping).
    conditions.push('INSTR(LOWER(r.name), LOWER(:q)) > 0');
    replacements.q = query.q;
  }
  const { permission, users_count: members } = query.filters;
  if (permission?.values.length) {
    conditions.push(
      `EXISTS (SELECT 1 FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
                WHERE rp.role_id = r.id AND p.name IN (:permissions))`,
    );
    replacements.permissions = permission.values;
  }
  if (members?.from !== undefined) {
    conditions.push(`${USERS_COUNT_SQL} >= :membersFrom`);
    replacements.membersFrom = members.from;
  }
  if (members?.to !== undefined) {
    conditions.push(`${USERS_COUNT_SQL} <= :membersTo`);
    replacements.membersTo = members.to;
  }
  return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', replacements };
}

/**
 * One page of roles in the query's order, with each one's member count, and how many roles match
 * in all (counted in the same pass; null when the page is past the last match).
 */
export async function rolesPage(
  db: Database,
  query: RolesQuery,
  limit: number,
  offset: number,
): Promise<{ rows: RoleListRecord[]; total: number | null }> {
  const where = whereSql(query);
  const rows = await db.sequelize.query<RoleListRecord & { total: number | string }>(
    `SELECT ${ROLE_RECORD_COLUMNS}, ${USERS_COUNT_SQL} AS users_count, COUNT(*) OVER () AS total
       FROM roles r ${where.sql}
      ORDER BY ${orderSql(db, query)}
      LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
    { replacements: where.replacements, type: QueryTypes.SELECT, ...MAY_READ_REPLICA },
  );
  return { rows, total: rows.length ? Number(rows[0]?.total) : null };
}

/** How many roles match (for a page past the last one, where no row carries the total). */
export async function rolesCount(db: Database, query: RolesQuery): Promise<number> {
  const where = whereSql(query);
  const [row] = await db.sequelize.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM roles r ${where.sql}`, {
    replacements: where.replacements,
    type: QueryTypes.SELECT,
    ...MAY_READ_REPLICA,
  });
  return Number(row?.n ?? 0);
}

/** Every matching role's id, in the query's order (an export's list: roles number hundreds, not millions). */
export async function roleIdsInOrder(db: Database, query: RolesQuery): Promise<number[]> {
  const where = whereSql(query);
  const rows = await db.sequelize.query<{ id: number | string }>(
    `SELECT r.id FROM roles r ${where.sql} ORDER BY ${orderSql(db, query)}`,
    { replacements: where.replacements, type: QueryTypes.SELECT, ...MAY_READ_REPLICA },
  );
  return rows.map((r) => Number(r.id));
}

/** These roles with their member counts, in the order of `ids` (a role deleted since is left out). */
export async function rolesByIds(db: Database, ids: readonly number[]): Promise<RoleListRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.sequelize.query<RoleListRecord>(
    `SELECT ${ROLE_RECORD_COLUMNS}, ${USERS_COUNT_SQL} AS users_count FROM roles r WHERE r.id IN (:ids)`,
    { replacements: { ids }, type: QueryTypes.SELECT, ...MAY_READ_REPLICA },
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The names of the permissions each of `roles` grants, sorted, in one statement; [] for a role granting none. */
export async function permissionNamesOf(db: Database, roles: readonly number[]): Promise<Map<number, string[]>> {
  const names = new Map<number, string[]>(roles.map((id) => [id, []]));
  if (roles.length === 0) return names;
  const rows = await db.sequelize.query<{ role_id: number | string; name: string }>(
    `SELECT rp.role_id, p.name FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
      WHERE rp.role_id IN (:roles) ORDER BY rp.role_id, p.name`,
    { replacements: { roles: [...roles] }, type: QueryTypes.SELECT, ...MAY_READ_REPLICA },
  );
  for (const row of rows) names.get(Number(row.role_id))?.push(row.name);
  return names;
}

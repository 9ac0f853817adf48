import type { UserRow, UsersStats } from '@app/contracts';
import { toIso } from '../../db/sql-date.js';
import {
  type FindOptions,
  IndexHints,
  QueryTypes,
  type OrderItem,
  type Transaction,
  type WhereOptions,
} from 'sequelize';
import type { Database } from '../../db/database.js';
import { countUpTo, pageIdsOf, pageIdsWithTotalOf, plainRows, selectSql } from '../../query/list-reads.js';

interface RawUserRow {
  id: number;
  name: string;
  email: string;
  roles_count: number | string;
  is_active: boolean | number;
  created_at: Date | string;
  deleted_at: Date | string | null;
}

export function toUserRow(raw: RawUserRow, roles: string[] = []): UserRow {
  return {
    id: Number(raw.id),
    name: raw.name,
    email: raw.email,
    roles_count: Number(raw.roles_count),
    roles,
    is_active: Boolean(raw.is_active),
    created_at: toIso(raw.created_at) as string,
    deleted_at: toIso(raw.deleted_at),
  };
}

/**
 * One page of ids, then the rows for those ids: the first query walks only the index of the
 * sort (a deep OFFSET skips index entries, not table rows), the second reads ten rows by key.
 */
export function pageIds(
  db: Database,
  where: WhereOptions,
  order: OrderItem[],
  limit: number,
  offset = 0,
  hints: Pick<FindOptions, 'indexHints'> = {},
): Promise<number[]> {
  return pageIdsOf(db.models.User, where, order, limit, offset, hints);
}

/** One page of ids and the number of users matching in all, in one pass. */
export function pageIdsWithTotal(
  db: Database,
  where: WhereOptions,
  order: OrderItem[],
  limit: number,
  offset: number,
): Promise<{ ids: number[]; total: number | null }> {
  return pageIdsWithTotalOf(db.models.User, where, order, limit, offset);
}

/**
 * Rows for `ids`, returned in the order of `ids`. A plain statement: every list page reads its
 * rows this way, and a model finder cost more than the read itself. The role names are a second
 * statement over the same ids, side by side with the first: joined into the page's query they
 * would multiply its rows and group them again.
 */
export async function rowsByIds(db: Database, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  // roles_count by subselect: one index probe per row, never loading the roles.
  const [rows, names] = await Promise.all([
    db.sequelize.query<RawUserRow>(
      `SELECT id, name, email, (SELECT COUNT(*) FROM user_roles ur WHERE ur.user_id = u.id) AS roles_count,
              is_active, created_at, deleted_at
         FROM users u WHERE id IN (:ids)`,
      { replacements: { ids: [...ids] }, type: QueryTypes.SELECT },
    ),
    roleNamesOf(db, ids),
  ]);
  const byId = new Map(rows.map((r) => [Number(r.id), toUserRow(r, names.get(Number(r.id)))]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Ids close together (a batch in id order) are read as one range of user_roles' primary key. */
function idRange(ids: readonly number[]): { sql: string; replacements: Record<string, unknown> } {
  let low = Number.POSITIVE_INFINITY;
  let high = 0;
  for (const id of ids) {
    if (id < low) low = id;
    if (id > high) high = id;
  }
  return high - low < 2 * ids.length
    ? { sql: 'ur.user_id BETWEEN :low AND :high', replacements: { low, high } }
    : { sql: 'ur.user_id IN (:ids)', replacements: { ids: [...ids] } };
}

/**
 * The names of the roles each of `ids` holds, alphabetical (absent when none): one statement on
 * user_roles' primary key (user_id, role_id), each role found by its key. A page's hundred ids or
 * an export batch's thousand; bulk callers pass at most a thousand at a time.
 */
export async function roleNamesOf(
  db: Database,
  ids: readonly number[],
  tx?: Transaction,
): Promise<Map<number, string[]>> {
  const names = new Map<number, string[]>();
  if (ids.length === 0) return names;
  const where = idRange(ids);
  // RAW: the driver's rows as they are (SELECT copies each one), for an export's thousand a batch.
  const [rows] = (await db.sequelize.query(
    `SELECT ur.user_id, r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ${where.sql} ORDER BY r.name`,
    { type: QueryTypes.RAW, replacements: where.replacements, ...(tx ? { transaction: tx } : {}) },
  )) as [Array<{ user_id: number | string; name: string }>, unknown];
  for (const r of rows) {
    const id = Number(r.user_id);
    const list = names.get(id);
    if (list) list.push(r.name);
    else names.set(id, [r.name]);
  }
  return names;
}

/**
 * How many roles each of `ids` holds (0 when none), in one grouped query on user_roles' primary
 * key (user_id, role_id). Ids close together (a batch in id order) are read as one range:
 * 0.75 ms for a thousand users, where listing the ids took 4 ms of parsing and index dives.
 */
export async function rolesCountsOf(db: Database, ids: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (ids.length === 0) return counts;
  const where = idRange(ids);
  const rows = await db.sequelize.query<{ user_id: number | string; n: number | string }>(
    `SELECT ur.user_id, COUNT(*) AS n FROM user_roles ur WHERE ${where.sql} GROUP BY ur.user_id`,
    { type: QueryTypes.SELECT, replacements: where.replacements },
  );
  for (const r of rows) counts.set(Number(r.user_id), Number(r.n));
  return counts;
}

export async function countWhere(db: Database, where: WhereOptions): Promise<number> {
  return db.models.User.count({ where, paranoid: false });
}

/**
 * Users rows exactly as the driver returns them. `findAll({ raw: true })` copies every row into
 * a new object first: at a million rows (an export) that copy was 7 % of the CPU.
 */
export function plainUserRows<T>(db: Database, options: FindOptions): Promise<T[]> {
  return plainRows<T>(db, db.models.User, options);
}

/**
 * How many rows MariaDB/MySQL expects to read for `where` through `index` (EXPLAIN: index dives
 * at the range's ends, no rows read).
 */
export async function estimatedRows(db: Database, where: WhereOptions, index: string): Promise<number> {
  const sql = selectSql(db, db.models.User, {
    attributes: ['id'],
    where,
    indexHints: [{ type: IndexHints.FORCE, values: [index] }],
  });
  const plan = await db.sequelize.query<{ table: string; rows: number | string | null }>(`EXPLAIN ${sql}`, {
    type: QueryTypes.SELECT,
  });
  return Number(plan.find((row) => row.table === 'User')?.rows ?? Number.POSITIVE_INFINITY);
}

/** How many users match, counting no further than `limit` (the database stops reading there). */
export function countWhereUpTo(
  db: Database,
  where: WhereOptions,
  limit: number,
  hints: Pick<FindOptions, 'indexHints'> = {},
): Promise<number> {
  return countUpTo(db, db.models.User, where, limit, hints);
}

/** The trigger-maintained counters (migration 0003): exact, and one row read. */
export async function readStats(db: Database): Promise<Required<UsersStats>> {
  const [row] = await db.sequelize.query<{ total: number | string; active: number | string; trashed: number | string }>(
    'SELECT total, active, trashed FROM user_stats WHERE id = 1',
    { type: QueryTypes.SELECT },
  );
  const total = Number(row?.total ?? 0);
  const active = Number(row?.active ?? 0);
  return { total, active, inactive: total - active, trashed: Number(row?.trashed ?? 0) };
}

export async function availableRoles(db: Database): Promise<Array<{ id: number; name: string }>> {
  // A plain statement: every list page asks, and a model finder costs more than the read.
  const roles = await db.sequelize.query<{ id: number | string; name: string }>(
    'SELECT id, name FROM roles ORDER BY name ASC',
    { type: QueryTypes.SELECT },
  );
  return roles.map((r) => ({ id: Number(r.id), name: r.name }));
}

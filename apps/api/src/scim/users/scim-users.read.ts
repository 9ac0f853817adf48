import { Op, QueryTypes, type Transaction, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { MAY_READ_REPLICA } from '../../db/replica-routing.js';
import { toIso } from '../../db/sql-date.js';
import { countWhere, pageIds, pageIdsWithTotal, readStats } from '../../modules/users/users.read-repository.js';
import { bestTermEstimate, searchCondition } from '../../modules/users/users.search.js';
import { ScimError } from '../scim-error.js';
import type { ScimRoleRef, ScimUserRow } from './scim-user.mapping.js';

const COLUMNS =
  'id, name, email, user_name, external_id, given_name, family_name, email_primary, is_active, created_at, updated_at, lock_version';

type RawRow = Omit<ScimUserRow, 'is_active' | 'created_at' | 'updated_at' | 'id' | 'lock_version' | 'email_primary'> & {
  id: number | string;
  is_active: number | boolean;
  email_primary: number | boolean | null;
  created_at: Date | string;
  updated_at: Date | string;
  lock_version: number | string;
};

const toDate = (v: Date | string) => new Date(toIso(v) as string);

function toRow(r: RawRow): ScimUserRow {
  return {
    id: Number(r.id),
    name: r.name,
    email: r.email,
    user_name: r.user_name,
    external_id: r.external_id,
    given_name: r.given_name,
    family_name: r.family_name,
    email_primary: r.email_primary === null ? null : Boolean(r.email_primary),
    is_active: Boolean(r.is_active),
    created_at: toDate(r.created_at),
    updated_at: toDate(r.updated_at),
    lock_version: Number(r.lock_version),
  };
}

/** The live accounts among `ids`, in the order of `ids`. */
export async function scimRowsByIds(db: Database, ids: readonly number[], tx?: Transaction): Promise<ScimUserRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.sequelize.query<RawRow>(
    `SELECT ${COLUMNS} FROM users WHERE id IN (:ids) AND deleted_at IS NULL`,
    { type: QueryTypes.SELECT, replacements: { ids }, ...(tx ? { transaction: tx } : MAY_READ_REPLICA) },
  );
  const byId = new Map(rows.map((r) => [Number(r.id), toRow(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Each account's roles (SCIM's read-only `groups`), by name. */
export async function rolesByUser(db: Database, ids: readonly number[], tx?: Transaction) {
  const roles = new Map<number, ScimRoleRef[]>();
  if (ids.length === 0) return roles;
  const rows = await db.sequelize.query<{ user_id: number | string; id: number | string; name: string }>(
    `SELECT ur.user_id, r.id, r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id
      WHERE ur.user_id IN (:ids) ORDER BY r.name, r.id`,
    { type: QueryTypes.SELECT, replacements: { ids }, ...(tx ? { transaction: tx } : MAY_READ_REPLICA) },
  );
  for (const r of rows) {
    const list = roles.get(Number(r.user_id)) ?? [];
    list.push({ id: Number(r.id), name: r.name });
    roles.set(Number(r.user_id), list);
  }
  return roles;
}

/** One live account with its roles; 404 in SCIM's shape when there is none (trashed counts as none). */
export async function scimUserById(db: Database, id: string, tx?: Transaction) {
  const numeric = /^\d{1,10}$/.test(id) ? Number(id) : null;
  const [row] = numeric === null ? [] : await scimRowsByIds(db, [numeric], tx);
  if (!row) throw new ScimError(404, `No user has the id "${id}".`);
  const roles = (await rolesByUser(db, [row.id], tx)).get(row.id) ?? [];
  return { row, roles };
}

/** Where a users page starts: a position (`startIndex`, 1-based) or after an id (a cursor). */
export type UsersPageStart = { offset: number } | { afterId: number };

/**
 * One page of live accounts matching `where` in `order`, with how many match in all: from the
 * trigger-kept counters when nothing narrows the list (one row read at any size), else counted.
 */
export async function scimUsersPage(
  db: Database,
  filter: { where: WhereOptions; searchTerms: string[] } | null,
  order: [string, 'ASC' | 'DESC'][],
  start: UsersPageStart,
  count: number,
): Promise<{ total: number; ids: number[]; more: boolean }> {
  const live: WhereOptions = { deleted_at: null };
  const [stats, estimate] = await Promise.all([readStats(db), bestTermEstimate(db, filter?.searchTerms ?? [])]);
  // A substring filter (`name.familyName co "hopp"`) reads the trigram index's candidates when
  // that is cheaper than walking the users: every match is among them, and the filter decides.
  // The total is exact (SCIM's totalResults is), so every match is visited once.
  const narrowing = estimate
    ? searchCondition(db, { estimate, rows: stats.total + stats.trashed }, { kind: 'all' })
    : null;
  const matching = filter ? { [Op.and]: [live, filter.where, ...(narrowing ? [narrowing] : [])] } : live;
  if (filter && 'offset' in start && count > 0) {
    // A filtered page by position: the page and the total from one pass over the matches (the
    // count and the page would each read every candidate); counted apart only past the last one.
    const read = await pageIdsWithTotal(db, matching, order, count + 1, start.offset);
    const total = read.total ?? (await countWhere(db, matching));
    return { total, ids: read.ids.slice(0, count), more: read.ids.length > count };
  }
  const paged = 'afterId' in start ? { [Op.and]: [matching, { id: { [Op.gt]: start.afterId } }] } : matching;
  const offset = 'offset' in start ? start.offset : 0;
  const [total, ids] = await Promise.all([
    filter ? countWhere(db, matching) : Promise.resolve(stats.total),
    count === 0 ? Promise.resolve([]) : pageIds(db, paged, order, count + 1, offset),
  ]);
  return { total, ids: ids.slice(0, count), more: ids.length > count };
}

import { LIST_COUNT_BOUND } from '@app/contracts';
import { type IndexHint, IndexHints, Op, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { boundedTotal, type ListTotal } from '../../query/list-page.js';
import {
  byKind,
  type ListQueryShape,
  orderFor,
  type ResourceMapping,
  softDeleteView,
  toDate,
  whereFor,
} from '../../query/list-query-engine.js';
import { countUpTo, pageIdsOf } from '../../query/list-reads.js';
import { attributeConditions, type ScopedUsersQuery } from './users.attributes-query.js';

/** The keys' user id, as the attribute conditions name it. */
const KEY_USER_ID = '`UserRoleKey`.`user_id`';

/**
 * The role-filtered list read from the list keys (migration 0034, docs/database.md "List keys per
 * role"): one role, at most the status and creation-date filters, live users, no search, sorted
 * by id, name or creation date. The keys hold exactly the users' own values, and the filters are
 * the users list's own handlers on the same columns, so a page read here is the page the users
 * table would give, at the cost of one index range instead of a probe of user_roles per user.
 */
const keysMapping: ResourceMapping = {
  alias: 'UserRoleKey',
  search: [],
  sorts: { id: 'user_id', name: 'name', created_at: 'created_at' },
  filters: {
    role_id: (value) => (value.kind === 'in' ? { role_id: value.values.map(Number) } : null),
    is_active: byKind('is_active'),
    created_between: byKind('created_at', toDate),
    trashed: softDeleteView,
    // Tested on the keys' user id by the attribute conditions (roleKeysCount), not by the mapping.
    attributes: () => null,
  },
  softDelete: { column: 'deleted_at', filter: 'trashed' },
};

/**
 * Each order's index on MariaDB (migrations 0034, 0038): by creation date it is the primary key,
 * (role_id, created_at, user_id), the rows themselves in that order.
 */
const PAGE_INDEX: Record<string, string> = {
  id: 'user_role_keys_by_id',
  name: 'user_role_keys_by_name',
  created_at: 'PRIMARY',
};

/**
 * Whether the keys hold every filter of the query but its attribute conditions: one role, at
 * most the status and a date range, live users, no search.
 */
function keyedFilters(query: ScopedUsersQuery): boolean {
  if (query.q !== null) return false;
  const { role_id: role, trashed, attributes: _attributes, ...rest } = query.filters;
  if (role?.kind !== 'in' || role.values.length !== 1) return false;
  const id = Number(role.values[0]);
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  if ((trashed?.kind === 'trashed' ? trashed.value : 'without') !== 'without') return false;
  const others = Object.entries(rest).filter(([, v]) => v !== undefined);
  return others.every(([name]) => name === 'is_active' || name === 'created_between');
}

/** The query as the keys answer it, or null when they cannot (the users table answers then). */
export function roleKeysQuery(query: ScopedUsersQuery): ListQueryShape | null {
  if (query.attributeScope || !keyedFilters(query)) return null;
  if (!query.order.every(([key]) => key in keysMapping.sorts)) return null;
  return query;
}

/**
 * How many users the query matches, counted on the keys (up to `bound`, or all of them when it
 * is null); null when the keys cannot count it. One place decides, for every count of the users
 * list's query (the list's bounded total, the exact count of "select all matching"): one role,
 * at most the status and a date range, live users, no search, custom attribute conditions or
 * not. The attribute conditions are the users list's own (`attributeConditions`), tested on the
 * keys' user id: MariaDB reads the rarer side first, as it does on the users table; each
 * candidate of an attribute value costs a probe of the keys' membership index (user, role) and,
 * for the status or trash, of the row it names (migration 0038), as the users table took two (the
 * user's row for status and trash, then `user_roles`).
 */
export function roleKeysCount(db: Database, query: ScopedUsersQuery, bound: number | null): Promise<number> | null {
  if (!keyedFilters(query)) return null;
  const attributes = attributeConditions(db, query, KEY_USER_ID);
  if (attributes.length === 0) return keyedCountOf(db, whereFor(db, keysMapping, query), query, bound);
  // The optimizer chooses which side to read first (the rarer value, or the role's keys).
  const where = { [Op.and]: [whereFor(db, keysMapping, query), ...attributes] };
  return keyedCountOf(db, where, null, bound);
}

/**
 * The keys matching `where`, up to `bound` (null: all). Given the query's shape, one range of the
 * role's keys: with a status or a date range, the rows themselves in date order (the primary key,
 * migration 0038), each status read where it lies; with neither, the id index, which holds all a
 * count needs. Walking an index for a status instead reads each entry's row by key: a bounded
 * count of a year's active managers took 18–20 ms that way against 2.5 ms on the rows, an exact
 * count of a role's 418 000 active users 81 ms against 53 ms (docs/decisions.md).
 */
function keyedCountOf(
  db: Database,
  where: WhereOptions,
  shape: Pick<ListQueryShape, 'filters'> | null,
  bound: number | null,
): Promise<number> {
  const { created_between: range, is_active: status } = shape?.filters ?? {};
  const index = shape && PAGE_INDEX[range || status ? 'created_at' : 'id'];
  const hints = index ? forced(db, index) : {};
  const model = db.models.UserRoleKey;
  return bound === null ? model.count({ where, ...hints }) : countUpTo(db, model, where, bound, hints);
}

type Window = { limit: number; offset: number };

const forced = (db: Database, index: string): { indexHints?: IndexHint[] } =>
  db.dialect === 'mysql' ? { indexHints: [{ type: IndexHints.FORCE, values: [index] }] } : {};

const pageIds = (db: Database, query: ListQueryShape, where: WhereOptions, at: Window, index: string) =>
  pageIdsOf(
    db.models.UserRoleKey,
    where,
    orderFor(keysMapping, query),
    at.limit,
    at.offset,
    forced(db, index),
    'user_id',
  );

/**
 * A page of ids and the bounded total. The page walks its order's index (the status, when
 * filtered, read by key from the row of each entry it passes). A date range sorted otherwise
 * that holds fewer users than the bound is read along the dates and sorted instead (at most
 * LIST_COUNT_BOUND users, where the walk of a deep page could pass over most of the role).
 */
export async function roleKeysPage(
  db: Database,
  query: ListQueryShape,
  at: Window,
): Promise<{ ids: number[]; counted: ListTotal }> {
  const where = whereFor(db, keysMapping, query);
  const ranged = query.filters.created_between !== undefined;
  const count = async () => boundedTotal(await keyedCountOf(db, where, query, LIST_COUNT_BOUND + 1));
  const sortKey = query.order[0]?.[0] ?? 'id';
  const sortIndex = PAGE_INDEX[sortKey] as string;
  if (!ranged || sortKey === 'created_at' || at.offset === 0) {
    const [ids, counted] = await Promise.all([pageIds(db, query, where, at, sortIndex), count()]);
    return { ids, counted };
  }
  const counted = await count();
  const index = counted.exact ? PAGE_INDEX.created_at : sortIndex;
  return { ids: await pageIds(db, query, where, at, index as string), counted };
}

import { LIST_COUNT_BOUND, type UsersListQuery, type UsersStats } from '@app/contracts';
import { type IndexHint, IndexHints, literal, Op, type OrderItem, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { boundedTotal, type ListTotal } from '../../query/list-page.js';
import { orderFor, whereFor } from '../../query/list-query-engine.js';
import { canSeeTrash } from '../../domain/users.policy.js';
import type { Actor } from '../../auth/actor.js';
import type { UsersConfig } from '../../users-config.js';
import { countWhere, countWhereUpTo, estimatedRows, readStats } from './users.read-repository.js';
import { usersMapping } from './users.mapping.js';
import {
  attributeConditions,
  type ScopedUsersQuery,
  sortValueSql,
  trashModeOf,
  valueIndexCount,
} from './users.attributes-query.js';
import { enumKeysCount } from './users.enum-keys.js';
import { roleKeysCount } from './users.role-keys.js';

/** The trash views need more than users.view (SPEC §3); refused before any query runs. */
export function assertTrashAllowed(actor: Actor, query: Pick<UsersListQuery, 'filters'>): void {
  if (trashModeOf(query) !== 'without' && !canSeeTrash(actor)) {
    throw new AppError(
      'FORBIDDEN',
      'You need the users.restore or users.forceDelete permission to see deleted users.',
      { extra: { permission: 'users.restore' } },
    );
  }
}

/** Page size under the server's configured limits (they may differ from the contract's defaults). */
export function effectivePerPage(query: Pick<UsersListQuery, 'perPageRequested'>, cfg: UsersConfig): number {
  return Math.min(query.perPageRequested ?? cfg.list.perPageDefault, cfg.list.perPageMax);
}

/**
 * The query's WHERE; `narrowing` (the search index's candidates) is ANDed to it when given. Its
 * attribute conditions come from the judged scope (users.attributes-query.ts).
 */
export function usersWhere(db: Database, query: ScopedUsersQuery, narrowing: WhereOptions | null = null): WhereOptions {
  const where = whereFor(db, usersMapping, query);
  const parts = [where, ...attributeConditions(db, query), ...(narrowing ? [narrowing] : [])];
  return parts.length > 1 ? { [Op.and]: parts } : where;
}

/**
 * The query's ORDER BY. A sort by an attribute is written here as its value per user (users
 * without one last, whichever the direction, then by id): right on both engines, for the reads
 * that take a bounded set (the selection); the list's pages and the export walk the value index
 * instead (users.attribute-sort.ts).
 */
export function usersOrder(query: ScopedUsersQuery): OrderItem[] {
  const sort = query.attributeScope?.sort;
  if (!sort) return orderFor(usersMapping, query);
  const dir = query.dir === 'desc' ? 'DESC' : 'ASC';
  return [
    [literal(`${sortValueSql(sort)} IS NULL`), 'ASC'],
    [literal(sortValueSql(sort)), dir],
    ['id', dir],
  ];
}

/** The index that walks live users in each sort's order (migration 0001). */
const SORT_INDEX: Record<string, string> = {
  id: 'users_deleted_id',
  name: 'users_deleted_name',
  email: 'users_deleted_email',
  is_active: 'users_deleted_active',
  created_at: 'users_deleted_created',
};

/**
 * MariaDB's optimizer ignores LIMIT when it costs `deleted_at IS NULL AND id < ?` against the
 * (deleted_at, id) index and scans instead: measured at a million users, a keyset batch took
 * 3.5–7 s unhinted and 0.01 s with the index forced. Ordered reads of live users therefore force
 * the sort's index, so they walk it in order and stop after LIMIT rows. Counts are not hinted.
 */
export function orderedReadHints(db: Database, query: UsersListQuery): { indexHints?: IndexHint[] } {
  if (db.dialect !== 'mysql' || trashModeOf(query) !== 'without') return {};
  const index = SORT_INDEX[query.order[0]?.[0] ?? 'id'];
  return index ? { indexHints: [{ type: IndexHints.FORCE, values: [index] }] } : {};
}

/**
 * The index a walk in batches takes (an export's keyset batches, a bulk job's chunks). Sorted by
 * id while live users are the majority, the table itself (its primary key) in id order: a batch
 * reads its rows where they lie instead of finding each through (deleted_at, id) first — 1.3 ms
 * against 2.9 ms per 1 000 rows at a million users, and 10 ms against 20 ms per dry-run chunk of
 * 10 000. Otherwise as the list's ordered reads.
 */
export function idWalkHints(
  db: Database,
  query: UsersListQuery,
  stats: Required<UsersStats>,
): { indexHints?: IndexHint[] } {
  const hints = orderedReadHints(db, query);
  const byId = (query.order[0]?.[0] ?? 'id') === 'id';
  if (!hints.indexHints || !byId || stats.trashed >= stats.total) return hints;
  return { indexHints: [{ type: IndexHints.FORCE, values: ['PRIMARY'] }] };
}

/**
 * What the trigger-kept counters say about the query, when they can answer it (no search, at
 * most the status and trash filters): one row read instead of a COUNT. Null otherwise.
 */
function countedByStats(query: UsersListQuery, s: Required<UsersStats>): number | null {
  const { trashed: _trashed, is_active, ...others } = query.filters;
  const narrowed = query.q !== null || Object.values(others).some((v) => v !== undefined);
  const mode = trashModeOf(query);
  if (narrowed || (is_active && mode !== 'without')) return null;
  if (mode === 'only') return s.trashed;
  if (mode === 'with') return s.total + s.trashed;
  if (!is_active) return s.total;
  return is_active.value ? s.active : s.inactive;
}

/**
 * The exact number of users matching the query (select all matching needs every one): from the
 * counters, else the list keys per role and enumeration value, else the role's list keys, else
 * one attribute's value index, else the users table.
 */
export async function countUsers(
  db: Database,
  query: ScopedUsersQuery,
  where: WhereOptions,
  stats?: Required<UsersStats>,
): Promise<number> {
  const counted = countedByStats(query, stats ?? (await readStats(db)));
  return (
    counted ??
    enumKeysCount(db, query, null) ??
    roleKeysCount(db, query, null) ??
    valueIndexCount(db, query, null) ??
    countWhere(db, where)
  );
}

/**
 * The list's total, honest and cheap: exact from the counters when they answer; otherwise the
 * rows are counted only up to the bound (`boundedTotal`), on the keys per role and enumeration
 * value when they hold the query (users.enum-keys.ts), on the role's list keys when they hold
 * the query (users.role-keys.ts), else on one attribute's value index when the query is custom
 * attributes alone (users.attributes-query.ts), else on the users table.
 */
export async function listTotal(
  db: Database,
  query: ScopedUsersQuery,
  where: WhereOptions,
  stats: Required<UsersStats>,
): Promise<ListTotal> {
  const counted = countedByStats(query, stats);
  if (counted !== null) return { total: counted, exact: true };
  const bound = LIST_COUNT_BOUND + 1;
  return boundedTotal(
    await (enumKeysCount(db, query, bound) ??
      roleKeysCount(db, query, bound) ??
      valueIndexCount(db, query, bound) ??
      countWhereUpTo(db, where, bound)),
  );
}

/**
 * What reading one user of a date range and sorting it costs, in entries of the sort's index
 * walked. The name and e-mail indexes carry the creation date (migration 0037), so their walk
 * decides the date on the entry itself: at a million users 0.12 µs an entry against 3.0 µs a
 * read-and-sorted user (its name looked up in the row). The other sorts read the row to decide
 * the date, about half what a read-and-sorted user costs.
 */
const SORT_COST: Record<string, number> = { name: 25, email: 25 };
const SORT_COST_UNCOVERED = 2;

/**
 * The page of a creation-date filter sorted by another column, read from the date range and
 * sorted (forcing the index of `created_at`) when that costs less than walking the sort's index
 * (forced otherwise) and skipping every user outside the range. At a million users, a month
 * sorted by name on page 1 000 walks about 384 000 entries of the name index (45 ms) where
 * reading and sorting its 26 000 users took 80 ms; the walk reads the same entries at ten
 * million, the range ten times the users. Matches are taken as spread evenly through the sort's
 * order; when the count stopped at its bound, the range's own estimate stands in for them (an
 * upper bound, so the walk is never judged dearer than it is).
 */
export async function rangeReadHints(
  db: Database,
  query: UsersListQuery,
  where: WhereOptions,
  matches: ListTotal,
  stats: Required<UsersStats>,
  need: { offset: number; limit: number },
): Promise<{ indexHints?: IndexHint[] }> {
  const sortKey = query.order[0]?.[0] ?? 'id';
  const live = trashModeOf(query) === 'without';
  if (db.dialect !== 'mysql' || !live || !query.filters.created_between || sortKey === 'created_at') return {};
  const index = query.filters.is_active ? 'users_deleted_active_created' : 'users_deleted_created';
  const rangeRows = await estimatedRows(db, where, index);
  const density = Math.max(matches.exact ? matches.total : rangeRows, 1) / Math.max(stats.total, 1);
  const walked = (need.offset + need.limit) / density;
  const read = rangeRows * (SORT_COST[sortKey] ?? SORT_COST_UNCOVERED) < walked;
  // The walk, forced too: left to itself, the optimizer may still read the range and sort.
  return read ? { indexHints: [{ type: IndexHints.FORCE, values: [index] }] } : orderedReadHints(db, query);
}

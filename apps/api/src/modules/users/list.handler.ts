import { LIST_COUNT_BOUND, type UserListRow, type UsersListQuery, type UsersStats } from '@app/contracts';
import { plainFilters } from '../../query/list-query-engine.js';
import { canSeeTrash } from '../../policies/users.policy.js';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../trpc/context.js';
import { actionsFor } from './users.actions.js';
import { availableRoles, pageIds, pageIdsWithTotal, readStats, rowsByIds } from './users.read-repository.js';
import { estimateUsersSearch, indexedSearchCondition, pageWithTotal, searchCondition } from './users.search.js';
import {
  assertTrashAllowed,
  effectivePerPage,
  type ListTotal,
  listTotal,
  rangeReadHints,
  usersOrder,
  usersWhere,
} from './users.list-query.js';

export interface UsersListResult {
  rows: UserListRow[];
  meta: { page: number; perPage: number; total: number; totalExact: boolean; pageCount: number };
  stats: UsersStats;
  availableRoles: Array<{ id: number; name: string }>;
  filters: Record<string, unknown>;
}

/**
 * GET /users: one page (each row with what the caller may do to it), its meta, the summary
 * counters, the role options and the filters as understood.
 */
export async function listUsers({
  ctx,
  input,
}: {
  ctx: Context & { actor: Actor };
  input: UsersListQuery;
}): Promise<UsersListResult> {
  assertTrashAllowed(ctx.actor, input);
  const { db } = ctx;
  const perPage = effectivePerPage(input, ctx.config.users);
  const stats = await readStats(db);
  const offset = (input.page - 1) * perPage;
  const search = await estimateUsersSearch(db, input, stats);
  const countWhere = usersWhere(db, input, searchCondition(db, search, { kind: 'count', limit: LIST_COUNT_BOUND + 1 }));
  const order = usersOrder(input);
  let ids: number[];
  let counted: ListTotal;
  if (pageWithTotal(db, search, offset, perPage)) {
    // Few candidates, or a deep page: check every candidate once, for the page and the total.
    const where = usersWhere(db, input, indexedSearchCondition(db, search));
    const read = await pageIdsWithTotal(db, where, order, perPage, offset);
    ids = read.ids;
    counted = read.total !== null ? { total: read.total, exact: true } : await listTotal(db, input, countWhere, stats);
  } else if (search.estimate) {
    // Many candidates: the count comes first, and how many rows match decides whether the page
    // walks the sort's index (matches are dense) or sorts the index's candidates.
    counted = await listTotal(db, input, countWhere, stats);
    const need = { kind: 'page', offset, limit: perPage, matches: counted.total } as const;
    ids = await pageIds(db, usersWhere(db, input, searchCondition(db, search, need)), order, perPage, offset);
  } else if (input.filters.created_between && offset > 0) {
    // Past the first page, how many users the date range holds decides how the page is read.
    counted = await listTotal(db, input, countWhere, stats);
    const where = usersWhere(db, input);
    const hints = await rangeReadHints(db, input, where, counted, stats, { offset, limit: perPage });
    ids = await pageIds(db, where, order, perPage, offset, hints);
  } else {
    [ids, counted] = await Promise.all([
      pageIds(db, usersWhere(db, input), order, perPage, offset),
      listTotal(db, input, countWhere, stats),
    ]);
  }
  // A page past the bound proves at least its own rows: a lower bound never says less.
  const total = counted.exact ? counted.total : Math.max(counted.total, offset + ids.length);
  const { trashed, ...visible } = stats;
  const [rows, roles] = await Promise.all([rowsByIds(db, ids), availableRoles(db)]);
  const actions = await actionsFor(
    ctx,
    rows.map((r) => ({ id: r.id, name: r.name, is_active: r.is_active, deleted: r.deleted_at !== null })),
  );
  return {
    rows: rows.map((r) => ({ ...r, actions: actions.get(r.id) as UserListRow['actions'] })),
    meta: { page: input.page, perPage, total, totalExact: counted.exact, pageCount: Math.ceil(total / perPage) },
    stats: canSeeTrash(ctx.actor) ? stats : visible,
    availableRoles: roles,
    filters: plainFilters(input.filters),
  };
}

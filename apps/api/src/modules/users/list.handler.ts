import { LIST_COUNT_BOUND, type UserListRow, type UsersListQuery, type UsersStats } from '@app/contracts';
import { plainFilters } from '../../query/list-query-engine.js';
import { canSeeTrash } from '../../policies/users.policy.js';
import type { Actor, Context } from '../../trpc/context.js';
import { actionsFor } from './users.actions.js';
import { availableRoles, pageIds, readStats, rowsByIds } from './users.read-repository.js';
import { estimateUsersSearch, searchCondition } from './users.search.js';
import { assertTrashAllowed, effectivePerPage, listTotal, usersOrder, usersWhere } from './users.list-query.js';

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
  const pageWhere = usersWhere(db, input, searchCondition(db, search, { kind: 'page', offset, limit: perPage }));
  const countWhere = usersWhere(db, input, searchCondition(db, search, { kind: 'count', limit: LIST_COUNT_BOUND + 1 }));
  const [ids, counted, roles] = await Promise.all([
    pageIds(db, pageWhere, usersOrder(input), perPage, offset),
    listTotal(db, input, countWhere, stats),
    availableRoles(db),
  ]);
  // A page past the bound proves at least its own rows: a lower bound never says less.
  const total = counted.exact ? counted.total : Math.max(counted.total, offset + ids.length);
  const { trashed, ...visible } = stats;
  const rows = await rowsByIds(db, ids);
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

import { LIST_COUNT_BOUND, type UserListRow, type UsersListQuery, type UsersListResult } from '@app/contracts';
import { type ListTotal, listPage, pageOffset } from '../../query/list-page.js';
import { plainFilters } from '../../query/list-query-engine.js';
import { canSeeTrash } from '../../domain/users.policy.js';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { actionsFrom } from '../../domain/users.actions.js';
import { readActionFacts } from '../../repositories/users.action-facts.js';
import { availableRoles, pageIds, pageIdsWithTotal, readStats, rowsByIds } from './users.read-repository.js';
import { visibleDefinitionsOf, valuesOf } from '../attributes/attribute-values.repository.js';
import { toAttributeField } from '../attributes/attributes.repository.js';
import { idsSortedByAttribute } from './users.attribute-sort.js';
import { roleKeysPage, roleKeysQuery } from './users.role-keys.js';
import { type ScopedUsersQuery, trashModeOf, usesAttributes, withAttributeScope } from './users.attributes-query.js';
import { bestEstimate, indexedSearchCondition, pageWithTotal, searchCondition, searchTerms } from './users.search.js';
import {
  assertTrashAllowed,
  effectivePerPage,
  listTotal,
  rangeReadHints,
  usersOrder,
  usersWhere,
} from './users.list-query.js';

/**
 * GET /users: one page (each row with what the caller may do to it and its attribute values),
 * its meta, the summary counters, the role options, the filters as understood and the
 * attributes the caller may see.
 */
export async function listUsers({
  ctx,
  input: asked,
}: HandlerCall<UsersListQuery, Context & { actor: Actor }>): Promise<UsersListResult> {
  assertTrashAllowed(ctx.actor, asked);
  const { db } = ctx;
  // A query naming no attribute needs the definitions only for its rows: read beside the counters.
  const scoped = usesAttributes(asked) ? await withAttributeScope(db, ctx.actor, asked) : null;
  const input: ScopedUsersQuery = scoped?.query ?? asked;
  const scope = scoped?.query.attributeScope ?? null;
  const sortedBy = scope?.sort ?? null;
  const at = { page: input.page, perPage: effectivePerPage(input, ctx.config.users) };
  const { perPage } = at;
  const offset = pageOffset(at);
  const order = usersOrder(input);
  // The counters, the search index's estimates, the attributes the caller may see and, for a
  // page no search, date range or attribute sort shapes (the last branch below), its ids are
  // independent reads: side by side. One role with at most the status and a date range: the
  // role's list keys answer page and count, beside the counters too.
  const byRole = roleKeysQuery(input);
  const plain =
    !byRole && !sortedBy && searchTerms(input).length === 0 && !(input.filters.created_between && offset > 0);
  const [stats, estimate, plainIds, definitions, keyed] = await Promise.all([
    readStats(db),
    byRole ? null : bestEstimate(db, input),
    plain ? pageIds(db, usersWhere(db, input), order, perPage, offset) : null,
    scoped?.visible ?? visibleDefinitionsOf(db, ctx.actor),
    byRole ? roleKeysPage(db, byRole, { limit: perPage, offset }) : null,
  ]);
  const search = { estimate, rows: stats.total + stats.trashed };
  const countWhere = () =>
    usersWhere(db, input, searchCondition(db, search, { kind: 'count', limit: LIST_COUNT_BOUND + 1 }));
  const total = () => listTotal(db, input, countWhere(), stats);
  let ids: number[];
  let counted: ListTotal;
  if (keyed) {
    ({ ids, counted } = keyed);
  } else if (scope && sortedBy) {
    const where = usersWhere(db, input, searchCondition(db, search, { kind: 'page', offset, limit: perPage }));
    [ids, counted] = await Promise.all([
      idsSortedByAttribute(db, { ...scope, sort: sortedBy }, where, order, input.dir, {
        limit: perPage,
        offset,
        trash: trashModeOf(input),
      }),
      total(),
    ]);
  } else if (pageWithTotal(db, search, offset, perPage)) {
    // Few candidates, or a deep page: check every candidate once, for the page and the total.
    const where = usersWhere(db, input, indexedSearchCondition(db, search));
    const read = await pageIdsWithTotal(db, where, order, perPage, offset);
    ids = read.ids;
    counted = read.total !== null ? { total: read.total, exact: true } : await total();
  } else if (search.estimate) {
    // Many candidates: the count comes first, and how many rows match decides whether the page
    // walks the sort's index (matches are dense) or sorts the index's candidates.
    counted = await total();
    const need = { kind: 'page', offset, limit: perPage, matches: counted.total } as const;
    ids = await pageIds(db, usersWhere(db, input, searchCondition(db, search, need)), order, perPage, offset);
  } else if (input.filters.created_between && offset > 0) {
    // Past the first page, how many users the date range holds decides how the page is read.
    counted = await total();
    const where = usersWhere(db, input);
    const hints = await rangeReadHints(db, input, where, counted, stats, { offset, limit: perPage });
    ids = await pageIds(db, where, order, perPage, offset, hints);
  } else {
    [ids, counted] = await Promise.all([
      plainIds ?? pageIds(db, usersWhere(db, input), order, perPage, offset),
      total(),
    ]);
  }
  const { trashed, ...visible } = stats;
  // What the rows' actions depend on is read beside the rows: it needs only their ids.
  const [rows, roles, facts, values] = await Promise.all([
    rowsByIds(db, ids),
    availableRoles(db),
    readActionFacts(ctx, ids),
    valuesOf(db, ids, definitions),
  ]);
  const actions = actionsFrom(
    ctx,
    rows.map((r) => ({ id: r.id, name: r.name, is_active: r.is_active, deleted: r.deleted_at !== null })),
    facts,
  );
  const withActions = rows.map((r) => ({
    ...r,
    actions: actions.get(r.id) as UserListRow['actions'],
    attributes: values.get(r.id) ?? {},
  }));
  return {
    ...listPage(at, counted, ids, withActions),
    stats: canSeeTrash(ctx.actor) ? stats : visible,
    availableRoles: roles,
    filters: plainFilters(input.filters),
    attributes: definitions.map(toAttributeField),
  };
}

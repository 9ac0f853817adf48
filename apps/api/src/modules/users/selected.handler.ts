import type { UsersSelectedInput } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { pageIds, readStats } from './users.read-repository.js';
import { estimateUsersSearch, searchCondition } from './users.search.js';
import { assertTrashAllowed, countUsers, usersOrder, usersWhere } from './users.list-query.js';
import { type ScopedUsersQuery, trashModeOf, usesAttributes, withAttributeScope } from './users.attributes-query.js';
import { idsSortedByAttribute } from './users.attribute-sort.js';

/** GET /users/selected: every id matching the query ("select all N matching"), in list order, up to `limit`. */
export async function selectedUsers({
  ctx,
  input: asked,
}: HandlerCall<UsersSelectedInput, Context & { actor: Actor }>) {
  assertTrashAllowed(ctx.actor, asked);
  const { db } = ctx;
  // Attribute filters and sort are judged against what the caller may see, as the list's are.
  const input: UsersSelectedInput & ScopedUsersQuery = usesAttributes(asked)
    ? (await withAttributeScope(db, ctx.actor, asked)).query
    : asked;
  const stats = await readStats(db);
  const search = await estimateUsersSearch(db, input, stats);
  const idsWhere = usersWhere(
    db,
    input,
    searchCondition(db, search, { kind: 'page', offset: 0, limit: input.limit + 1 }),
  );
  const countWhere = usersWhere(db, input, searchCondition(db, search, { kind: 'all' }));
  const scope = input.attributeScope;
  const page = { limit: input.limit + 1, offset: 0, trash: trashModeOf(input) };
  const [ids, total] = await Promise.all([
    scope?.sort
      ? idsSortedByAttribute(db, { ...scope, sort: scope.sort }, idsWhere, usersOrder(input), input.dir, page)
      : pageIds(db, idsWhere, usersOrder(input), page.limit),
    countUsers(db, input, countWhere, stats),
  ]);
  const truncated = ids.length > input.limit;
  return { ids: truncated ? ids.slice(0, input.limit) : ids, total, truncated };
}

import type { UsersSelectedInput } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Context, HandlerCall } from '../../context.js';
import { pageIds, readStats } from './users.read-repository.js';
import { estimateUsersSearch, searchCondition } from './users.search.js';
import { assertTrashAllowed, countUsers, usersOrder, usersWhere } from './users.list-query.js';

/** GET /users/selected: every id matching the query ("select all N matching"), in list order, up to `limit`. */
export async function selectedUsers({ ctx, input }: HandlerCall<UsersSelectedInput, Context & { actor: Actor }>) {
  assertTrashAllowed(ctx.actor, input);
  const { db } = ctx;
  const stats = await readStats(db);
  const search = await estimateUsersSearch(db, input, stats);
  const idsWhere = usersWhere(
    db,
    input,
    searchCondition(db, search, { kind: 'page', offset: 0, limit: input.limit + 1 }),
  );
  const countWhere = usersWhere(db, input, searchCondition(db, search, { kind: 'all' }));
  const [ids, total] = await Promise.all([
    pageIds(db, idsWhere, usersOrder(input), input.limit + 1),
    countUsers(db, input, countWhere, stats),
  ]);
  const truncated = ids.length > input.limit;
  return { ids: truncated ? ids.slice(0, input.limit) : ids, total, truncated };
}

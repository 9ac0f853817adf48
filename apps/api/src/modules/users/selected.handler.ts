import type { UsersSelectedInput } from '@app/contracts';
import type { Actor, Context } from '../../trpc/context.js';
import { pageIds } from './users.read-repository.js';
import { assertTrashAllowed, countUsers, usersOrder, usersWhere } from './users.list-query.js';

/** GET /users/selected: every id matching the query ("select all N matching"), in list order, up to `limit`. */
export async function selectedUsers({ ctx, input }: { ctx: Context & { actor: Actor }; input: UsersSelectedInput }) {
  assertTrashAllowed(ctx.actor, input);
  const where = usersWhere(ctx.db, input);
  const [ids, total] = await Promise.all([
    pageIds(ctx.db, where, usersOrder(input), input.limit + 1),
    countUsers(ctx.db, input, where),
  ]);
  const truncated = ids.length > input.limit;
  return { ids: truncated ? ids.slice(0, input.limit) : ids, total, truncated };
}

import type { ApiTokenList, IdInput } from '@app/contracts';
import { accountWithinCeiling } from '../../repositories/users.ceiling.js';
import type { HandlerContext, HandlerCall } from '../../context.js';
import { tokensOf } from './tokens.repository.js';

/** GET /users/{id}/tokens: another user's tokens, within the privilege ceiling. */
export async function listTokensFor({
  ctx,
  input,
}: HandlerCall<IdInput, Pick<HandlerContext, 'db' | 'actor'>>): Promise<ApiTokenList> {
  const owner = await accountWithinCeiling(ctx, null, input.id);
  return { items: await tokensOf(ctx.db, owner.id) };
}

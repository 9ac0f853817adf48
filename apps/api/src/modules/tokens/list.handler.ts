import type { ApiTokenList } from '@app/contracts';
import type { HandlerContext } from '../../context.js';
import { tokensOf } from './tokens.repository.js';

/** GET /tokens: the caller's own tokens, newest first. */
export async function listOwnTokens({ ctx }: { ctx: Pick<HandlerContext, 'db' | 'actor'> }): Promise<ApiTokenList> {
  return { items: await tokensOf(ctx.db, ctx.actor.id) };
}

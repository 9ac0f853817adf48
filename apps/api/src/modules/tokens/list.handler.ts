import type { ApiTokenList } from '@app/contracts';
import type { WriteContext } from '../users/users.write-support.js';
import { tokensOf } from './tokens.repository.js';

/** GET /tokens: the caller's own tokens, newest first. */
export async function listOwnTokens({ ctx }: { ctx: Pick<WriteContext, 'db' | 'actor'> }): Promise<ApiTokenList> {
  return { items: await tokensOf(ctx.db, ctx.actor.id) };
}

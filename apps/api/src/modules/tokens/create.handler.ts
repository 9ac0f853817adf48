import type { ApiTokenCreated, TokenCreateInput } from '@app/contracts';
import type { HandlerCall } from '../../context.js';
import { mintToken } from './tokens.mint.js';

/** POST /tokens: a token for the caller, its secret shown this once. */
export function createOwnToken({ ctx, input }: HandlerCall<TokenCreateInput>): Promise<ApiTokenCreated> {
  return mintToken(ctx, ctx.actor.id, input);
}

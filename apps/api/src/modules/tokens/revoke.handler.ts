import type { TokenIdInput } from '@app/contracts';
import type { HandlerCall } from '../../context.js';
import { revokeToken } from './tokens.revoke.js';

/** DELETE /tokens/{tokenId}: one of the caller's own tokens, the one in use included. */
export function revokeOwnToken({ ctx, input }: HandlerCall<TokenIdInput>): Promise<void> {
  return revokeToken(ctx, ctx.actor.id, input.tokenId);
}

import type { IdInput, TokenIdInput } from '@app/contracts';
import type { HandlerCall } from '../../context.js';
import { revokeToken } from './tokens.revoke.js';

/** DELETE /users/{id}/tokens/{tokenId}: another user's token, within the privilege ceiling. */
export function revokeTokenFor({ ctx, input }: HandlerCall<IdInput & TokenIdInput>): Promise<void> {
  return revokeToken(ctx, input.id, input.tokenId);
}

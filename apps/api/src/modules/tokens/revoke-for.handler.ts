import type { IdInput, TokenIdInput } from '@app/contracts';
import type { WriteContext } from '../users/users.write-support.js';
import { revokeToken } from './tokens.revoke.js';

/** DELETE /users/{id}/tokens/{tokenId}: another user's token, within the privilege ceiling. */
export function revokeTokenFor({ ctx, input }: { ctx: WriteContext; input: IdInput & TokenIdInput }): Promise<void> {
  return revokeToken(ctx, input.id, input.tokenId);
}

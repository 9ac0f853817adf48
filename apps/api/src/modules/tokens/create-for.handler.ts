import type { ApiTokenCreated, IdInput, TokenCreateInput } from '@app/contracts';
import type { HandlerCall } from '../../context.js';
import { mintToken } from './tokens.mint.js';

/** POST /users/{id}/tokens: a token for another user, within the privilege ceiling; its secret shown this once. */
export function createTokenFor({ ctx, input }: HandlerCall<IdInput & TokenCreateInput>): Promise<ApiTokenCreated> {
  const { id, ...token } = input;
  return mintToken(ctx, id, token);
}

import type { ApiTokenList, IdInput } from '@app/contracts';
import { accountWithinCeiling } from '../../repositories/users.ceiling.js';
import type { WriteContext } from '../users/users.write-support.js';
import { tokensOf } from './tokens.repository.js';

/** GET /users/{id}/tokens: another user's tokens, within the privilege ceiling. */
export async function listTokensFor({
  ctx,
  input,
}: {
  ctx: Pick<WriteContext, 'db' | 'actor'>;
  input: IdInput;
}): Promise<ApiTokenList> {
  const owner = await accountWithinCeiling(ctx, null, input.id);
  return { items: await tokensOf(ctx.db, owner.id) };
}

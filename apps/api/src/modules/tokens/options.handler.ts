import type { IdInput, TokenOptions } from '@app/contracts';
import { permissionNames } from '../../auth/actor.js';
import { accountWithinCeiling } from '../../repositories/users.ceiling.js';
import { scopeOptions } from '../../domain/token-scopes.js';
import type { HandlerContext, HandlerCall } from '../../context.js';

type ReadContext = Pick<HandlerContext, 'db' | 'actor'>;

/**
 * The scopes a new token of `ownerId` may be narrowed to when this caller makes it: what both
 * hold now (`scopeOptions`, the rule `decideScopes` applies on create).
 */
async function optionsFor(ctx: ReadContext, ownerId: number): Promise<TokenOptions> {
  // One's own: what the caller may do in this request (a narrowed token's subset) is what both hold.
  if (ownerId === ctx.actor.id) return { scopes: scopeOptions(ctx.actor, ctx.actor) };
  const owner = await accountWithinCeiling(ctx, null, ownerId);
  return { scopes: scopeOptions({ permissions: await permissionNames(ctx.db, owner.id) }, ctx.actor) };
}

/** GET /tokens/options: the scopes a token of your own may have. */
export function ownTokenOptions({ ctx }: { ctx: ReadContext }): Promise<TokenOptions> {
  return optionsFor(ctx, ctx.actor.id);
}

/** GET /users/{id}/tokens/options: the scopes a token you make for this user may have (within the ceiling). */
export function tokenOptionsFor({ ctx, input }: HandlerCall<IdInput, ReadContext>): Promise<TokenOptions> {
  return optionsFor(ctx, input.id);
}

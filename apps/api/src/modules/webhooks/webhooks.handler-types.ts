import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';

/** What every webhooks handler is called with: a signed-in caller holding `webhooks.manage`. */
export interface WebhooksCall<Input> {
  ctx: Context & { actor: Actor };
  input: Input;
}

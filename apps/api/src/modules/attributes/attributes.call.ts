import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';

/** What every attribute handler is called with: a signed-in caller holding `attributes.manage`. */
export interface ManageCall<Input> {
  ctx: Context & { actor: Actor };
  input: Input;
}

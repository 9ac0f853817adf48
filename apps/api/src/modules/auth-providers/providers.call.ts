import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';

/** What every provider handler is called with: a signed-in caller holding `auth.manage`. */
export interface ManageCall<Input> {
  ctx: Context & { actor: Actor };
  input: Input;
}

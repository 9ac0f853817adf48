import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';

/** What a jobs handler is called with, from any door: the signed-in caller's context and the input. */
export type JobsCall<I> = { ctx: Context & { actor: Actor }; input: I };

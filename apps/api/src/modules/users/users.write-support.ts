import { auditOriginOf } from '../../journal/journal.js';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';

/**
 * What a write handler needs from its caller: the API's request context, or the command line's
 * (`operatorContext`), which acts with every permission and is recorded as `source: 'cli'`.
 */
export type WriteContext = Pick<Context, 'db' | 'config' | 'ip' | 'requestId' | 'auth'> & {
  actor: Actor;
  source?: 'cli';
};

/** Who did it, from where: the audit context of a request. */
export const auditOrigin = (ctx: WriteContext) => auditOriginOf(ctx);

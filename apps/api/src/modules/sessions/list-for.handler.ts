import type { IdInput, SessionList } from '@app/contracts';
import { sessionLimits, usableSessions } from '../../auth/sessions.js';
import { accountWithinCeiling } from '../../repositories/users.ceiling.js';
import type { SessionsContext } from './sessions.end.js';
import { currentSessionId, toSessionInfo } from './sessions.mapping.js';
import type { HandlerCall } from '../../context.js';

/** GET /users/{id}/sessions: a user's sessions still in use, within the privilege ceiling. */
export async function listSessionsFor({
  ctx,
  input,
}: HandlerCall<IdInput, Pick<SessionsContext, 'db' | 'config' | 'auth' | 'actor'>>): Promise<SessionList> {
  const owner = await accountWithinCeiling(ctx, null, input.id);
  const rows = await usableSessions(ctx.db, owner.id, sessionLimits(ctx.config));
  const current = currentSessionId(ctx.auth);
  return { items: rows.map((row) => toSessionInfo(row, current)) };
}

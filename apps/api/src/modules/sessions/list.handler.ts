import type { SessionList } from '@app/contracts';
import { sessionLimits, usableSessions } from '../../auth/sessions.js';
import type { SessionsContext } from './sessions.end.js';
import { currentSessionId, toSessionInfo } from './sessions.mapping.js';

/** GET /auth/sessions: the caller's sessions still in use, most recently seen first, the current one marked. */
export async function listOwnSessions({
  ctx,
}: {
  ctx: Pick<SessionsContext, 'db' | 'config' | 'auth' | 'actor'>;
}): Promise<SessionList> {
  const rows = await usableSessions(ctx.db, ctx.actor.id, sessionLimits(ctx.config));
  const current = currentSessionId(ctx.auth);
  return { items: rows.map((row) => toSessionInfo(row, current)) };
}

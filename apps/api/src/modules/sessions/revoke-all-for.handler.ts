import type { IdInput, SessionsRevoked } from '@app/contracts';
import { endSessions, type SessionsContext } from './sessions.end.js';
import type { HandlerCall } from '../../context.js';

/**
 * DELETE /users/{id}/sessions: ends every session of a user, within the privilege ceiling. Aimed
 * at oneself it ends the caller's own session too (a sign-out); "all others" is DELETE /auth/sessions.
 */
export async function revokeAllSessionsFor({
  ctx,
  input,
}: HandlerCall<IdInput, SessionsContext>): Promise<SessionsRevoked> {
  return { revoked: await endSessions(ctx, input.id, { keepCurrent: false }) };
}

import type { SessionsRevoked } from '@app/contracts';
import { endSessions, type SessionsContext } from './sessions.end.js';

/** DELETE /auth/sessions: ends every session of the caller but the one this request came with. */
export async function revokeOtherSessions({ ctx }: { ctx: SessionsContext }): Promise<SessionsRevoked> {
  return { revoked: await endSessions(ctx, ctx.actor.id, { keepCurrent: true }) };
}

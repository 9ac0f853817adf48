import type { SessionIdInput } from '@app/contracts';
import { endSessions, type SessionsContext } from './sessions.end.js';
import type { HandlerCall } from '../../context.js';

/** DELETE /auth/sessions/{sessionId}: ends one of the caller's sessions; the current one is a sign-out. */
export async function revokeOwnSession({ ctx, input }: HandlerCall<SessionIdInput, SessionsContext>): Promise<void> {
  await endSessions(ctx, ctx.actor.id, { handle: input.sessionId });
}

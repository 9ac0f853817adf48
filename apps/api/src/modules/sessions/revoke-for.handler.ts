import type { IdInput, SessionIdInput } from '@app/contracts';
import { endSessions, type SessionsContext } from './sessions.end.js';
import type { HandlerCall } from '../../context.js';

/** DELETE /users/{id}/sessions/{sessionId}: ends one of a user's sessions, within the privilege ceiling. */
export async function revokeSessionFor({
  ctx,
  input,
}: HandlerCall<IdInput & SessionIdInput, SessionsContext>): Promise<void> {
  await endSessions(ctx, input.id, { handle: input.sessionId });
}

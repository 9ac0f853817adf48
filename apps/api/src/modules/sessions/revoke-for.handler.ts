import type { IdInput, SessionIdInput } from '@app/contracts';
import { endSessions, type SessionsContext } from './sessions.end.js';

/** DELETE /users/{id}/sessions/{sessionId}: ends one of a user's sessions, within the privilege ceiling. */
export async function revokeSessionFor({
  ctx,
  input,
}: {
  ctx: SessionsContext;
  input: IdInput & SessionIdInput;
}): Promise<void> {
  await endSessions(ctx, input.id, { handle: input.sessionId });
}

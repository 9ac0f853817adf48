import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { deleteSession, SESSION_COOKIE } from '../../auth/sessions.js';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../context.js';

/** Ends the current session server side and clears the cookie. A bearer token is not a session: it stays valid. */
export async function logout({ ctx }: { ctx: Context & { actor: Actor } }): Promise<void> {
  if (ctx.auth?.via === 'session') await deleteSession(ctx.db, ctx.auth.sessionId);
  ctx.cookies.clear(SESSION_COOKIE);
  await recordChange(ctx.db, null, {
    ...auditOriginOf(ctx),
    action: 'auth.logout',
    targetType: 'user',
    targetIds: [ctx.actor.id],
  });
}

import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { SESSION_COOKIE, sessionHandle, sessionLimits, usableSessions } from '../../auth/sessions.js';
import { writeTransaction } from '../../db/transaction.js';
import { notFound } from '../../errors.js';
import type { Context } from '../../context.js';
import { accountWithinCeiling } from '../../repositories/users.ceiling.js';
import type { HandlerContext } from '../../context.js';
import { currentSessionId } from './sessions.mapping.js';

/** What a session route may need: a write handler's context and the cookie jar (ending one's own session signs out). */
export type SessionsContext = HandlerContext & Pick<Context, 'cookies'>;

/** Which of a user's sessions to end: the one with this public handle, or all (but the caller's own, when asked). */
export type SessionChoice = { handle: string } | { keepCurrent: boolean };

/**
 * Ends sessions of `ownerId` (the caller, or another user within the caller's reach): their rows
 * are deleted with a `session.revoke` audit row in one transaction, so the very next request
 * with any of their cookies is refused. Only sessions still usable count (a lapsed one is
 * already over; housekeeping removes it). When the caller's own session is among them, this is
 * a sign-out: the cookie is cleared too. Returns how many ended.
 */
export async function endSessions(ctx: SessionsContext, ownerId: number, choice: SessionChoice): Promise<number> {
  const { db } = ctx;
  const current = currentSessionId(ctx.auth);
  const ended = await writeTransaction(db, async (tx) => {
    const owner = await accountWithinCeiling(ctx, tx, ownerId);
    const usable = await usableSessions(db, owner.id, sessionLimits(ctx.config), tx);
    const chosen =
      'handle' in choice
        ? usable.filter((s) => sessionHandle(s.id) === choice.handle)
        : usable.filter((s) => !(choice.keepCurrent && s.id === current));
    if ('handle' in choice && chosen.length === 0) throw notFound('The session');
    const ids = chosen.map((s) => s.id);
    if (ids.length === 0) return { count: 0, current: false };
    const count = await db.models.Session.destroy({ where: { id: ids, user_id: owner.id }, transaction: tx });
    if (count > 0) {
      await recordChange(db, tx, {
        ...auditOriginOf(ctx),
        action: 'session.revoke',
        targetType: 'user',
        targetIds: [owner.id],
        context: { count },
      });
    }
    return { count, current: current !== null && ids.includes(current) };
  });
  if (ended.current) ctx.cookies.clear(SESSION_COOKIE);
  return ended.count;
}

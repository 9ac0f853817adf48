import type { Context } from '../../context.js';
import { passwordResetCounters } from '../../auth/password-reset-metrics.js';
import { auditedLoginEmail, findLoginAccount } from '../../auth/login-identity.js';
import { writeTransaction } from '../../db/transaction.js';
import { canResetPassword } from '../../domain/users.password-reset.js';
import { recordChange } from '../../journal/journal.js';
import { mailSettings } from '../../mail/settings.js';
import { lockUsers } from '../../repositories/users.locks.js';
import { toTarget } from '../../repositories/users.targets.js';
import { issueResetLink } from './password-reset.issue.js';

type RequestContext = Pick<Context, 'db' | 'config' | 'log' | 'ip' | 'requestId'>;

/** Requests taken in and still being worked on, so that a stopping instance can let them finish. */
const inFlight = new Set<Promise<void>>();

/**
 * The account-dependent part of "forgot password", run after the answer has gone: whether an
 * account has the e-mail, is active, gets a link and a mail. The answer never waits for it, so
 * its time cannot tell an existing account from an unknown, inactive or deleted one. Each request
 * leaves one `auth.passwordResetRequest` row (the e-mail as login's failures record it; never the
 * link), in the transaction of the link and the mail when there is one.
 */
async function requestReset(ctx: RequestContext, email: string): Promise<void> {
  const { db, config } = ctx;
  const origin = { actorId: null, ip: ctx.ip, requestId: ctx.requestId, via: { kind: 'session' as const } };
  const context = auditedLoginEmail(email);
  const found = await findLoginAccount(db, email);
  // Without mail nothing would carry a link, and issuing one would void a link an administrator
  // passed on: the request is only recorded.
  if (found && mailSettings(config).enabled) {
    const mailed = await writeTransaction(db, async (tx) => {
      const user = (await lockUsers(db, tx, [found.id])).get(found.id);
      if (!user || !canResetPassword(toTarget(user))) return false;
      await issueResetLink(db, config, tx, user, null);
      await recordChange(db, tx, {
        ...origin,
        action: 'auth.passwordResetRequest',
        targetType: 'user',
        targetIds: [user.id],
        context: { ...context, mailed: true },
      });
      return true;
    });
    if (mailed) {
      passwordResetCounters.requests.inc({ outcome: 'mailed' });
      return;
    }
  }
  await recordChange(db, null, {
    ...origin,
    action: 'auth.passwordResetRequest',
    targetType: found ? 'user' : undefined,
    targetIds: found ? [found.id] : [],
    context: { ...context, mailed: false },
  });
  passwordResetCounters.requests.inc({ outcome: 'not_mailed' });
}

/**
 * Starts `requestReset` without waiting for it. A failure is logged by its name and message only:
 * a driver's error can carry the statement and its values, and the mail's values hold the link.
 */
export function startResetRequest(ctx: RequestContext, email: string): void {
  const work = requestReset(ctx, email)
    .catch((err: unknown) => {
      const error = err instanceof Error ? { name: err.name, message: err.message } : { message: String(err) };
      ctx.log.error({ error, requestId: ctx.requestId }, 'password reset request failed');
    })
    .finally(() => inFlight.delete(work));
  inFlight.add(work);
}

/** Resolves once every request taken in so far is done: before the database closes, and in tests. */
export async function resetRequestsSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

import type { LoginAnswer, LoginInput } from '@app/contracts';
import { recordChange } from '../../journal/journal.js';
import { loadActor } from '../../auth/actor.js';
import { auditedLoginEmail, findLoginAccount, loginAttemptsBucket } from '../../auth/login-identity.js';
import { hashPassword, needsRehash, verifyPassword } from '../../auth/password.js';
import { clientBucketKey, hit, reset, tooManyAttempts } from '../../auth/rate-limit.js';
import { createSession, deleteSession, type SecondFactor, SESSION_COOKIE, sessionLimits } from '../../auth/sessions.js';
import { AppError } from '../../errors.js';
import type { Context, HandlerCall } from '../../context.js';
import type { Database } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';
import { toAuthSession } from './auth.session.js';
import { openChallenge } from '../../auth/two-factor-challenges.js';

/** A user agent is kept to this length, as the session keeps it. */
const USER_AGENT_MAX = 255;

/** One message for every failure, so a response never tells which part was wrong. */
const BAD_CREDENTIALS = 'The e-mail or password is incorrect, or the account is not active.';

/**
 * After a sign-in that matched an imported (or outdated) hash, stores the password under today's
 * scheme. Compare-and-set on the hash that verified: a password changed meanwhile (an admin, the
 * CLI) is never overwritten, and two sign-ins racing both succeed with one write. `silent` keeps
 * updated_at: nothing a person sees changed, and an import's undo must not take this for an edit.
 * Neither hash nor the password is logged or audited.
 */
async function upgradeHash(db: Database, userId: number, verified: string, password: string): Promise<void> {
  const fresh = await hashPassword(password);
  // A transaction of its own, retried on a deadlock: beside a second sign-in of the same account,
  // whose session row's foreign key share-locks the user before its stamp updates it, a lone
  // UPDATE can be the deadlock's victim (a 500 for a right password, seen under load).
  await writeTransaction(db, (tx) =>
    db.models.User.update(
      { password_hash: fresh },
      { where: { id: userId, password_hash: verified }, silent: true, transaction: tx },
    ),
  );
}

/**
 * Signs in with e-mail and password. Every attempt counts against the client's network (IPv6 by
 * /64) and against the canonical e-mail (`login-identity.ts`), both before the password is
 * checked and each in one atomic statement, so parallel guesses each take a slot of the limit;
 * success clears the e-mail's count. Unknown e-mail, wrong password, inactive and deleted
 * accounts all cost one full password hash and get the same 401. For an account with a second
 * factor, the right password opens no session: it answers `{two_factor_required: true}` and a
 * challenge bound to this client (`POST /auth/two-factor` finishes it, without hashing again).
 */
export async function login({ ctx, input }: HandlerCall<LoginInput, Context>): Promise<LoginAnswer> {
  const { db, config } = ctx;
  const windowMs = config.LOGIN_WINDOW_MINUTES * 60_000;
  const ipWindow = await hit(db, clientBucketKey('login-ip', ctx.ip), windowMs);
  if (ipWindow.hits > config.LOGIN_MAX_ATTEMPTS_PER_IP) throw tooManyAttempts(ipWindow);

  // Counted before the account is looked up: the counter never depends on whether one exists.
  const bucket = loginAttemptsBucket(input.email);
  const attempts = await hit(db, bucket, windowMs);
  if (attempts.hits > config.LOGIN_MAX_ATTEMPTS_PER_EMAIL) throw tooManyAttempts(attempts);
  const user = await findLoginAccount(db, input.email);

  const userAgent = ctx.userAgent?.slice(0, USER_AGENT_MAX) || null;
  const passwordOk = await verifyPassword(input.password, user?.password_hash);
  const actor = user && passwordOk ? await loadActor(db, { userId: user.id }) : null;
  if (!actor) {
    await recordChange(db, null, {
      actorId: null,
      action: 'auth.loginFailed',
      targetType: user ? 'user' : undefined,
      targetIds: user ? [user.id] : [],
      context: { ...auditedLoginEmail(input.email), user_agent: userAgent },
      ip: ctx.ip,
      requestId: ctx.requestId,
      // A sign-in attempt asks for a session, like the successful one recorded below.
      via: { kind: 'session' },
    });
    throw new AppError('UNAUTHENTICATED', BAD_CREDENTIALS);
  }

  await reset(db, bucket);
  if (user && needsRehash(user.password_hash)) await upgradeHash(db, user.id, user.password_hash, input.password);
  if (actor.twoFactor?.enrolled) {
    await openChallenge(ctx, actor.id);
    return { two_factor_required: true };
  }
  await openSession(ctx, actor.id);
  return toAuthSession(actor);
}

/**
 * Signs `userId` in on this request: a fresh session (a session fixed before is never promoted),
 * its cookie, the account's last sign-in, and `auth.login` in the trail with the device. Password
 * sign-in, an accepted invitation and single sign-on all end here. `secondFactor` says how the
 * sign-in met a second factor (kept on the session: a role requiring one is satisfied by it).
 */
export async function openSession(
  ctx: Context,
  userId: number,
  options: { secondFactor?: SecondFactor } = {},
): Promise<void> {
  const secondFactor = options.secondFactor ?? null;
  const { db, config } = ctx;
  const userAgent = ctx.userAgent?.slice(0, USER_AGENT_MAX) || null;
  if (ctx.auth?.via === 'session') await deleteSession(db, ctx.auth.sessionId);
  const limits = sessionLimits(config);
  const client = { ip: ctx.ip, userAgent: ctx.userAgent };
  const now = new Date();
  // One write turn for the session, the stamp and the audit row: a sign-in beside busy writers
  // waits for the lock once, not three times.
  const { token } = await writeTransaction(db, async (tx) => {
    const session = await createSession(db, userId, limits, client, now, secondFactor, tx);
    await db.models.User.update({ last_sign_in_at: now }, { where: { id: userId }, silent: true, transaction: tx });
    await recordChange(db, tx, {
      actorId: userId,
      action: 'auth.login',
      targetType: 'user',
      targetIds: [userId],
      // The login history shows from which device and browser, beside the IP.
      context: { user_agent: userAgent, ...(secondFactor ? { second_factor: secondFactor } : {}) },
      ip: ctx.ip,
      requestId: ctx.requestId,
      via: { kind: 'session' },
    });
    return session;
  });
  ctx.cookies.set(SESSION_COOKIE, token, { maxAgeSeconds: Math.floor(limits.absoluteMs / 1000) });
}

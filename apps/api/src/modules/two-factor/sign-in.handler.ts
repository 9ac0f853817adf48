import type { AuthSession, SecondFactorInput } from '@app/contracts';
import { loadActor } from '../../auth/actor.js';
import { clearCodeAttempts, spendCodeAttempt, useSecondFactor, wrongSecondFactor } from './second-factor.js';
import { countChallengeAttempt, currentChallenge, endChallenge } from '../../auth/two-factor-challenges.js';
import type { Context, HandlerCall } from '../../context.js';
import { AppError } from '../../errors.js';
import { recordChange } from '../../journal/journal.js';
import { toAuthSession } from '../auth/auth.session.js';
import { openSession } from '../auth/login.handler.js';

const expired = () => new AppError('TWO_FACTOR_CHALLENGE_EXPIRED');

/**
 * POST /auth/two-factor: the second step of a sign-in, from the client that gave the password
 * (its challenge cookie) within five minutes. A code works once; wrong ones count against the
 * client's network, the account and the challenge (five, then the password is asked again), and
 * are recorded as failed sign-ins. The password is not hashed again: this step costs a lookup.
 */
export async function signInWithSecondFactor({
  ctx,
  input,
}: HandlerCall<SecondFactorInput, Context>): Promise<AuthSession> {
  const { db, config } = ctx;
  const challenge = await currentChallenge(ctx);
  if (!challenge) throw expired();
  await spendCodeAttempt(ctx, challenge.userId);
  const met = await useSecondFactor(db, config, null, challenge.userId, input);
  if (!met) {
    await countChallengeAttempt(ctx, challenge);
    await recordChange(db, null, {
      actorId: null,
      action: 'auth.loginFailed',
      targetType: 'user',
      targetIds: [challenge.userId],
      context: {
        second_factor: input.recovery_code !== undefined ? 'recovery' : 'totp',
        user_agent: ctx.userAgent?.slice(0, 255) || null,
      },
      ip: ctx.ip,
      requestId: ctx.requestId,
      via: { kind: 'session' },
    });
    throw wrongSecondFactor(input);
  }
  // Two requests racing with one challenge: only the one that ends it signs in.
  if (!(await endChallenge(ctx, challenge))) throw expired();
  await clearCodeAttempts(db, challenge.userId);
  const actor = await loadActor(db, { userId: challenge.userId });
  if (!actor) throw expired();
  await openSession(ctx, actor.id, { secondFactor: met });
  return toAuthSession(actor);
}

import type { EmptyAnswer, ForgotPasswordInput } from '@app/contracts';
import { passwordResetCounters } from '../../auth/password-reset-metrics.js';
import { bucketKey, clientBucketKey, hit, type RateWindow } from '../../auth/rate-limit.js';
import type { Context, HandlerCall } from '../../context.js';
import { AppError } from '../../errors.js';
import { startResetRequest } from './forgot.request.js';

function tooManyRequests(window: RateWindow): AppError {
  passwordResetCounters.requests.inc({ outcome: 'rate_limited' });
  const minutes = Math.ceil(window.retryAfterSeconds / 60);
  return new AppError(
    'RATE_LIMITED',
    `Too many password reset requests. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    { headers: { 'retry-after': String(window.retryAfterSeconds) } },
  );
}

/**
 * POST /auth/password/forgot (202 `{}`): mails a reset link when a live, active account has the
 * e-mail, and answers the same, at the same speed, when none has. The answer does only the work
 * every request does — the two rate-limit counts, by client network and by canonical e-mail
 * (whether an account has it or not) — and leaves looking the account up, the link and the mail
 * to `startResetRequest`, after the answer. Inactive and deleted accounts get no mail (a blocked
 * account never gets back in by "forgot password").
 */
export async function forgotPassword({ ctx, input }: HandlerCall<ForgotPasswordInput, Context>): Promise<EmptyAnswer> {
  const { db, config } = ctx;
  const windowMs = config.RESET_WINDOW_MINUTES * 60_000;
  const byClient = await hit(db, clientBucketKey('reset-ip', ctx.ip), windowMs);
  if (byClient.hits > config.RESET_MAX_REQUESTS_PER_IP) throw tooManyRequests(byClient);
  const byEmail = await hit(db, bucketKey('reset-email', input.email), windowMs);
  if (byEmail.hits > config.RESET_MAX_REQUESTS_PER_EMAIL) throw tooManyRequests(byEmail);
  startResetRequest(ctx, input.email);
  return {};
}

import type { SecondFactorInput } from '@app/contracts';
import type { Transaction } from 'sequelize';
import type { AppConfig } from '../../config.js';
import type { Context } from '../../context.js';
import type { Database } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { bucketKey, clientBucketKey, hit, reset, tooManyAttempts } from '../../auth/rate-limit.js';
import type { SecondFactor } from '../../auth/sessions.js';
import { matchedStep, recoveryCodeHash } from '../../auth/totp.js';
import { readTwoFactor, takeStep, useRecoveryCode } from '../../auth/two-factor-store.js';
import { openSecret, sealSecret, secretKeys } from '../../webhooks/secret-box.js';

/** The TOTP secret at rest: sealed with SECRETS_KEY as the webhooks' signing secrets are. */
const keysOf = (config: AppConfig) => secretKeys(config.SECRETS_KEY, config.SECRETS_KEY_PREVIOUS);
export const sealTotpSecret = (config: AppConfig, secret: string) => sealSecret(secret, keysOf(config));
export const openTotpSecret = (config: AppConfig, sealed: string) => openSecret(sealed, keysOf(config));

/** The per-account counter of code attempts: signing in, confirming and turning off all spend it. */
const codeAttemptsBucket = (userId: number) => bucketKey('two-factor-user', String(userId));

/**
 * Counts one code attempt against the client's network and the account, before the code is
 * checked (429 past either limit, the sign-in's own limits and window): six digits are a small
 * space, and a stolen password must not buy unlimited guesses.
 */
export async function spendCodeAttempt(ctx: Pick<Context, 'db' | 'config' | 'ip'>, userId: number): Promise<void> {
  const { db, config } = ctx;
  const windowMs = config.LOGIN_WINDOW_MINUTES * 60_000;
  const ipWindow = await hit(db, clientBucketKey('two-factor-ip', ctx.ip), windowMs);
  if (ipWindow.hits > config.LOGIN_MAX_ATTEMPTS_PER_IP) throw tooManyAttempts(ipWindow);
  const userWindow = await hit(db, codeAttemptsBucket(userId), windowMs);
  if (userWindow.hits > config.LOGIN_MAX_ATTEMPTS_PER_EMAIL) throw tooManyAttempts(userWindow);
}

/** A right code clears the account's count, as a right password does. */
export const clearCodeAttempts = (db: Database, userId: number) => reset(db, codeAttemptsBucket(userId));

/**
 * Checks a second factor of an enrolled user and uses it up: a TOTP code of the current step or
 * one either side, whose step is later than the last one accepted (so each code works once), or
 * an unused recovery code. Returns how it was met, or null when it was not.
 */
export async function useSecondFactor(
  db: Database,
  config: AppConfig,
  tx: Transaction | null,
  userId: number,
  input: SecondFactorInput,
  now = new Date(),
): Promise<SecondFactor | null> {
  if (input.recovery_code !== undefined) {
    const used = await useRecoveryCode(db, tx, userId, recoveryCodeHash(input.recovery_code), now);
    return used ? 'recovery' : null;
  }
  if (input.code === undefined) return null;
  const stored = await readTwoFactor(db, tx, userId);
  if (!stored.enrolled || !stored.sealedSecret) return null;
  const step = matchedStep(openTotpSecret(config, stored.sealedSecret), input.code, now);
  if (step === null) return null;
  return (await takeStep(db, tx, userId, step)) ? 'totp' : null;
}

/** The 422 of a code that is wrong, used already or out of its time, on the field it was given in. */
export function wrongSecondFactor(input: SecondFactorInput): AppError {
  const field = input.recovery_code !== undefined ? 'recovery_code' : 'code';
  const message =
    field === 'code'
      ? 'This code is not correct or was used already. Wait for the next code and try again.'
      : 'This recovery code is not correct or was used already.';
  return new AppError('VALIDATION_FAILED', message, { errors: { [field]: [message] } });
}

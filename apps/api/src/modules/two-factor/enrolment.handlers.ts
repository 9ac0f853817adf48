import type {
  RecoveryCodes,
  SecondFactorInput,
  TwoFactorConfirmInput,
  TwoFactorSetup,
  TwoFactorState,
} from '@app/contracts';
import type { Transaction } from 'sequelize';

import { matchedStep, newRecoveryCodes, newTotpSecret, otpauthUrl, recoveryCodeHash } from '../../auth/totp.js';
import { confirmTwoFactor, readTwoFactor, replaceTwoFactor } from '../../auth/two-factor-store.js';
import type { HandlerCall, HandlerContext } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { twoFactorRefusal } from '../../domain/two-factor.js';
import { refusalError } from '../../errors.js';
import { auditOriginOf, recordChange } from '../../journal/journal.js';
import { lockUsers } from '../../repositories/users.locks.js';
import { liveUser } from '../../repositories/users.targets.js';
import { PRODUCT_NAME } from '../../mail/mail-catalogue.js';
import {
  openTotpSecret,
  sealTotpSecret,
  spendCodeAttempt,
  useSecondFactor,
  wrongSecondFactor,
} from './second-factor.js';

/** Locks one's own row and reads where one's second factor stands. */
async function lockOwnTwoFactor(ctx: HandlerContext, tx: Transaction) {
  liveUser(await lockUsers(ctx.db, tx, [ctx.actor.id]), ctx.actor.id);
  const stored = await readTwoFactor(ctx.db, tx, ctx.actor.id);
  return { stored, facts: { hasSecret: stored.sealedSecret !== null, enrolled: stored.enrolled } };
}

/**
 * POST /account/two-factor: a new secret for one's authenticator app, pending until a code from
 * the app confirms it; a set-up started again replaces the pending one. The secret is sealed at
 * rest and appears in this answer only.
 */
export async function startTwoFactor({ ctx }: HandlerCall<unknown>): Promise<TwoFactorSetup> {
  const secret = newTotpSecret();
  await writeTransaction(ctx.db, async (tx) => {
    const { facts } = await lockOwnTwoFactor(ctx, tx);
    const refusal = twoFactorRefusal('setup', facts);
    if (refusal) throw refusalError(refusal);
    await replaceTwoFactor(ctx.db, tx, ctx.actor.id, sealTotpSecret(ctx.config, secret));
  });
  return { secret, otpauth_url: otpauthUrl(secret, ctx.actor.email, PRODUCT_NAME) };
}

/**
 * POST /account/two-factor/confirm: the first code from the app turns two-factor sign-in on (its
 * step counts as used) and hands out ten recovery codes, this once; only their hashes are kept.
 */
export async function confirmTwoFactorEnrolment({
  ctx,
  input,
}: HandlerCall<TwoFactorConfirmInput>): Promise<RecoveryCodes> {
  await spendCodeAttempt(ctx, ctx.actor.id);
  const codes = newRecoveryCodes();
  await writeTransaction(ctx.db, async (tx) => {
    const { stored, facts } = await lockOwnTwoFactor(ctx, tx);
    const refusal = twoFactorRefusal('confirm', facts);
    if (refusal) throw refusalError(refusal);
    const now = new Date();
    const step = matchedStep(openTotpSecret(ctx.config, stored.sealedSecret as string), input.code, now);
    if (step === null) throw wrongSecondFactor(input);
    const hashes = codes.map((code) => recoveryCodeHash(code.replace('-', '')));
    await confirmTwoFactor(ctx.db, tx, ctx.actor.id, step, hashes, now);
    await recordChange(ctx.db, tx, {
      ...auditOriginOf(ctx),
      action: 'account.twoFactorEnable',
      targetType: 'user',
      targetIds: [ctx.actor.id],
    });
  });
  return { recovery_codes: codes };
}

/** DELETE /account/two-factor: turns two-factor sign-in off, proven with a code or a recovery code. */
export async function disableTwoFactor({
  ctx,
  input,
}: HandlerCall<SecondFactorInput>): Promise<{ two_factor: TwoFactorState }> {
  await spendCodeAttempt(ctx, ctx.actor.id);
  await writeTransaction(ctx.db, async (tx) => {
    const { facts } = await lockOwnTwoFactor(ctx, tx);
    const refusal = twoFactorRefusal('disable', facts);
    if (refusal) throw refusalError(refusal);
    const met = await useSecondFactor(ctx.db, ctx.config, tx, ctx.actor.id, input);
    if (!met) throw wrongSecondFactor(input);
    await replaceTwoFactor(ctx.db, tx, ctx.actor.id, null);
    await recordChange(ctx.db, tx, {
      ...auditOriginOf(ctx),
      action: 'account.twoFactorDisable',
      targetType: 'user',
      targetIds: [ctx.actor.id],
      context: { proven_with: met },
    });
  });
  return { two_factor: { enrolled: false, required: ctx.actor.twoFactor?.required ?? false } };
}

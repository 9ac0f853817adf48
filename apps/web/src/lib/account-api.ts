import type { AccountPasswordInput, AuthSession, RecoveryCodes, TwoFactorSetup, TwoFactorState } from '@app/contracts';
import { rest } from './rest';

const NONE: TwoFactorState = { enrolled: false, required: false };

/** `auth.me`'s `two_factor` (SPEC §14): whether the person has a second factor, and must. */
export function twoFactorOf(session: AuthSession | undefined): TwoFactorState {
  return session?.two_factor ?? NONE;
}

/** Signed in, but held at enrolment until a second factor is set up. */
export function heldAtEnrolment(session: AuthSession | undefined): boolean {
  const state = twoFactorOf(session);
  return state.required && !state.enrolled;
}

/** `PUT /account/password`: the current password and the new one twice. */
export type PasswordChange = AccountPasswordInput;

/** The self-service routes (any signed-in person, no permission): SPEC §14 "Self-service", "Two-factor". */
export const accountApi = {
  rename: (name: string) => rest<unknown>('PUT', '/account', { name }),
  changePassword: (change: PasswordChange) => rest<unknown>('PUT', '/account/password', change),
  startEnrolment: () => rest<TwoFactorSetup>('POST', '/account/two-factor'),
  confirmEnrolment: (code: string) => rest<RecoveryCodes>('POST', '/account/two-factor/confirm', { code }),
  disable: (code: string) => rest<unknown>('DELETE', '/account/two-factor', { code }),
};

/** The sign-in's second step: a code from the app or one recovery code → the session, as login answers. */
export function answerTwoFactor(answer: { code: string } | { recovery_code: string }) {
  return rest<AuthSession>('POST', '/auth/two-factor', answer);
}

/** `{two_factor_required: true}`: the password was right, a code is asked for next. */
export function asksForCode(answer: object): answer is { two_factor_required: true } {
  return 'two_factor_required' in answer && answer.two_factor_required === true;
}

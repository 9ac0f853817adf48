import type { ActionState, UserSignInActions } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { type TwoFactorFacts, twoFactorRefusal } from './two-factor.js';
import { missingPermission } from './users.actions.js';
import { inviteRefusal } from './users.invite.js';
import { resetRefusal } from './users.password-reset.js';
import { outranked, type Target } from './users.rules.js';
import { trashRefusal } from './users.trash.js';

/** What the sign-in actions of one user depend on beyond the rules' target. */
export interface SignInFacts {
  /** The account has signed in at least once (`last_sign_in_at`). */
  signedIn: boolean;
  twoFactor: TwoFactorFacts;
}

const ALLOWED: ActionState = { allowed: true };
const stateOf = (refusal: { code: ActionState['code']; message: string } | null): ActionState =>
  refusal ? { allowed: false, code: refusal.code, message: refusal.message } : ALLOWED;

/**
 * What DELETE /users/{id}/two-factor refuses, in its order: a user in the trash (404 there), one
 * who outranks the caller (`accountWithinCeiling`), then one with no second factor to reset
 * (`twoFactorRefusal('reset')`, the route's own rule).
 */
function twoFactorResetRefusal(actor: Actor, target: Target, facts: TwoFactorFacts) {
  const place = trashRefusal('resetTwoFactor', target);
  if (place) return place;
  return outranked(actor, { kind: 'update', target }) ?? twoFactorRefusal('reset', facts);
}

/**
 * The user page's sign-in actions, by the permission the three routes need (users.update) and
 * then the very rule each write runs, so the page offers only what the server would do.
 */
export function signInActionsOf(actor: Actor, target: Target, facts: SignInFacts): UserSignInActions {
  if (!actor.permissions.has('users.update')) {
    const refused = missingPermission('users.update');
    return { invite: refused, sendPasswordReset: refused, resetTwoFactor: refused };
  }
  return {
    invite: stateOf(inviteRefusal(actor, { ...target, signedIn: facts.signedIn })),
    sendPasswordReset: stateOf(resetRefusal(actor, target)),
    resetTwoFactor: stateOf(twoFactorResetRefusal(actor, target, facts.twoFactor)),
  };
}

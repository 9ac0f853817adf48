import type { Actor } from '../auth/actor.js';
import { outranked, type Target } from './users.rules.js';
import { trashRefusal } from './users.trash.js';

/**
 * Who may be sent a password-reset link by an administrator (SPEC §14): a live, active account,
 * and — the ceiling — none that holds a permission the sender lacks (the link sets the password,
 * so resetting an administrator's would hand its sender the account). One refusal per fact, each
 * sentence written here for every door.
 */
export interface ResetRefusal {
  code: 'NOT_FOUND' | 'NOT_ACTIVE' | 'OUTRANKED';
  message: string;
}

export function resetRefusal(actor: Actor, target: Target): ResetRefusal | null {
  const place = trashRefusal('sendPasswordReset', target);
  if (place) return { code: 'NOT_FOUND', message: place.message };
  const ceiling = outranked(actor, { kind: 'update', target });
  if (ceiling) return { code: 'OUTRANKED', message: ceiling.message };
  if (!target.is_active) {
    return {
      code: 'NOT_ACTIVE',
      message: `${target.name} is not active: activate the account before sending a password reset.`,
    };
  }
  return null;
}

/**
 * Whether a reset link may be mailed to, or used by, an account: live and active. An account
 * deactivated or deleted never gets back in through "forgot password" (strapi#10776), and the
 * link it was sent before stops working.
 */
export const canResetPassword = (user: { deleted: boolean; is_active: boolean }): boolean =>
  !user.deleted && user.is_active;

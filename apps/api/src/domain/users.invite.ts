import type { InvitationState, InvitationStatus } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { outranked, type Target } from './users.rules.js';
import { trashRefusal } from './users.trash.js';

/**
 * Who may be invited (SPEC §14): a live, active account that has never signed in, and — the
 * ceiling — none that holds a permission the inviter lacks (an invitation sets the password, so
 * inviting an administrator would make its sender one). One refusal per fact, each sentence
 * written here for every door: the user page, bulk, the CLI.
 */
export interface InviteRefusal {
  code: 'NOT_FOUND' | 'NOT_ACTIVE' | 'ALREADY_SIGNED_IN' | 'OUTRANKED';
  message: string;
}

export function inviteRefusal(actor: Actor, target: Target & { signedIn: boolean }): InviteRefusal | null {
  const place = trashRefusal('invite', target);
  if (place) return { code: 'NOT_FOUND', message: place.message };
  const ceiling = outranked(actor, { kind: 'update', target });
  if (ceiling) return { code: 'OUTRANKED', message: ceiling.message };
  if (!target.is_active) {
    return { code: 'NOT_ACTIVE', message: `${target.name} is not active: activate the account before inviting them.` };
  }
  if (target.signedIn) {
    return {
      code: 'ALREADY_SIGNED_IN',
      message: `${target.name} has already signed in: send a password reset instead of an invitation.`,
    };
  }
  return null;
}

/** A user's latest invitation as people read it: accepted, open until it expires, then expired. */
export function invitationStatus(
  user: { sent: Date | null; expires: Date | null; accepted: Date | null },
  now = new Date(),
): InvitationStatus | null {
  if (!user.sent || !user.expires) return null;
  const expires = new Date(user.expires);
  const state: InvitationState = user.accepted ? 'accepted' : expires > now ? 'pending' : 'expired';
  return { state, sent_at: new Date(user.sent).toISOString(), expires_at: expires.toISOString() };
}

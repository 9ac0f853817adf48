import type { BulkReport, InvitationState, InvitationStatus } from '@app/contracts';
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

/** A user as a bulk invitation judges it: the rules' facts, and whether it ever signed in. */
export type InviteCandidate = Target & { signedIn: boolean };

/**
 * A batch of a bulk invitation as a plan: each id meets `inviteRefusal` (the single route's
 * rule); a missing user is skipped as the other bulk operations skip one. Nothing read or written.
 */
export function planInvites(
  actor: Actor,
  ids: readonly number[],
  users: ReadonlyMap<number, InviteCandidate>,
): { invited: number[]; skipped: BulkReport['skipped'] } {
  const invited: number[] = [];
  const skipped: BulkReport['skipped'] = [];
  for (const id of ids) {
    const user = users.get(id);
    const refusal = user
      ? inviteRefusal(actor, user)
      : { code: 'NOT_FOUND' as const, message: `There is no user with id ${id}.` };
    if (refusal) skipped.push({ id, ...refusal });
    else invited.push(id);
  }
  return { invited, skipped };
}

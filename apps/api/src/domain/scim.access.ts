import type { Permission } from '@app/contracts';
import type { Actor } from '../auth/actor.js';

/**
 * What a SCIM request needs of its token, decided here for the door (apps/api/src/scim/): the
 * permission each action asks is the REST door's for the same action; these are the SCIM-only
 * decisions beside it.
 */

type Holder = Pick<Actor, 'permissions'>;

/** The first of `permissions` the token lacks; null when it holds them all. */
export const firstLackingOf = (actor: Holder, permissions: readonly Permission[]): Permission | null =>
  permissions.find((p) => !actor.permissions.has(p)) ?? null;

/**
 * A user's PATCH needs users.update, or users.setActive alone when it changes only `active`
 * (Okta's deprovisioning token): a token holding neither is refused before anything is read,
 * naming the narrower one.
 */
export const userPatchRefusal = (actor: Holder): Permission | null =>
  actor.permissions.has('users.update') ? null : firstLackingOf(actor, ['users.setActive']);

/** The resource types a root `.search` reads: those the token may list (users.view, roles.view). */
export const SCIM_LISTS = [
  { type: 'User', permission: 'users.view' },
  { type: 'Group', permission: 'roles.view' },
] as const satisfies readonly { type: string; permission: Permission }[];

export const readableScimLists = (actor: Holder) => SCIM_LISTS.filter((l) => actor.permissions.has(l.permission));

import { type Permission, canSeeTrash as holdsTrashPermission, type UserSections } from '@app/contracts';
import type { Actor } from '../auth/actor.js';

/** What a record policy needs to know about a user record. */
export interface UserRecord {
  id: number;
  deleted_at: Date | string | null;
}

const has = (actor: Actor, permission: Permission) => actor.permissions.has(permission);

/** Seeing the trash (or a trashed record) is for those who can do something with it. */
export const canSeeTrash = (actor: Actor) => holdsTrashPermission((permission) => has(actor, permission));

/**
 * The users record policy: the same permission names as the route guards, plus what the record's
 * state allows. Route guards answer "may this caller use this route at all"; these answer "may
 * they do it to this record". Handlers ask both, in that order.
 */
export const usersPolicy = {
  viewAny: (actor: Actor) => has(actor, 'users.view'),
  view: (actor: Actor, user: UserRecord) => has(actor, 'users.view') && (!user.deleted_at || canSeeTrash(actor)),
  create: (actor: Actor) => has(actor, 'users.create'),
  /** Creating an account inactive sets its status, so it also takes users.setActive. */
  createInactive: (actor: Actor) => has(actor, 'users.create') && has(actor, 'users.setActive'),
  update: (actor: Actor, user: UserRecord) => has(actor, 'users.update') && !user.deleted_at,
  setActive: (actor: Actor, user: UserRecord) => has(actor, 'users.setActive') && !user.deleted_at,
  delete: (actor: Actor, user: UserRecord) => has(actor, 'users.delete') && !user.deleted_at,
  restore: (actor: Actor, user: UserRecord) => has(actor, 'users.restore') && !!user.deleted_at,
  forceDelete: (actor: Actor, user: UserRecord) => has(actor, 'users.forceDelete') && !!user.deleted_at,
  export: (actor: Actor) => has(actor, 'users.export'),
} as const;

/**
 * The sections of a user's page the actor gets: the account's sessions and API tokens only while
 * it is not in the trash (a trashed user can neither sign in nor use a token), each for those
 * who manage them; its history and sign-ins for those who read the audit trail.
 */
export const userSections = (actor: Actor, user: UserRecord): UserSections => ({
  sessions: has(actor, 'users.update') && !user.deleted_at,
  tokens: has(actor, 'tokens.manage') && !user.deleted_at,
  history: has(actor, 'audit.view'),
});

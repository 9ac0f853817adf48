import type { Actor } from '../auth/actor.js';

export const rolesPolicy = {
  view: (actor: Actor) => actor.permissions.has('roles.view'),
} as const;

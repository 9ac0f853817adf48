import type { Actor } from '../trpc/context.js';

export const rolesPolicy = {
  view: (actor: Actor) => actor.permissions.has('roles.view'),
} as const;

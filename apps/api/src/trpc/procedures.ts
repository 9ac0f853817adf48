import type { Permission } from '@app/contracts';
import { forbidden, unauthenticated } from '../errors.js';
import type { Actor } from './context.js';
import { publicProcedure } from './init.js';

/** Needs a signed-in caller (session or token): 401 otherwise. */
export const protectedProcedure = publicProcedure.meta({ authenticated: true }).use(({ ctx, next }) => {
  if (!ctx.actor) throw unauthenticated();
  return next({ ctx: { ...ctx, actor: ctx.actor as Actor } });
});

/**
 * Needs a signed-in caller holding `permission`: 401 without credentials, 403 naming the
 * permission otherwise. Runs before input validation, so a caller without the right learns
 * nothing about the input's shape.
 */
export const can = (permission: Permission) =>
  protectedProcedure.meta({ permission }).use(({ ctx, next }) => {
    if (!ctx.actor.permissions.has(permission)) throw forbidden(permission);
    return next();
  });

export const hasPermission = (actor: Actor, permission: Permission) => actor.permissions.has(permission);

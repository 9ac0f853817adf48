import type { Permission } from '@app/contracts';
import { AppError } from '../errors.js';
import type { Actor } from '../auth/actor.js';
import { middleware, publicProcedure } from './init.js';
import { preflight } from './preflight.js';

/**
 * Needs a signed-in caller (session or token): 401 otherwise. Its one middleware is the guard of
 * every procedure built from it: `preflight` reads the procedure's final meta, so the permission
 * `can()` (or an input-dependent `permissionOf`) adds is checked here too, before input validation.
 */
export const protectedProcedure = publicProcedure
  .meta({ authenticated: true })
  .use(async ({ ctx, meta, getRawInput, next }) => {
    preflight(meta, ctx.actor, meta?.permissionOf ? await getRawInput() : undefined);
    return next({ ctx: { ...ctx, actor: ctx.actor as Actor } });
  });

/**
 * Needs a signed-in caller holding `permission`: 401 without credentials, 403 naming the
 * permission otherwise. Checked by `protectedProcedure`'s guard before input validation, so a
 * caller without the right learns nothing about the input's shape.
 */
export const can = (permission: Permission) => protectedProcedure.meta({ permission });

/**
 * For a GET that spends something (a rate-limit allowance, an audit row): a page on another
 * site can start one by top-level navigation, and the Lax session cookie goes along. A caller
 * proven by that cookie must therefore come from the application's own pages (403 otherwise,
 * before the handler spends anything). A bearer token is never attached by a browser on its
 * own, so its callers are not asked. `action` names what is refused, for the message.
 */
export const fromTheApp = (action: string) =>
  middleware(({ ctx, next }) => {
    if (ctx.auth?.via !== 'token' && !ctx.sameOrigin) {
      throw new AppError(
        'FORBIDDEN',
        `Start the ${action} from the application itself: a link or page on another site cannot start it.`,
      );
    }
    return next();
  });

/**
 * For a procedure whose answer is a file (an export): only the REST door can deliver one, so
 * the tRPC door refuses it with the path to use, before the handler spends anything.
 */
export const restDownload = middleware(({ ctx, meta, next }) => {
  if (ctx.transport !== 'rest') {
    throw new AppError('BAD_REQUEST', `Export is a file download: use GET /api${meta?.rest?.path ?? ''}.`);
  }
  return next();
});

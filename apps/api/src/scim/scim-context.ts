import type { Permission } from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.js';
import type { HandlerContext } from '../context.js';
import type { Database } from '../db/database.js';
import { authenticate } from '../auth/authenticate.js';
import { firstLackingOf } from '../domain/scim.access.js';
import { ScimError } from './scim-error.js';

/** What a SCIM route runs with: a handler's context for the token's owner, recorded `via: scim`. */
export type ScimContext = HandlerContext & { baseUrl: string };

/**
 * The caller of a SCIM request: a bearer token only. Identity providers authenticate with one;
 * a browser session is not let in (a cookie would make every SCIM write a cross-site request
 * forgery target). The token acts with its owner's permissions narrowed to its scopes, as on the
 * REST door; its changes are recorded as made over SCIM, with the token's name.
 */
export async function scimContext(db: Database, config: AppConfig, req: FastifyRequest): Promise<ScimContext> {
  const authorization = req.headers.authorization;
  const { actor, auth } = authorization
    ? await authenticate(db, config, { authorization, ip: req.ip })
    : { actor: null, auth: null };
  if (!actor || auth?.via !== 'token') {
    throw new ScimError(401, 'Send a valid API token as "Authorization: Bearer <token>".');
  }
  return {
    db,
    config,
    ip: req.ip,
    requestId: String(req.id),
    actor,
    auth: { ...auth, door: 'scim' },
    baseUrl: scimBaseUrl(config, req),
  };
}

/**
 * Where the SCIM resources live (for `meta.location`): under PUBLIC_URL when it is set (a Host
 * header is the client's to choose), else as this instance was reached.
 */
function scimBaseUrl(config: AppConfig, req: FastifyRequest): string {
  return `${config.PUBLIC_URL ?? `${req.protocol}://${req.host}`}/api/scim/v2`;
}

/** 403 unless the caller holds `permission`, naming it. */
export function requireScimPermission(ctx: ScimContext, permission: Permission): void {
  if (firstLackingOf(ctx.actor, [permission]) !== null) {
    throw new ScimError(403, `The token needs the ${permission} permission to do this.`);
  }
}

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCIM_MEDIA_TYPE } from '@app/contracts';
import { logError } from './logger.js';
import { ScimError } from './scim/scim-error.js';
import { problem, sendProblem } from './rest/problem.js';

const isApiPattern = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * The path as the router reads it: up to `?` or `#`, percent-decoded the way find-my-way does
 * (decodeURI: `%61` is `a`, while `%2F` stays part of its segment). A URL that does not decode is
 * left as sent; the router refuses it anyway.
 */
export function routedPath(url: string): string {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** Whether a URL that matched no route still names the API, so it is answered as the API would. */
export const isApiPath = (url: string) => isApiPattern(routedPath(url));

/**
 * Whether the request reached one of the API's routes. Decided by the pattern of the route that
 * matched (`/api/users/:id/active`), never by how the URL was spelled: `/%61pi/users/1/active`
 * reaches that route, so it is an API request like any other.
 */
export function reachedApiRoute(req: FastifyRequest): boolean {
  const pattern = req.routeOptions.url;
  return pattern !== undefined && isApiPattern(pattern);
}

/**
 * API answers are per-user and must never be stored by a shared cache: whatever an API route
 * answers (data, a file, a problem) is no-store. Any other answer is no-store too unless it chose
 * its own (a 404 would otherwise be cached heuristically): the SPA's static files keep what
 * @fastify/static gives them, the SPA fallback its no-cache.
 */
export function registerNoStore(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply) => {
    if (reachedApiRoute(req) || !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}

/**
 * A URL the router cannot read (a `%` not followed by two hex digits, an over-long parameter)
 * is refused before any route or hook runs, so this answer sets its own headers.
 */
export function refuseUnroutableUrl(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const code =
    error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'BAD_REQUEST' : 'INTERNAL';
  const detail = code === 'BAD_REQUEST' ? 'The address is not a valid URL.' : 'The request could not be routed.';
  logError(req.log, error, code === 'INTERNAL' ? 500 : 400);
  reply.header('x-request-id', req.id).header('cache-control', 'no-store');
  // Under the SCIM door, every answer is a SCIM error (RFC 7644 §3.12), an unreadable URL's too.
  if (routedPath(req.url).startsWith('/api/scim/v2')) {
    const status = code === 'INTERNAL' ? 500 : 400;
    const body = new ScimError(status, detail, status === 400 ? 'invalidSyntax' : undefined).toBody();
    return reply.code(status).type(`${SCIM_MEDIA_TYPE}; charset=utf-8`).send(body);
  }
  return sendProblem(reply, problem(code, detail, undefined, String(req.id)));
}

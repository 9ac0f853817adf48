import type { FastifyInstance } from 'fastify';
import { reachedApiRoute, routedPath } from '../api-scope.js';
import type { RestMeta } from '../trpc/init.js';
import { pathParamPattern, type RestRoute } from './routes.js';
import { problem, sendProblem } from './problem.js';

/** The order `Allow` lists methods in. HEAD is absent: the door does not answer it (exposeHeadRoute: false). */
const METHOD_ORDER: readonly RestMeta['method'][] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `/users/{id}/active` → matches `/api/users/7/active` as the router reads it (bridge.ts's parameter patterns). */
const patternOf = (route: RestRoute) =>
  new RegExp(
    `^/api${route.rest.path
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{(\w+)\}/g, (_, name: string) => pathParamPattern(route, name))}$`,
  );

/**
 * The methods the route table routes at a concrete path: those of every template it matches,
 * as Fastify's router would (one tree per method, so `PUT /users/export` reaches `/users/{id}`).
 */
function allowedMethods(routes: readonly RestRoute[]): (path: string) => RestMeta['method'][] {
  const table = routes.map((r) => ({ method: r.rest.method, pattern: patternOf(r) }));
  return (path) => METHOD_ORDER.filter((m) => table.some((t) => t.method === m && t.pattern.test(path)));
}

/**
 * A request that reached no API route but names a REST path under another method is 405 with
 * `Allow` (RFC 9110 §15.5.6), answered in `onRequest`: before credentials are asked for (the
 * route table is public in /api/openapi.json anyway) and before a body is read, so a wrong
 * method is never a 400/415 about the body. OPTIONS is one such method: the product does no
 * CORS, so it has nothing to answer one with. A path no route knows is left to the not-found
 * handler (404); the tRPC door answers its own methods.
 */
export function registerMethodNotAllowed(app: FastifyInstance, routes: readonly RestRoute[]) {
  const allowedAt = allowedMethods(routes);
  app.addHook('onRequest', async (req, reply) => {
    // Not `req.is404`: a GET or HEAD no API route takes still matches the SPA's wildcard route.
    if (reachedApiRoute(req)) return;
    const path = routedPath(req.url);
    const allow = allowedAt(path).join(', ');
    if (!allow) return;
    return sendProblem(
      reply,
      problem(
        'METHOD_NOT_ALLOWED',
        `${path} does not take ${req.method}; it takes ${allow}.`,
        undefined,
        String(req.id),
      ),
      { allow },
    );
  });
}

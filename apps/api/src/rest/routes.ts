import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { ProcedureMeta, RestMeta } from '../trpc/init.js';

export interface RestRoute {
  procedurePath: string;
  rest: RestMeta;
  meta: ProcedureMeta;
  procedure: AnyProcedure;
}

/** Every procedure that declares a REST door, read from the router itself (never a second list). */
export function restRoutes(router: AnyRouter): RestRoute[] {
  const procedures = router._def.procedures as Record<string, AnyProcedure>;
  return Object.entries(procedures).flatMap(([procedurePath, procedure]) => {
    const meta = procedure._def.meta as ProcedureMeta | undefined;
    return meta?.rest ? [{ procedurePath, rest: meta.rest, meta, procedure }] : [];
  });
}

/**
 * What a path parameter matches, as a regular expression source: `{id}` is a record id, digits
 * only, so `/users/bulk` or `/users/export` under a method they lack is not taken for
 * `/users/{id}` (405 with their own `Allow`, not a 422 about the id) and `/users/abc` names no
 * route (404). Other parameters (a session's handle) are any one segment.
 */
const ANY_SEGMENT = '[^/]+';
export const pathParamPattern = (name: string) => (name === 'id' ? '\\d+' : ANY_SEGMENT);

/** `/users/{id}/active` → `/api/users/:id(^\d+$)/active` (Fastify's syntax). */
export const toFastifyPath = (path: string) =>
  `/api${path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const pattern = pathParamPattern(name);
    return pattern === ANY_SEGMENT ? `:${name}` : `:${name}(^${pattern}$)`;
  })}`;

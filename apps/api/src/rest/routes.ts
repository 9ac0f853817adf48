import { inputJsonSchema } from '@app/contracts';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { z } from 'zod';
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

const ANY_SEGMENT = '[^/]+';
const PATH_PARAM = /\{(\w+)\}/g;

type JsonSchema = { [keyword: string]: unknown };

/**
 * The JSON Schema the procedure's input gives `name`, as the OpenAPI document shows it: from
 * whichever chained `.input()` has it, a list query's normalising wrapper included.
 */
function inputField(route: RestRoute, name: string): JsonSchema | undefined {
  for (const input of route.procedure._def.inputs as unknown[]) {
    if (!(input instanceof z.ZodType)) continue;
    const properties = inputJsonSchema(input).properties as Record<string, JsonSchema> | undefined;
    if (properties?.[name]) return properties[name];
  }
  return undefined;
}

const wholeNumberParams = new WeakMap<AnyProcedure, ReadonlySet<string>>();

/**
 * The path parameters the contracts type as whole numbers. Without a schema, `{id}` is one, as
 * the OpenAPI document says of it (openapi.ts).
 */
function wholeNumbersOf(route: RestRoute): ReadonlySet<string> {
  let found = wholeNumberParams.get(route.procedure);
  if (!found) {
    const names = [...route.rest.path.matchAll(PATH_PARAM)].map((m) => m[1] as string);
    found = new Set(
      names.filter((name) => {
        const field = inputField(route, name);
        return field === undefined ? name === 'id' : field.type === 'integer';
      }),
    );
    wholeNumberParams.set(route.procedure, found);
  }
  return found;
}

/**
 * What a path parameter matches, as a regular expression source. A record id, which the
 * contracts type as a whole number (`{id}`, `{tokenId}`, `{deliveryId}`), is digits: so a fixed
 * path beside it (`/users/bulk`, `/tokens/options`) under a method it lacks is not taken for it
 * (405 with its own `Allow`, not a 422 about the id) and `/users/abc` names no route (404). Any
 * other parameter (a session's handle, which is text) is any one segment, judged by its schema.
 */
export const pathParamPattern = (route: RestRoute, name: string) =>
  wholeNumbersOf(route).has(name) ? '\\d+' : ANY_SEGMENT;

/** `/users/{id}/active` → `/api/users/:id(^\d+$)/active` (Fastify's syntax). */
export const toFastifyPath = (route: RestRoute) =>
  `/api${route.rest.path.replace(PATH_PARAM, (_, name: string) => {
    const pattern = pathParamPattern(route, name);
    return pattern === ANY_SEGMENT ? `:${name}` : `:${name}(^${pattern}$)`;
  })}`;

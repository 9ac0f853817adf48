import { parseQueryString, QueryStringError } from '@app/contracts';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { FileDownload } from '../export/file-download.js';
import type { Context } from '../trpc/context.js';
import { createCallerFactory, type ProcedureMeta, type RestMeta } from '../trpc/init.js';
import { preflight } from '../trpc/preflight.js';
import { registerMethodNotAllowed } from './method-not-allowed.js';

/**
 * Streams a file answer. A client that goes away mid-download destroys the body, which is what
 * stops the producer's database work (the writer stops asking for batches).
 */
function sendFile(reply: FastifyReply, status: number, file: FileDownload) {
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) file.body.destroy();
  });
  return reply
    .code(status)
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'no-store')
    .send(file.body);
}

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

function rawQuery(req: FastifyRequest): string {
  const url = req.raw.url ?? '';
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
}

function readInput(req: FastifyRequest, rest: RestMeta): Record<string, unknown> {
  let source: Record<string, unknown>;
  if (rest.method === 'GET' || rest.method === 'DELETE') {
    try {
      source = parseQueryString(rawQuery(req));
    } catch (err) {
      if (err instanceof QueryStringError) {
        throw new AppError('VALIDATION_FAILED', err.message, { errors: { query: [err.message] } });
      }
      throw err;
    }
  } else {
    const body = req.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError('VALIDATION_FAILED', 'The request body must be a JSON object.', {
        errors: { body: ['The request body must be a JSON object.'] },
      });
    }
    source = body as Record<string, unknown>;
  }
  // Path parameters win over anything of the same name in the query or body.
  return { ...source, ...(req.params as Record<string, string>) };
}

type CallerFn = (input: unknown) => Promise<unknown>;

/**
 * The REST door: each route builds the same context as tRPC and calls the same procedure
 * through a server-side caller, so guards, validation and handlers are shared by construction.
 * Errors propagate to the app's single error handler, which writes problem+json.
 *
 * Order of the answers: a method the path lacks is 405 (no route matched, nothing asked);
 * then who the caller is (401) and whether they may (403), in `onRequest`, before Fastify reads
 * the body — so before a wrong media type (415), an oversized (413) or unreadable (400) body, a
 * body that is not an object or a query string the parser refuses (422) — then input validation.
 */
export function registerRestBridge(
  app: FastifyInstance,
  router: AnyRouter,
  createContext: (req: FastifyRequest, reply: FastifyReply) => Promise<Context>,
  hooks: { onDownload?: (body: FileDownload['body']) => void } = {},
) {
  // The REST door reads JSON only. Fastify's built-in text/plain parser would hand a route a
  // string, refused late as 422; without it a text body is 415 like any other media type.
  app.removeContentTypeParser('text/plain');
  const createCaller = createCallerFactory(router);
  const routes = restRoutes(router);
  registerMethodNotAllowed(app, routes);
  // The context each request was let in with, from its onRequest hook to its handler.
  const contexts = new WeakMap<FastifyRequest, Context>();
  for (const route of routes) {
    const hasInput = route.procedure._def.inputs.length > 0;
    app.route({
      method: route.rest.method,
      // A HEAD would run the procedure (an export: rate limit and audit) for nothing.
      exposeHeadRoute: false,
      url: toFastifyPath(route.rest.path),
      onRequest: async (req, reply) => {
        const ctx: Context = { ...(await createContext(req, reply)), transport: 'rest' };
        // Without the input: the procedure's own guard checks an input-dependent permission again
        // once the input is read.
        preflight(route.meta, ctx.actor);
        contexts.set(req, ctx);
      },
      handler: async (req, reply) => {
        const ctx = contexts.get(req);
        if (!ctx) throw new Error(`REST route ${route.procedurePath} reached its handler without a context`);
        // A procedure without input never reads the query string or body (as on the tRPC door):
        // `/api/health?x[a][b][c][d][e]=1` is a health check, not a 422.
        const input = hasInput ? readInput(req, route.rest) : undefined;
        const caller = createCaller(ctx) as unknown as Record<string, unknown>;
        const fn = route.procedurePath
          .split('.')
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as CallerFn;
        const result = await fn(input);
        const status = route.rest.status ?? 200;
        if (result instanceof FileDownload) {
          hooks.onDownload?.(result.body);
          return sendFile(reply, status, result);
        }
        if (status === 204) return reply.code(204).send();
        return reply.code(status).send(result);
      },
    });
  }
}

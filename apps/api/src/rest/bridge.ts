import { parseQueryString, QueryStringError } from '@app/contracts';
import type { AnyRouter } from '@trpc/server';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../errors.js';
import { FileDownload } from '../export/file-download.js';
import type { Context, UploadBody } from '../context.js';
import { createCallerFactory, inputInQuery, type RestMeta } from '../trpc/init.js';
import { preflight } from '../trpc/preflight.js';
import { registerJsonBodyParser } from './json-body.js';
import { registerMethodNotAllowed } from './method-not-allowed.js';
import { restRoutes, toFastifyPath } from './routes.js';

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

function rawQuery(req: FastifyRequest): string {
  const url = req.raw.url ?? '';
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
}

function readInput(req: FastifyRequest, rest: RestMeta): Record<string, unknown> {
  let source: Record<string, unknown>;
  // A file upload's body is the file: its options come in the query string.
  if (inputInQuery(rest)) {
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
  registerJsonBodyParser(app);
  const createCaller = createCallerFactory(router);
  const routes = restRoutes(router);
  registerMethodNotAllowed(app, routes);
  // The context each request was let in with, from its onRequest hook to its handler.
  const contexts = new WeakMap<FastifyRequest, Context>();
  for (const route of routes) {
    const hasInput = route.procedure._def.inputs.length > 0;
    const register = (scope: FastifyInstance, options: RouteOptions) => scope.route(options);
    const options: RouteOptions = {
      method: route.rest.method,
      // A HEAD would run the procedure (an export: rate limit and audit) for nothing.
      exposeHeadRoute: false,
      url: toFastifyPath(route),
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
        if (route.rest.upload) ctx.upload = uploadOf(req);
        const caller = createCaller(ctx) as unknown as Record<string, unknown>;
        const fn = route.procedurePath
          .split('.')
          .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as CallerFn;
        const result = await fn(input);
        const accepted = route.rest.accepted;
        const status =
          accepted && typeof result === 'object' && result !== null && accepted.key in result
            ? 202
            : (route.rest.status ?? 200);
        if (result instanceof FileDownload) {
          hooks.onDownload?.(result.body);
          return sendFile(reply, status, result);
        }
        if (status === 204) return reply.code(204).send();
        // A browser navigation (single sign-on): the answer is where to go next, not a body.
        if (status === 302)
          return reply
            .code(302)
            .header('location', (result as { location: string }).location)
            .send();
        return reply.code(status).send(result);
      },
    };
    if (!route.rest.upload) register(app, options);
    else {
      // A route whose body is a file gets it unread, whatever its media type: the handler streams
      // it to disk under its own size limit (Fastify's body limit is for JSON bodies).
      app.register(async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
        register(scope, options);
      });
    }
  }
}

/** The body of an upload route as the handler reads it: a stream, its media type and length. */
function uploadOf(req: FastifyRequest): UploadBody {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' && value !== '' ? value : null;
  };
  const length = header('content-length');
  return {
    stream: req.body instanceof Readable ? req.body : req.raw,
    contentType: header('content-type'),
    contentLength: length === null || !/^\d+$/.test(length) ? null : Number(length),
    filename: null,
    // Whole, as sent: the handler refuses one past its limit rather than answer for a cut key.
    idempotencyKey: header('idempotency-key'),
  };
}

import { ERRORS, refusedJsonKeyMessage, refusedJsonKeyPath } from '@app/contracts';
import { type AnyRouter, getErrorShape, TRPCError, transformTRPCResponse } from '@trpc/server';
import { fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { logError } from '../logger.js';
import type { Context } from '../context.js';
import { describeError, toTrpcError, trpcStatusFor, WRONG_METHOD } from './error-formatter.js';

export interface TrpcDoorOptions {
  router: AnyRouter;
  createContext: (req: FastifyRequest, reply: FastifyReply) => Promise<Context>;
}

/** HEAD is answered by tRPC itself (204, nothing runs). */
const DOOR_METHODS = new Set(['GET', 'HEAD', 'POST']);

const isPlainObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why the input cannot be read, or null. tRPC reads input lazily, only for a procedure that
 * declares one, so `auth.logout` with a malformed body would still sign the caller out; read
 * here, unreadable input is a 400 for every procedure, as on the REST door: broken JSON, or a
 * key the contracts refuse (`__proto__`, `constructor`, `prototype`).
 */
function unreadableInput(req: FastifyRequest): AppError | null {
  const query = req.query as Record<string, string | string[] | undefined>;
  const raw = req.method === 'POST' ? req.body : req.method === 'GET' ? query.input : undefined;
  const text = Array.isArray(raw) ? raw[0] : raw;
  // No body at all is a mutation without input: tRPC's httpLink sends none.
  if (typeof text !== 'string' || text === '') return null;
  const where = req.method === 'POST' ? 'The request body' : 'The input query parameter';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return new AppError('BAD_REQUEST', `${where} is not valid JSON.`);
  }
  if (query.batch === '1' && !isPlainObject(value)) {
    return new AppError('BAD_REQUEST', `${where} of a batch call must be an object keyed by call index.`);
  }
  const refusedKey = refusedJsonKeyPath(value);
  if (refusedKey !== null) return new AppError('BAD_REQUEST', refusedJsonKeyMessage(where, refusedKey));
  return null;
}

/** A refusal made before tRPC runs, in the envelope tRPC itself would answer with. */
function sendTrpcError(router: AnyRouter, req: FastifyRequest, reply: FastifyReply, error: unknown) {
  const described = describeError(error);
  const refusal = error instanceof AppError ? error : new AppError(described.code, described.detail);
  logError(req.log, error, refusal.status);
  const config = router._def._config;
  const shape = getErrorShape({
    config,
    error: toTrpcError(refusal),
    type: 'unknown',
    path: undefined,
    input: undefined,
    ctx: undefined,
  });
  return reply
    .code(refusal.status)
    .headers(refusal.headers ?? {})
    .type('application/json')
    .send(transformTRPCResponse(config, { error: shape }));
}

/**
 * The tRPC door at /api/trpc, on tRPC's Fastify request handler but not its plugin: the plugin
 * streams multipart bodies to tRPC with no size limit, accepts text/plain through Fastify's
 * parser, and leaves Fastify's own refusals (media type, body size) to the REST door's
 * problem+json. Here the door reads JSON only, refuses a wrong method or unreadable input before
 * any procedure runs, and answers every refusal in tRPC's envelope with the contract's code and
 * status, so a client mistake is never a 5xx.
 */
export async function registerTrpcDoor(app: FastifyInstance, { router, createContext }: TrpcDoorOptions) {
  await app.register(
    async (door) => {
      door.removeAllContentTypeParsers();
      // Kept as text: tRPC parses the body itself. The app's body limit applies (413).
      door.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
      door.setErrorHandler((error, req, reply) => sendTrpcError(router, req, reply, error));
      door.setNotFoundHandler((req, reply) => sendTrpcError(router, req, reply, new TRPCError({ code: 'NOT_FOUND' })));

      door.addHook('onRequest', async (req) => {
        if (!DOOR_METHODS.has(req.method)) {
          throw new AppError('METHOD_NOT_ALLOWED', WRONG_METHOD, { headers: { allow: 'GET, POST' } });
        }
      });

      door.all<{ Params: { path: string } }>('/:path', async (req, reply) => {
        const unreadable = unreadableInput(req);
        if (unreadable) throw unreadable;
        await fastifyRequestHandler({
          router,
          req,
          res: reply,
          path: req.params.path,
          createContext: ({ req: request, res }) => createContext(request, res),
          responseMeta: ({ errors, type }) => {
            const status = trpcStatusFor(errors);
            if (!status) return {};
            // tRPC leaves an error raised before any call (media type, batch shape) as text/plain.
            const headers: Record<string, string> = { 'content-type': 'application/json' };
            if (status === 405) headers.allow = type === 'query' ? 'GET' : 'POST';
            // A refusal's own headers (a 429's or 503's Retry-After), as the REST door sends them;
            // a batch's answer speaks for several calls, so only a lone refusal's are sent.
            const [only, ...others] = errors;
            if (only && others.length === 0) Object.assign(headers, describeError(only).headers);
            return { status, headers };
          },
          onError: ({ error, ctx, req: request }) => {
            logError(ctx?.log ?? request.log, error, ERRORS[describeError(error).code].status);
          },
        });
      });
    },
    { prefix: '/api/trpc' },
  );
}

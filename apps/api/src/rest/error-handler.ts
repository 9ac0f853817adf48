import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { describeError } from '../trpc/error-formatter.js';
import { problem, sendProblem } from './problem.js';

/** 5xx are logged with their stack (server side only); 4xx are the caller's business. */
export function logError(log: FastifyBaseLogger, error: unknown, status: number) {
  if (status >= 500) log.error({ err: error }, 'request failed');
  else log.debug({ err: error instanceof Error ? error.message : String(error), status }, 'request refused');
}

/** Fastify's own 4xx refusals (bad JSON, wrong content type, body too large) as a plain sentence. */
function fastifyRefusal(error: FastifyError): string | null {
  if (!error.code?.startsWith('FST_') || !error.statusCode || error.statusCode >= 500) return null;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'Send the request body as application/json.';
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'The request body is too large.';
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'The request body is empty; send a JSON object.';
  return 'The request body is not valid JSON.';
}

/** The one place a REST failure becomes problem+json (RFC 9457) and gets logged. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    const refusal = fastifyRefusal(error);
    const { code, detail, errors, headers, extra } = refusal
      ? { code: 'BAD_REQUEST' as const, detail: refusal, errors: undefined, headers: undefined, extra: undefined }
      : describeError(error);
    const body = problem(code, detail, errors, String(req.id), extra);
    logError(req.log, error, body.status);
    return sendProblem(reply, body, headers);
  });
}

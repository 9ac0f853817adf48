import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { describeError } from '../trpc/error-formatter.js';
import { problem, sendProblem } from './problem.js';

/** 5xx are logged with their stack (server side only); 4xx are the caller's business. */
export function logError(log: FastifyBaseLogger, error: unknown, status: number) {
  // 503: the database is away, which its own log says; one line per refused request is enough.
  if (status === 503)
    log.warn({ err: error instanceof Error ? error.message : String(error) }, 'request refused: database unavailable');
  else if (status >= 500) log.error({ err: error }, 'request failed');
  else log.debug({ err: error instanceof Error ? error.message : String(error), status }, 'request refused');
}

/** The one place a REST failure becomes problem+json (RFC 9457) and gets logged. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    // Fastify's own refusals too: wrong media type 415, body too large 413, unreadable JSON 400.
    const { code, detail, errors, headers, extra } = describeError(error);
    const body = problem(code, detail, errors, String(req.id), extra);
    logError(req.log, error, body.status);
    return sendProblem(reply, body, headers);
  });
}

import type { FastifyError, FastifyInstance } from 'fastify';
import { logError } from '../logger.js';
import { describeError } from '../trpc/error-formatter.js';
import { problem, sendProblem } from './problem.js';

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

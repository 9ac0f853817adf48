import { type ErrorCode, type FieldErrors, makeProblem, type Problem, type ProblemExtra } from '@app/contracts';
import type { FastifyReply } from 'fastify';

export interface ProblemBody extends Problem {
  requestId?: string;
}

/** The contract's problem shape plus the request id, so a caller can quote it to support. */
export function problem(
  code: ErrorCode,
  detail: string,
  errors?: FieldErrors,
  requestId?: string,
  extra: ProblemExtra = {},
): ProblemBody {
  const body: ProblemBody = makeProblem(code, {
    detail,
    ...(errors && Object.keys(errors).length ? { errors } : {}),
    ...extra,
  });
  if (requestId) body.requestId = requestId;
  return body;
}

export function sendProblem(reply: FastifyReply, body: ProblemBody, headers: Record<string, string> = {}) {
  return reply.code(body.status).headers(headers).type('application/problem+json; charset=utf-8').send(body);
}

import {
  codeFromZod,
  ERRORS,
  type ErrorCode,
  type FieldErrors,
  fieldErrorsFromZod,
  type ProblemExtra,
} from '@app/contracts';
import { TRPCError } from '@trpc/server';
import { type DefaultErrorShape, TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/unstable-core-do-not-import';
import { ZodError } from 'zod';
import { isDatabaseUnreachable } from '../db/unavailable.js';
import { AppError, unavailable } from '../errors.js';
import { describeFastifyRefusal } from '../fastify-refusals.js';

interface ErrorData {
  code: ErrorCode;
  httpStatus: number;
  errors?: FieldErrors;
  permission?: string;
  /** A refused attribute change: who holds a value, whose would break. */
  impact?: { holders: number; failing: number };
  path?: string;
}

export interface DescribedError {
  code: ErrorCode;
  detail: string;
  errors?: FieldErrors | undefined;
  headers?: Record<string, string> | undefined;
  extra?: ProblemExtra | undefined;
}

/**
 * Every tRPC code, so a new one is a type error here rather than a 500. tRPC raises the
 * request-shape ones itself (wrong method, media type, unreadable input, unknown procedure);
 * 4xx codes the contract has no word for (nothing here raises them) stay the caller's 400.
 */
const CONTRACT_CODE_OF: Record<TRPCError['code'], ErrorCode> = {
  PARSE_ERROR: 'BAD_REQUEST',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHENTICATED',
  PAYMENT_REQUIRED: 'BAD_REQUEST',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
  TIMEOUT: 'BAD_REQUEST',
  CONFLICT: 'VERSION_CONFLICT',
  PRECONDITION_FAILED: 'BAD_REQUEST',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  UNPROCESSABLE_CONTENT: 'VALIDATION_FAILED',
  PRECONDITION_REQUIRED: 'BAD_REQUEST',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
  CLIENT_CLOSED_REQUEST: 'BAD_REQUEST',
  INTERNAL_SERVER_ERROR: 'INTERNAL',
  NOT_IMPLEMENTED: 'INTERNAL',
  BAD_GATEWAY: 'INTERNAL',
  SERVICE_UNAVAILABLE: 'UNAVAILABLE',
  GATEWAY_TIMEOUT: 'INTERNAL',
};

type TrpcCode = TRPCError['code'];

/** The tRPC code for each contract status, so tRPC's envelope and status agree with the contract. */
const TRPC_CODE_BY_STATUS: Record<number, TrpcCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

const trpcCodeOf = (code: ErrorCode): TrpcCode => TRPC_CODE_BY_STATUS[ERRORS[code].status] ?? 'INTERNAL_SERVER_ERROR';

/** An AppError as tRPC's own error (for refusals made before tRPC runs), the AppError its cause. */
export function toTrpcError(error: AppError): TRPCError {
  return new TRPCError({ code: trpcCodeOf(error.appCode), message: error.detail, cause: error });
}

/** The tRPC door's one rule about methods, for every 405 it answers. */
export const WRONG_METHOD = 'tRPC reads queries with GET and mutations with POST.';

/** tRPC's own refusals, said more usefully than their code's title. */
const TRPC_DETAIL: Partial<Record<TRPCError['code'], string>> = {
  METHOD_NOT_SUPPORTED: WRONG_METHOD,
  // Handlers throw AppError: a bare NOT_FOUND is tRPC's own, about the procedure path.
  NOT_FOUND: 'No procedure has this path.',
};

/** Resolves any thrown value to the contract's error code, detail and field errors. */
export function describeError(error: unknown): DescribedError {
  const refusal = describeFastifyRefusal(error);
  if (refusal) return refusal;
  const cause = error instanceof TRPCError && error.cause ? error.cause : error;
  if (cause instanceof AppError) {
    return {
      code: cause.appCode,
      detail: cause.detail,
      errors: cause.errors,
      headers: cause.headers,
      extra: cause.extra,
    };
  }
  if (cause instanceof ZodError) {
    const code = codeFromZod(cause);
    const errors = fieldErrorsFromZod(cause);
    const first = Object.values(errors)[0]?.[0];
    return { code, detail: first ?? ERRORS[code].title, errors };
  }
  if (isDatabaseUnreachable(cause)) {
    // The database went away (stopped, restarting, network): the caller may retry, nothing leaks.
    return { code: 'UNAVAILABLE', detail: unavailable().detail, headers: { 'retry-after': '2' } };
  }
  if (error instanceof TRPCError) {
    const code = CONTRACT_CODE_OF[error.code];
    return { code, detail: TRPC_DETAIL[error.code] ?? ERRORS[code].title };
  }
  return { code: 'INTERNAL', detail: ERRORS.INTERNAL.title };
}

/** tRPC door: same code and field errors as problem+json, never a stack trace. */
export function formatTrpcError({ error, path }: { shape: DefaultErrorShape; error: TRPCError; path?: string }) {
  const { code, detail, errors, extra } = describeError(error);
  const permission = typeof extra?.permission === 'string' ? extra.permission : undefined;
  const data: ErrorData = {
    code,
    httpStatus: ERRORS[code].status,
    ...(errors ? { errors } : {}),
    ...(permission ? { permission } : {}),
    ...(extra?.impact ? { impact: extra.impact } : {}),
    ...(path ? { path } : {}),
  };
  // tRPC wraps a thrown AppError as an internal error; the envelope's code follows the contract.
  return { message: detail, code: TRPC_ERROR_CODES_BY_KEY[trpcCodeOf(code)], data };
}

/** The contract's status, not tRPC's: input validation is 422 (tRPC says 400), as on REST. */
export function trpcStatusFor(errors: readonly TRPCError[]): number | undefined {
  const first = errors[0];
  if (!first) return undefined;
  return ERRORS[describeError(first).code].status;
}

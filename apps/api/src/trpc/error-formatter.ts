import { codeFromZod, ERRORS, type ErrorCode, type FieldErrors, fieldErrorsFromZod } from '@app/contracts';
import { TRPCError } from '@trpc/server';
import type { DefaultErrorShape } from '@trpc/server/unstable-core-do-not-import';
import { ZodError } from 'zod';
import { AppError } from '../errors.js';

export interface ErrorData {
  code: ErrorCode;
  httpStatus: number;
  errors?: FieldErrors;
  permission?: string;
  path?: string;
}

export interface DescribedError {
  code: ErrorCode;
  detail: string;
  errors?: FieldErrors | undefined;
  headers?: Record<string, string> | undefined;
  extra?: Record<string, string | number> | undefined;
}

/** Resolves any thrown value to the contract's error code, detail and field errors. */
export function describeError(error: unknown): DescribedError {
  const cause = error instanceof TRPCError && !(error instanceof AppError) && error.cause ? error.cause : error;
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
  if (error instanceof TRPCError) {
    switch (error.code) {
      case 'UNAUTHORIZED':
        return { code: 'UNAUTHENTICATED', detail: ERRORS.UNAUTHENTICATED.title };
      case 'FORBIDDEN':
        return { code: 'FORBIDDEN', detail: ERRORS.FORBIDDEN.title };
      case 'NOT_FOUND':
        return { code: 'NOT_FOUND', detail: ERRORS.NOT_FOUND.title };
      case 'PARSE_ERROR':
      case 'BAD_REQUEST':
        return { code: 'BAD_REQUEST', detail: ERRORS.BAD_REQUEST.title };
      case 'TOO_MANY_REQUESTS':
        return { code: 'RATE_LIMITED', detail: ERRORS.RATE_LIMITED.title };
      default:
        break;
    }
  }
  return { code: 'INTERNAL', detail: ERRORS.INTERNAL.title };
}

/** tRPC door: same code and field errors as problem+json, never a stack trace. */
export function formatTrpcError({ shape, error, path }: { shape: DefaultErrorShape; error: TRPCError; path?: string }) {
  const { code, detail, errors, extra } = describeError(error);
  const permission = typeof extra?.permission === 'string' ? extra.permission : undefined;
  const data: ErrorData = {
    code,
    httpStatus: ERRORS[code].status,
    ...(errors ? { errors } : {}),
    ...(permission ? { permission } : {}),
    ...(path ? { path } : {}),
  };
  return { message: detail, code: shape.code, data };
}

/** tRPC answers input validation failures with 400; the contract says 422, as on REST. */
export function trpcStatusFor(errors: readonly TRPCError[]): number | undefined {
  const first = errors[0];
  if (!first) return undefined;
  return ERRORS[describeError(first).code].status;
}

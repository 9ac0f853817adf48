import { type ErrorCode, type FieldErrors, codeFromZod, ERRORS, fieldErrorsFromZod } from '@app/contracts';
import { TRPCError } from '@trpc/server';
import type { DefaultErrorShape } from '@trpc/server/unstable-core-do-not-import';
import { ZodError } from 'zod';
import { AppError } from '../errors.js';

export interface ErrorData {
  code: ErrorCode;
  httpStatus: number;
  errors?: FieldErrors;
  path?: string;
}

/** Resolves any thrown value to the contract's error code, detail and field errors. */
export function describeError(error: unknown): {
  code: ErrorCode;
  detail: string;
  errors?: FieldErrors;
  headers?: Record<string, string>;
} {
  const cause = error instanceof TRPCError && error.cause ? error.cause : error;
  if (cause instanceof AppError) {
    return { code: cause.code, detail: cause.detail, errors: cause.errors, headers: cause.headers };
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
  const { code, detail, errors } = describeError(error);
  const data: ErrorData = {
    code,
    httpStatus: ERRORS[code].status,
    ...(errors ? { errors } : {}),
    ...(path ? { path } : {}),
  };
  return { message: detail, code: shape.code, data };
}

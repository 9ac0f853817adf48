import { ERRORS, type ErrorCode, type FieldErrors } from '@app/contracts';
import { TRPCError } from '@trpc/server';

type TrpcCode = ConstructorParameters<typeof TRPCError>[0]['code'];

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

/**
 * A failure with a contract error code. Handlers throw these; only the edges (tRPC error
 * formatter, REST error handler) turn them into wire shapes. It is a TRPCError so the tRPC door
 * answers with the matching HTTP status instead of wrapping it as a 500.
 */
export class AppError extends TRPCError {
  readonly appCode: ErrorCode;
  readonly detail: string;
  readonly errors: FieldErrors | undefined;
  readonly headers: Record<string, string> | undefined;
  /** Extension member of the problem body, e.g. the missing permission of a 403. */
  readonly extra: Record<string, string | number> | undefined;

  constructor(
    code: ErrorCode,
    detail?: string,
    opts: { errors?: FieldErrors; headers?: Record<string, string>; extra?: Record<string, string | number> } = {},
  ) {
    const message = detail ?? ERRORS[code].title;
    super({ code: TRPC_CODE_BY_STATUS[ERRORS[code].status] ?? 'INTERNAL_SERVER_ERROR', message });
    this.name = 'AppError';
    this.appCode = code;
    this.detail = message;
    this.errors = opts.errors;
    this.headers = opts.headers;
    this.extra = opts.extra;
  }

  get status(): number {
    return ERRORS[this.appCode].status;
  }
}

export const notFound = (what = 'The record') =>
  new AppError('NOT_FOUND', `${what} does not exist or has been deleted.`);

export const unavailable = () =>
  new AppError('UNAVAILABLE', 'The database cannot be reached right now. Try again in a moment.');

export const unauthenticated = () =>
  new AppError('UNAUTHENTICATED', 'Sign in to continue: your session is missing, has expired or was ended.');

export const forbidden = (permission: string) =>
  new AppError('FORBIDDEN', `You need the ${permission} permission to do this.`, { extra: { permission } });

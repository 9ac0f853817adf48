import { ERRORS, type ErrorCode, type FieldErrors } from '@app/contracts';

/**
 * A failure with a contract error code. Handlers throw these; only the edges (tRPC error
 * formatter, REST bridge, Fastify error handler) turn them into HTTP or tRPC shapes.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly errors: FieldErrors | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, detail?: string, opts: { errors?: FieldErrors; headers?: Record<string, string> } = {}) {
    super(detail ?? ERRORS[code].title);
    this.name = 'AppError';
    this.code = code;
    this.detail = detail ?? ERRORS[code].title;
    this.errors = opts.errors;
    this.headers = opts.headers;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }
}

export const notFound = (what = 'The record') =>
  new AppError('NOT_FOUND', `${what} does not exist or has been deleted.`);

export const unavailable = () =>
  new AppError('UNAVAILABLE', 'The database cannot be reached right now. Try again in a moment.');

import { ERRORS, type ErrorCode, type FieldErrors, type ProblemExtra } from '@app/contracts';

/**
 * A failure with a contract error code. Handlers, the CLI and the doors throw these; only the
 * edges turn them into wire shapes: the REST error handler into problem+json, the tRPC error
 * formatter into tRPC's envelope with the contract's status (tRPC carries it as the cause of
 * the error it wraps every thrown value in).
 */
export class AppError extends Error {
  readonly appCode: ErrorCode;
  readonly detail: string;
  readonly errors: FieldErrors | undefined;
  readonly headers: Record<string, string> | undefined;
  /** Extension member of the problem body, e.g. the missing permission of a 403. */
  readonly extra: ProblemExtra | undefined;

  constructor(
    code: ErrorCode,
    detail?: string,
    opts: { errors?: FieldErrors; headers?: Record<string, string>; extra?: ProblemExtra } = {},
  ) {
    const message = detail ?? ERRORS[code].title;
    super(message);
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

/** A rule's refusal (a plan's first) as the error the doors answer. */
export function refusalError(refusal: { code: ErrorCode; message: string; errors?: FieldErrors; permission?: string }) {
  return new AppError(refusal.code, refusal.message, {
    ...(refusal.errors ? { errors: refusal.errors } : {}),
    ...(refusal.permission !== undefined ? { extra: { permission: refusal.permission } } : {}),
  });
}

export const notFound = (what = 'The record') =>
  new AppError('NOT_FOUND', `${what} does not exist or has been deleted.`);

export const unavailable = () =>
  new AppError('UNAVAILABLE', 'The database cannot be reached right now. Try again in a moment.');

export const unauthenticated = () =>
  new AppError('UNAUTHENTICATED', 'Sign in to continue: your session is missing, has expired or was ended.');

export const forbidden = (permission: string) =>
  new AppError('FORBIDDEN', `You need the ${permission} permission to do this.`, { extra: { permission } });

/**
 * A 403 where any one of several permissions would open the route (bulk: one per operation) and
 * the caller holds none of them, so no input could change the answer. It names no single
 * permission: each of them would do.
 */
export function forbiddenAnyOf(permissions: readonly string[]) {
  const list =
    permissions.length > 1 ? `${permissions.slice(0, -1).join(', ')} or ${permissions.at(-1)}` : permissions.join('');
  return new AppError('FORBIDDEN', `You need one of the ${list} permissions to do this.`);
}

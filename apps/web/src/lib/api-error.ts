import type { AppRouter } from '@app/api/router';
import { isTRPCClientError, type TRPCClientError } from '@trpc/client';
import type { Messages } from '../i18n/messages';
import { RestError } from './rest';

export type ApiError = TRPCClientError<AppRouter>;
export type ApiErrorCode = NonNullable<ApiError['data']>['code'];

export function isApiError(error: unknown): error is ApiError {
  return isTRPCClientError<AppRouter>(error);
}

/** The contract error code when the server answered with one; undefined for transport failures. */
export function apiErrorCode(error: unknown): ApiErrorCode | undefined {
  // A REST door answers the same contract codes as the tRPC one.
  if (error instanceof RestError) return error.code as ApiErrorCode | undefined;
  return isApiError(error) ? error.data?.code : undefined;
}

/**
 * A sentence an administrator can act on. The server's messages already are (contract §4);
 * a failure that never got a contract answer (offline, proxy error page) gets ours instead of
 * a JSON parser's complaint.
 */
export function apiErrorMessage(error: unknown, m: Messages): string {
  if (isApiError(error)) return error.data?.code ? error.message : m.errors.network;
  if (error instanceof RestError) return error.code ? error.message : m.errors.network;
  return m.errors.unexpected;
}

/** Transient failures are worth another try; a 4xx answer will not change by asking again. */
export function isTransientError(error: unknown): boolean {
  if (error instanceof RestError) return error.status === 0 || error.status >= 500;
  if (!isApiError(error)) return false;
  const status = error.data?.httpStatus;
  return status === undefined || status >= 500;
}

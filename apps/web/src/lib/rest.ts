import type { FieldErrors } from '@app/contracts';
import { apiUrl } from './api-url';

/**
 * A refusal from a REST route, carrying the problem+json answer's `code` and field `errors`
 * (contract §4) as a tRPC error carries them in `data`, so the same helpers read both.
 */
export class RestError extends Error {
  constructor(
    readonly status: number,
    /** The contract code; undefined when the answer was no problem document (proxy page, offline). */
    readonly code: string | undefined,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

export type RestMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Calls an API route through its REST door (`/api/...`), same origin with the session cookie.
 * The pages of sign-in, self-service and providers use these doors: their paths are the
 * contract's (SPEC §14), and a plain link (`/api/auth/sso/{id}/start`) needs one anyway.
 * Answers the parsed body (undefined for 204); a non-2xx answer throws a RestError.
 */
export async function rest<T>(method: RestMethod, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(apiUrl(`/api${path}`), {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new RestError(0, undefined, 'network');
  }
  const text = await response.text();
  const parsed: unknown = text ? safeJson(text) : undefined;
  if (response.ok) return parsed as T;
  const problem = (parsed ?? {}) as { code?: unknown; detail?: unknown; errors?: FieldErrors };
  throw new RestError(
    response.status,
    typeof problem.code === 'string' ? problem.code : undefined,
    typeof problem.detail === 'string' ? problem.detail : response.statusText,
    problem.errors,
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

import { ERRORS, type ErrorCode } from '@app/contracts';

export interface FastifyRefusal {
  code: ErrorCode;
  detail: string;
}

/** The refusals a caller can cause before any handler runs, said so a caller can fix the request. */
const DETAILS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ERRORS.UNSUPPORTED_MEDIA_TYPE.title,
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is larger than the server accepts.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  // A `__proto__`, `constructor` or `prototype` key is refused by rest/json-body.ts, naming it.
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
};

/** Contract codes that say no more than an HTTP status does, so a Fastify status can borrow them. */
const BY_STATUS: readonly ErrorCode[] = [
  'BAD_REQUEST',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
];

/**
 * Fastify's own 4xx (wrong media type, body too large, bad JSON) as a contract code of the same
 * status, or null for anything else. A 4xx with no contract code of its own (414) stays a 400:
 * still the caller's mistake, never a 500.
 */
export function describeFastifyRefusal(error: unknown): FastifyRefusal | null {
  if (!(error instanceof Error)) return null;
  const { code, statusCode } = error as Error & { code?: unknown; statusCode?: unknown };
  if (typeof code !== 'string' || !code.startsWith('FST_')) return null;
  if (typeof statusCode !== 'number' || statusCode < 400 || statusCode >= 500) return null;
  const contractCode = BY_STATUS.find((c) => ERRORS[c].status === statusCode) ?? 'BAD_REQUEST';
  return { code: contractCode, detail: DETAILS[code] ?? ERRORS[contractCode].title };
}

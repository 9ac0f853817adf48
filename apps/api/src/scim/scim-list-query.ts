import { z } from 'zod';
import { invalidSyntax, invalidValue, ScimError } from './scim-error.js';

/** At most this many resources per page (ServiceProviderConfig's `filter.maxResults`). */
export const SCIM_MAX_RESULTS = 1000;
/** A page's size when the client names none. */
const DEFAULT_COUNT = 100;

const whole = (name: string) =>
  z
    .string()
    .regex(/^-?\d{1,12}$/, `${name} must be a whole number.`)
    .transform(Number);

const ListParamsSchema = z.object({
  filter: z.string().max(1000, 'The filter is longer than 1 000 characters.').optional(),
  startIndex: whole('startIndex').optional(),
  count: whole('count').optional(),
  cursor: z.string().max(200).optional(),
  sortBy: z.string().max(200).optional(),
  sortOrder: z.string().optional(),
  attributes: z.string().max(2000).optional(),
  excludedAttributes: z.string().max(2000).optional(),
});

export interface ScimListParams {
  filter: string | null;
  /** 1-based; values under 1 read as 1 (RFC 7644 §3.4.2.4). */
  startIndex: number;
  /** 0–SCIM_MAX_RESULTS: a larger count is answered with the maximum, a negative one as 0. */
  count: number;
  /** RFC 9865: present (even empty, for the first page) when the client pages by cursor. */
  cursor: string | null;
  sortBy: string | null;
  sortOrder: 'ascending' | 'descending';
  attributes: string[];
  excludedAttributes: string[];
}

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');

/** A list request's query string, read as RFC 7644 §3.4.2 and RFC 9865 define it. */
export function readListParams(query: unknown): ScimListParams {
  const flat = Object.fromEntries(
    Object.entries((query ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]),
  );
  const parsed = ListParamsSchema.safeParse(flat);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const detail = `${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? 'invalid'}`;
    throw issue?.path[0] === 'filter' ? new ScimError(400, detail, 'invalidFilter') : invalidValue(detail);
  }
  const p = parsed.data;
  const order = (p.sortOrder ?? 'ascending').toLowerCase();
  if (order !== 'ascending' && order !== 'descending') {
    throw invalidValue('sortOrder must be "ascending" or "descending".');
  }
  return {
    filter: p.filter?.trim() ? p.filter : null,
    startIndex: Math.max(1, p.startIndex ?? 1),
    count: Math.min(SCIM_MAX_RESULTS, Math.max(0, p.count ?? DEFAULT_COUNT)),
    cursor: p.cursor ?? null,
    sortBy: p.sortBy?.trim() || null,
    sortOrder: order,
    attributes: list(p.attributes),
    excludedAttributes: list(p.excludedAttributes),
  };
}

const CURSOR_PREFIX = 'u';

/** A cursor names the last id a page held (RFC 9865: opaque to the client). */
export const encodeCursor = (lastId: number) => Buffer.from(`${CURSOR_PREFIX}${lastId}`).toString('base64url');

/** The id a cursor names; 0 for the first page (an empty cursor); 400 `invalidCursor` otherwise. */
export function decodeCursor(cursor: string): number {
  if (cursor === '') return 0;
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = new RegExp(`^${CURSOR_PREFIX}(\\d{1,10})$`).exec(text);
  if (!match) throw new ScimError(400, 'The cursor is not one this service gave.', 'invalidCursor');
  return Number(match[1]);
}

const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

/**
 * A `POST …/.search` body (RFC 7644 §3.4.3) as the query string a GET list reads: the same
 * parameters, sent in a body so a long filter stays out of logs and URLs.
 */
export function searchParams(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidSyntax('The request body must be a SCIM SearchRequest object.');
  }
  const raw = body as Record<string, unknown>;
  const schemas = raw.schemas;
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(SEARCH_REQUEST))) {
    throw invalidSyntax(`"schemas" must list ${SEARCH_REQUEST}.`);
  }
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'schemas' || value === undefined || value === null) continue;
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out[key] = value.join(',');
    else if (typeof value === 'string' || typeof value === 'number') out[key] = String(value);
    else throw invalidValue(`${key}: a SearchRequest's parameters are strings, numbers or lists of names.`);
  }
  return out;
}

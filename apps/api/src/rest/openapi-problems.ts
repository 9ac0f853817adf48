import { ERRORS, type ErrorCode, REFUSED_JSON_KEYS } from '@app/contracts';
import type { ProcedureMeta } from '../trpc/init.js';
import type { RestRoute } from './routes.js';
import type { JsonSchema, OpenApiResponse } from './openapi-types.js';

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

/** What `propertyNames` says on each object of a body (openapi-body-keys.ts), in words. */
const REFUSED_KEYS_TEXT = `A JSON body holding a key named ${REFUSED_JSON_KEYS.map((k) => `\`${k}\``).join(', ')} anywhere is refused too, naming the key.`;

/** Why a signed-in caller may get 403 on any route but the few open during enrolment (preflight.ts). */
const HELD_TEXT =
  '`TWO_FACTOR_ENROLMENT_REQUIRED`: one of the session holder’s roles requires two-factor sign-in and they have not set it up yet; such a session is refused everywhere but `/auth/me`, `/auth/logout` and `/account/two-factor`. API tokens are not held.';

/** The permission a 403 names: the route's, or one per value of the input field that picks it. */
export function permissionText(meta: ProcedureMeta): string | undefined {
  if (meta.permission) return `the \`${meta.permission}\` permission`;
  const by = meta.permissionOf;
  if (!by) return undefined;
  const each = Object.entries(by.permissions).map(([value, permission]) => `\`${permission}\` for \`${value}\``);
  return `the permission its \`${by.field}\` asks for (${each.join(', ')})`;
}

export function problemResponse(
  status: number,
  codes: ErrorCode[],
  permission?: string,
  pickedByInput = false,
): OpenApiResponse {
  // preflight.ts: holding none of the permissions the input could pick is refused before the input is read.
  const anyOf = pickedByInput
    ? ' A caller holding none of them is refused before the body is read, with no `permission` member: the detail lists them all.'
    : '';
  // The hold is described in words of its own (HELD_TEXT); the other codes by their titles.
  const listed = codes
    .filter((code) => code !== 'TWO_FACTOR_ENROLMENT_REQUIRED')
    .map((code) => `\`${code}\`: ${ERRORS[code].title}`)
    .join(' ');
  const ceiling = codes.includes('OUTRANKED')
    ? ' `OUTRANKED`: the user holds a permission the caller lacks (the privilege ceiling); the detail names them.'
    : '';
  const held = codes.includes('TWO_FACTOR_ENROLMENT_REQUIRED') ? HELD_TEXT : '';
  const description =
    status === 403 && permission
      ? `The caller lacks ${permission} (\`FORBIDDEN\`); the problem's \`permission\` names it.${anyOf}${ceiling} ${held}`
      : status === 422
        ? `${listed} A business rule's refusal carries the rule's own \`code\`.`
        : codes.includes('BAD_REQUEST')
          ? `${listed} ${REFUSED_KEYS_TEXT}`
          : `${listed} ${held}`;
  const response: OpenApiResponse = {
    description: description.trim(),
    content: { 'application/problem+json': { schema: PROBLEM_REF } },
  };
  if (codes.includes('RATE_LIMITED')) {
    response.headers = { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } } };
  }
  return response;
}

/** The refusals a route can answer: implied by its guard, path and input, plus what it declares. */
export function problemCodes(route: RestRoute, input: JsonSchema | null, body: boolean, pathParams: string[]) {
  const codes: ErrorCode[] = [];
  // A body is read before the procedure runs: unreadable, too large, or not JSON.
  if (body) codes.push('BAD_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (!route.meta.public) codes.push('UNAUTHENTICATED');
  // A session held at enrolment (a role requires a second factor not yet set up): every signed-in route but a few.
  if (!route.meta.public && !route.meta.duringEnrolment) codes.push('TWO_FACTOR_ENROLMENT_REQUIRED');
  // A permission fixed by the route, or picked by the input (bulk: one per operation).
  if (route.meta.permission || route.meta.permissionOf) codes.push('FORBIDDEN');
  // A path parameter names something that may not exist (an id, an attribute's key): 404.
  if (pathParams.length > 0) codes.push('NOT_FOUND');
  if (input) codes.push('VALIDATION_FAILED');
  codes.push(...(route.rest.problems ?? []));
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus].sort(([a], [b]) => a - b);
}

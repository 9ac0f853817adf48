import { SCIM_MEDIA_TYPE, type ScimErrorType } from '@app/contracts';
import { SCIM_OPERATIONS, type ScimOperation } from './openapi-scim-operations.js';
import { SCIM_COMPONENTS } from './openapi-scim-schemas.js';
import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiResponse } from './openapi-types.js';

/**
 * The SCIM 2.0 door (src/scim/, issue 39) in the OpenAPI document. It is a Fastify plugin of its
 * own, not built from tRPC procedures, so its operations are declared as data (openapi-scim-operations.ts), from its route code:
 * bearer tokens only, `application/scim+json` both ways, SCIM's error shape.
 */

export const SCIM_PATH_PREFIX = '/api/scim/v2';
const TAG = 'SCIM';
const BEARER_ONLY: Array<Record<string, string[]>> = [{ bearerAuth: [] }];
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const scimContent = (schema: JsonSchema) => ({ [SCIM_MEDIA_TYPE]: { schema } });

const ERROR_TEXT: Record<number, string> = {
  401: 'No valid API token: the door takes `Authorization: Bearer <token>` only (a session cookie is not let in). Sent with `WWW-Authenticate: Bearer realm="scim"`.',
  403: "The token lacks the permission the change needs (the detail names it), or a user or role it would change holds a permission the token's owner lacks (the privilege ceiling).",
  404: 'No such resource.',
  409: '`uniqueness`: the userName, e-mail, externalId or group name is taken; or (no scimType) the rules refuse a member change.',
  412: '`If-Match` names no current version: read the resource again, then retry.',
  413: 'The body is larger than the server takes.',
  415: 'The body is neither `application/scim+json` nor `application/json`.',
};

function errorResponses(statuses: number[], badRequest: ScimErrorType[]): Record<string, OpenApiResponse> {
  const out: Record<string, OpenApiResponse> = {};
  if (badRequest.length) {
    out['400'] = {
      description: `A bad request; \`scimType\` is one of ${badRequest.map((s) => `\`${s}\``).join(', ')}. A rule's refusal (the last administrator, one's own account) is \`invalidValue\`.`,
      content: scimContent(ref('ScimError')),
    };
  }
  for (const status of statuses) {
    out[String(status)] = { description: ERROR_TEXT[status] as string, content: scimContent(ref('ScimError')) };
  }
  return out;
}

function successOf({ status, schema, etag }: ScimOperation['success']): OpenApiResponse {
  if (status === 204) return { description: 'Deleted; no content.' };
  const headers: NonNullable<OpenApiResponse['headers']> = {};
  if (etag) headers.ETag = { description: "The resource's version, as `meta.version`.", schema: { type: 'string' } };
  if (status === 201)
    headers.Location = { description: 'The new resource, as `meta.location`.', schema: { type: 'string' } };
  return {
    description: status === 201 ? 'Created.' : 'OK.',
    ...(Object.keys(headers).length ? { headers } : {}),
    content: scimContent(ref(schema ?? 'ScimDiscovery')),
  };
}

function operationOf(op: ScimOperation): OpenApiOperation {
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: `${op.access} Bodies are \`application/scim+json\` (\`application/json\` is accepted too).`,
    tags: [TAG],
    security: BEARER_ONLY,
    ...(op.permission ? { 'x-permission': op.permission } : {}),
    ...(op.parameters.length ? { parameters: op.parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: scimContent(ref(op.body)) } } : {}),
    responses: { [String(op.success.status)]: successOf(op.success), ...errorResponses(op.statuses, op.badRequest) },
  };
}

/** Every SCIM operation the door answers, as `METHOD /api/scim/v2/...` → its operation. */
export const scimOperations = () =>
  SCIM_OPERATIONS.map((op) => ({
    method: op.method,
    path: `${SCIM_PATH_PREFIX}${op.path}`,
    operation: operationOf(op),
  }));

/** `doc` with the SCIM door's operations, tag and schemas added (the REST door's are untouched). */
export function withScimDoor(doc: OpenApiDocument): OpenApiDocument {
  const paths = { ...doc.paths };
  for (const { method, path, operation } of scimOperations()) paths[path] = { ...paths[path], [method]: operation };
  return {
    ...doc,
    info: {
      ...doc.info,
      description: `${doc.info.description}\n\nThe SCIM 2.0 door under \`${SCIM_PATH_PREFIX}\` (tag \`${TAG}\`, RFC 7643/7644, cursor paging RFC 9865) is for identity providers: a bearer token only, \`application/scim+json\` both ways, and its errors are SCIM's (\`ScimError\`), not problem+json.`,
    },
    tags: [...doc.tags, { name: TAG }],
    paths,
    components: { ...doc.components, schemas: { ...doc.components.schemas, ...SCIM_COMPONENTS } },
  };
}

import { EMPTY_IS_ABSENT, ProblemSchema } from '@app/contracts';
import type { AnyRouter } from '@trpc/server';
import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/sessions.js';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiMediaType,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiPathItem,
  OpenApiResponse,
} from './openapi-types.js';
import { type RestRoute, restRoutes } from './routes.js';
import { inputInQuery } from '../trpc/init.js';
import { declareRefusedKeys } from './openapi-body-keys.js';
import { parametersOf } from './openapi-parameters.js';
import { portablePatterns } from './openapi-patterns.js';
import { permissionText, problemCodes, problemResponse } from './openapi-problems.js';
import {
  hasType,
  inputSchema,
  isZodSchema,
  propertiesOf,
  requiredOf,
  type SchemaConverter,
  schemaConverter,
} from './openapi-schemas.js';

export type * from './openapi-types.js';

const DESCRIPTION = `REST door of the user administration service: every route calls the same procedure as the SPA's tRPC door.

Authentication: the \`${SESSION_COOKIE}\` session cookie set by \`POST /api/auth/login\`, or \`Authorization: Bearer <token>\` with a personal API token (made at \`POST /api/tokens\` or with the CLI; a token acts with at most its owner's current permissions, narrowed to its scopes). Unsafe methods authenticated by cookie must come from the same origin.

Query strings use bracket notation. Object parameters are \`deepObject\` (\`filters[name]=ann\`, \`filters[created_between][from]=2024-01-01\`), a list inside one in brackets (\`filters[role_id][]=1&filters[role_id][]=2\`); list parameters repeat the name (\`with=roles&with=…\`, \`ids=1&ids=2\`); \`ids[]=1&ids[]=2\` is accepted as well. Text is trimmed, and an empty value is the same as leaving the parameter out (\`allowEmptyValue\`). Keywords (\`dir\`, \`format\`, \`filters[trashed]\`) are read in any case, booleans as \`true\`/\`false\` or \`1\`/\`0\`.

Each schema states what the server accepts, from the same zod schemas that validate: enums, formats, lengths, item counts, unique items and dependent keys. What JSON Schema cannot say is left to the server: a confirmation equal to its password, an expiry in the future, a role or address that exists or is free.

Every error is \`application/problem+json\` (RFC 9457), the \`Problem\` schema: \`code\` is stable, \`errors\` maps a dotted input path to messages, \`requestId\` identifies the request in the server's logs.`;

const PATH_PARAM = /\{(\w+)\}/g;
const SUCCESS_TEXT: Record<number, string> = { 200: 'OK.', 201: 'Created.', 202: 'Accepted.' };
const AUTHENTICATED: Array<Record<string, string[]>> = [{ cookieAuth: [] }, { bearerAuth: [] }];

/** A file as the body, in any of its media types, or as the `file` part of a multipart form. */
function uploadBody(mediaTypes: readonly string[]): OpenApiOperation['requestBody'] {
  const file = { type: 'string', format: 'binary' };
  const content = Object.fromEntries(
    mediaTypes.map((mediaType): [string, OpenApiMediaType] => [
      mediaType,
      {
        schema:
          mediaType === 'multipart/form-data'
            ? { type: 'object', properties: { file }, required: ['file'] }
            : { ...file, contentMediaType: mediaType },
      },
    ]),
  );
  return { required: true, content };
}

/** The body is the input minus what the path already carries; absent when nothing is left. */
function requestBodyOf(
  route: RestRoute,
  input: JsonSchema | null,
  pathParams: string[],
): OpenApiOperation['requestBody'] {
  if (route.rest.upload) return uploadBody(route.rest.upload.mediaTypes);
  if (!input || inputInQuery(route.rest)) return undefined;
  let schema = input;
  if (hasType(input, 'object') && input.properties) {
    const properties = Object.fromEntries(
      Object.entries(propertiesOf(input)).filter(([name]) => !pathParams.includes(name)),
    );
    const required = requiredOf(input).filter((name) => !pathParams.includes(name));
    const { required: _all, ...rest } = input;
    schema = { ...rest, properties, ...(required.length ? { required } : {}) };
    const open = input.additionalProperties !== undefined && input.additionalProperties !== false;
    if (Object.keys(properties).length === 0 && !open) return undefined;
  }
  return { required: requiredOf(schema).length > 0, content: { 'application/json': { schema } } };
}

function successResponse(route: RestRoute, output: JsonSchema | null): OpenApiResponse {
  const status = route.rest.status ?? 200;
  if (status === 204) return { description: 'Done; no content.' };
  if (status === 302) {
    return {
      description: 'Sends the browser on: see Location.',
      headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string' } } },
    };
  }
  const produces = route.rest.produces ?? [];
  if (produces.length === 0) {
    return {
      description: SUCCESS_TEXT[status] ?? 'Success.',
      content: { 'application/json': { schema: output ?? { type: 'object' } } },
    };
  }
  const content = Object.fromEntries(
    produces.map((mediaType): [string, OpenApiMediaType] => [
      mediaType,
      {
        schema: /[/+]json$/.test(mediaType)
          ? (output ?? {})
          : { type: 'string', format: 'binary', contentMediaType: mediaType },
      },
    ]),
  );
  return {
    description: `A file (${produces.join(', ')}), streamed.`,
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="…", the file name to save as.',
        schema: { type: 'string' },
      },
    },
    content,
  };
}

const sentence = (name: string) => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
};

function operationOf(route: RestRoute, convert: SchemaConverter): OpenApiOperation {
  const { procedurePath, rest, meta } = route;
  const pathParams = [...rest.path.matchAll(PATH_PARAM)].map((m) => m[1] as string);
  const converted = inputSchema(route, convert);
  // The contracts' mark that an empty query value is absent becomes `allowEmptyValue`.
  const emptyIsAbsent = converted?.[EMPTY_IS_ABSENT] === true;
  const { [EMPTY_IS_ABSENT]: _mark, ...unmarked } = converted ?? {};
  const input = converted ? unmarked : null;
  const outputParser: unknown = (route.procedure._def as { output?: unknown }).output;
  const output = isZodSchema(outputParser) ? convert(outputParser, 'output', `${procedurePath}.output`) : null;
  const parameters = parametersOf(route, input, pathParams, emptyIsAbsent);
  const requestBody = requestBodyOf(route, input, pathParams);
  const access = meta.public
    ? 'Public: answers without a session or token.'
    : meta.permission
      ? `Requires the \`${meta.permission}\` permission.`
      : 'Requires a session or a bearer token.';

  const responses: Record<string, OpenApiResponse> = rest.accepted
    ? {
        [String(rest.status ?? 200)]: successResponse(
          route,
          convert(rest.accepted.otherwise, 'output', `${procedurePath}.output`),
        ),
        '202': {
          description: 'Accepted: the work runs in the background; the answer is its job.',
          content: {
            'application/json': { schema: convert(rest.accepted.schema, 'output', `${procedurePath}.accepted`) },
          },
        },
      }
    : { [String(rest.status ?? 200)]: successResponse(route, output) };
  for (const [status, codes] of problemCodes(route, input, requestBody !== undefined, pathParams)) {
    responses[String(status)] = problemResponse(status, codes, permissionText(meta), Boolean(meta.permissionOf));
  }
  const operation: OpenApiOperation = {
    operationId: procedurePath,
    summary: rest.summary ?? sentence(procedurePath.split('.').at(-1) ?? procedurePath),
    description: access,
    // The module (first segment of the procedure path): /health, /ready and /openapi.json share `system`.
    tags: [procedurePath.split('.')[0] ?? procedurePath],
    security: meta.public ? [] : AUTHENTICATED,
    ...(meta.permission ? { 'x-permission': meta.permission } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
  return operation;
}

/**
 * The OpenAPI 3.1 document of every procedure with a REST door, generated from the router and
 * the contracts' zod schemas: a route added to the router is documented without further code.
 */
export function buildOpenApiDocument(router: AnyRouter, { version }: { version: string }): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  const convert = schemaConverter(schemas);
  schemas.Problem = convert(
    ProblemSchema.extend({
      requestId: z.string().optional().describe('Quote it to support: it finds the request in the logs.'),
    }),
    'output',
    'Problem',
  );
  const paths: Record<string, OpenApiPathItem> = {};
  const tags = new Set<string>();
  for (const route of restRoutes(router)) {
    const path = `/api${route.rest.path}`;
    const method = route.rest.method.toLowerCase() as OpenApiMethod;
    const item: OpenApiPathItem = paths[path] ?? {};
    paths[path] = item;
    if (item[method]) throw new Error(`Two procedures answer ${route.rest.method} ${path}.`);
    const operation = operationOf(route, convert);
    item[method] = operation;
    for (const tag of operation.tags) tags.add(tag);
  }
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'User administration API', version, description: DESCRIPTION },
    servers: [{ url: '/', description: 'This server' }],
    tags: [...tags].map((name) => ({ name })),
    security: AUTHENTICATED,
    paths,
    components: {
      schemas,
      securitySchemes: {
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session cookie set by POST /api/auth/login.',
        },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API token, made at POST /api/tokens or with the CLI.',
        },
      },
    },
  };
  declareRefusedKeys(doc);
  portablePatterns(doc);
  return doc;
}

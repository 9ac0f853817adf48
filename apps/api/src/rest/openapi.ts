import { ERRORS, type ErrorCode, ProblemSchema } from '@app/contracts';
import type { AnyRouter } from '@trpc/server';
import type { ProcedureMeta } from '../trpc/init.js';
import { z } from 'zod';
import { SESSION_COOKIE } from '../auth/sessions.js';
import { type RestRoute, restRoutes } from './bridge.js';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = { [keyword: string]: unknown };

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  description?: string;
  style?: 'simple' | 'form' | 'deepObject';
  explode?: boolean;
  schema: JsonSchema;
}

export interface OpenApiMediaType {
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse>;
  'x-permission'?: string;
}

export type OpenApiMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type OpenApiPathItem = Partial<Record<OpenApiMethod, OpenApiOperation>>;

export type OpenApiSecurityScheme =
  | { type: 'apiKey'; in: 'cookie'; name: string; description: string }
  | { type: 'http'; scheme: 'bearer'; description: string };

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, OpenApiPathItem>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, OpenApiSecurityScheme> };
}

const DESCRIPTION = `REST door of the user administration service: every route calls the same procedure as the SPA's tRPC door.

Authentication: the \`${SESSION_COOKIE}\` session cookie set by \`POST /api/auth/login\`, or \`Authorization: Bearer <token>\` with a personal API token (made at \`POST /api/tokens\` or with the CLI; a token acts with at most its owner's current permissions, narrowed to its scopes). Unsafe methods authenticated by cookie must come from the same origin.

Query strings use bracket notation. Object parameters are \`deepObject\` (\`filters[name]=ann\`, \`filters[created_between][from]=2024-01-01\`); list parameters repeat the name (\`with=roles&with=…\`, \`ids=1&ids=2\`); \`ids[]=1&ids[]=2\` is accepted as well.

Every error is \`application/problem+json\` (RFC 9457), the \`Problem\` schema: \`code\` is stable, \`errors\` maps a dotted input path to messages, \`requestId\` identifies the request in the server's logs.`;

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };
const PATH_PARAM = /\{(\w+)\}/g;
const SUCCESS_TEXT: Record<number, string> = { 200: 'OK.', 201: 'Created.', 202: 'Accepted.' };
const AUTHENTICATED: Array<Record<string, string[]>> = [{ cookieAuth: [] }, { bearerAuth: [] }];

const isZodSchema = (parser: unknown): parser is z.core.$ZodType =>
  typeof parser === 'object' && parser !== null && '_zod' in parser;

const hasType = (schema: JsonSchema | undefined, type: string) =>
  schema?.type === type || (Array.isArray(schema?.type) && schema.type.includes(type));

const propertiesOf = (schema: JsonSchema) => (schema.properties ?? {}) as Record<string, JsonSchema>;
const requiredOf = (schema: JsonSchema) => (schema.required ?? []) as string[];

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' ? [item] : refsIn(item),
  );
}

function mapRefs(value: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapRefs(item, rename));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' ? rename(item) : mapRefs(item, rename),
    ]),
  );
}

const componentName = (wanted: string) => wanted.replace(/[^\w.-]/g, '_');

/**
 * zod → JSON Schema, with the schema's own `$defs` (schemas given a `.meta({ id })`) and a
 * recursive root (`$ref: '#'`) moved to `components.schemas`: inside the document those refs
 * would resolve against the document's root, not the schema's. A def equal to a component of
 * the same name is shared; a different one (an input and an output of one id) gets a suffix.
 */
function schemaConverter(components: Record<string, JsonSchema>) {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return (schema: z.core.$ZodType, io: 'input' | 'output', rootName: string): JsonSchema => {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = converted;
    const defs = Object.entries(($defs ?? {}) as Record<string, JsonSchema>);
    // Every ref is named before anything is placed, so recursive refs point at the final names.
    const names = new Map<string, string>();
    const free = (wanted: string) => {
      const base = componentName(wanted);
      const taken = (name: string) => components[name] !== undefined || [...names.values()].includes(name);
      let name = base;
      for (let n = 2; taken(name); n++) name = `${base}_${n}`;
      return name;
    };
    const rename = (ref: string) => {
      const name = names.get(ref);
      return name === undefined ? ref : `#/components/schemas/${name}`;
    };
    if (refsIn([root, $defs]).includes('#')) names.set('#', free(rootName));
    for (const [id] of defs) names.set(`#/$defs/${id}`, componentName(id));
    for (const [id, def] of defs) {
      const existing = components[componentName(id)];
      if (existing !== undefined && !same(existing, mapRefs(def, rename))) names.set(`#/$defs/${id}`, free(id));
    }
    for (const [id, def] of defs) components[names.get(`#/$defs/${id}`) as string] = mapRefs(def, rename) as JsonSchema;
    const body = mapRefs(root, rename) as JsonSchema;
    const rootComponent = names.get('#');
    if (rootComponent === undefined) return body;
    components[rootComponent] = body;
    return { $ref: `#/components/schemas/${rootComponent}` };
  };
}

/** The procedure's input as one JSON Schema; tRPC merges chained `.input()` objects, so do we. */
function inputSchema(route: RestRoute, convert: ReturnType<typeof schemaConverter>): JsonSchema | null {
  const inputs = (route.procedure._def.inputs as unknown[]).filter(isZodSchema);
  if (inputs.length === 0) return null;
  const schemas = inputs.map((input, i) => convert(input, 'input', `${route.procedurePath}.input${i || ''}`));
  if (schemas.length === 1) return schemas[0] as JsonSchema;
  if (!schemas.every((s) => hasType(s, 'object'))) return { allOf: schemas };
  return {
    type: 'object',
    properties: Object.assign({}, ...schemas.map(propertiesOf)),
    required: [...new Set(schemas.flatMap(requiredOf))],
  };
}

function parametersOf(route: RestRoute, input: JsonSchema | null, pathParams: string[]): OpenApiParameter[] {
  const properties = input ? propertiesOf(input) : {};
  const params: OpenApiParameter[] = pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? (name === 'id' ? { type: 'integer', minimum: 1 } : { type: 'string' }),
  }));
  if (!input || (route.rest.method !== 'GET' && route.rest.method !== 'DELETE')) return params;
  const required = requiredOf(input);
  for (const [name, schema] of Object.entries(properties)) {
    if (pathParams.includes(name)) continue;
    const param: OpenApiParameter = { name, in: 'query', schema };
    if (required.includes(name)) param.required = true;
    if (typeof schema.description === 'string') param.description = schema.description;
    // deepObject: `filters[name]=…`, the notation the bridge parses. Lists repeat their name
    // (form + explode, OpenAPI's default and every generator's): `with=roles&with=…`.
    if (hasType(schema, 'object')) Object.assign(param, { style: 'deepObject', explode: true });
    else if (hasType(schema, 'array')) Object.assign(param, { style: 'form', explode: true });
    params.push(param);
  }
  return params;
}

/** The body is the input minus what the path already carries; absent when nothing is left. */
function requestBodyOf(
  route: RestRoute,
  input: JsonSchema | null,
  pathParams: string[],
): OpenApiOperation['requestBody'] {
  if (!input || route.rest.method === 'GET' || route.rest.method === 'DELETE') return undefined;
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

/** The permission a 403 names: the route's, or one per value of the input field that picks it. */
function permissionText(meta: ProcedureMeta): string | undefined {
  if (meta.permission) return `the \`${meta.permission}\` permission`;
  const by = meta.permissionOf;
  if (!by) return undefined;
  const each = Object.entries(by.permissions).map(([value, permission]) => `\`${permission}\` for \`${value}\``);
  return `the permission its \`${by.field}\` asks for (${each.join(', ')})`;
}

function problemResponse(status: number, codes: ErrorCode[], permission?: string): OpenApiResponse {
  const listed = codes.map((code) => `\`${code}\`: ${ERRORS[code].title}`).join(' ');
  const ceiling = codes.includes('OUTRANKED')
    ? ' `OUTRANKED`: the user holds a permission the caller lacks (the privilege ceiling); the detail names them.'
    : '';
  const description =
    status === 403 && permission
      ? `The caller lacks ${permission} (\`FORBIDDEN\`); the problem's \`permission\` names it.${ceiling}`
      : status === 422
        ? `${listed} A business rule's refusal carries the rule's own \`code\`.`
        : listed;
  const response: OpenApiResponse = {
    description,
    content: { 'application/problem+json': { schema: PROBLEM_REF } },
  };
  if (codes.includes('RATE_LIMITED')) {
    response.headers = { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } } };
  }
  return response;
}

/** The refusals a route can answer: implied by its guard, path and input, plus what it declares. */
function problemCodes(route: RestRoute, input: JsonSchema | null, body: boolean, pathParams: string[]) {
  const codes: ErrorCode[] = [];
  // A body is read before the procedure runs: unreadable, too large, or not JSON.
  if (body) codes.push('BAD_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (!route.meta.public) codes.push('UNAUTHENTICATED');
  // A permission fixed by the route, or picked by the input (bulk: one per operation).
  if (route.meta.permission || route.meta.permissionOf) codes.push('FORBIDDEN');
  if (pathParams.includes('id')) codes.push('NOT_FOUND');
  if (input) codes.push('VALIDATION_FAILED');
  codes.push(...(route.rest.problems ?? []));
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const { status } = ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus].sort(([a], [b]) => a - b);
}

const sentence = (name: string) => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
};

function operationOf(route: RestRoute, convert: ReturnType<typeof schemaConverter>): OpenApiOperation {
  const { procedurePath, rest, meta } = route;
  const pathParams = [...rest.path.matchAll(PATH_PARAM)].map((m) => m[1] as string);
  const input = inputSchema(route, convert);
  const outputParser: unknown = (route.procedure._def as { output?: unknown }).output;
  const output = isZodSchema(outputParser) ? convert(outputParser, 'output', `${procedurePath}.output`) : null;
  const parameters = parametersOf(route, input, pathParams);
  const requestBody = requestBodyOf(route, input, pathParams);
  const access = meta.public
    ? 'Public: answers without a session or token.'
    : meta.permission
      ? `Requires the \`${meta.permission}\` permission.`
      : 'Requires a session or a bearer token.';

  const responses: Record<string, OpenApiResponse> = { [String(rest.status ?? 200)]: successResponse(route, output) };
  for (const [status, codes] of problemCodes(route, input, requestBody !== undefined, pathParams)) {
    responses[String(status)] = problemResponse(status, codes, permissionText(meta));
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
  return {
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
}

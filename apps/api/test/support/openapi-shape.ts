// Checks of a generated OpenAPI document against the rules of OpenAPI 3.1, and lookups in it,
// for the tests of the app's document and of the generator.
// ajv is a devDependency of this package (test-only checks).
import Ajv2020 from 'ajv/dist/2020.js';
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from '../../src/rest/openapi.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function operations(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as OpenApiOperation })),
  );
}

export function op(doc: OpenApiDocument, method: string, path: string): OpenApiOperation {
  const found = operations(doc).find((o) => o.method === method && o.path === path);
  if (!found) throw new Error(`${method} ${path} is not documented`);
  return found.op;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' ? [item] : refsIn(item),
  );
}

/** Every JSON Schema the document embeds: components, parameters, bodies, responses, headers. */
function schemasIn(doc: OpenApiDocument): Array<[string, JsonSchema]> {
  const found: Array<[string, JsonSchema]> = Object.entries(doc.components.schemas).map(([n, s]) => [n, s]);
  for (const { path, method, op } of operations(doc)) {
    const at = `${method} ${path}`;
    for (const p of op.parameters ?? []) found.push([`${at} parameter ${p.name}`, p.schema]);
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
      found.push([`${at} body ${type}`, media.schema]);
    for (const [status, response] of Object.entries(op.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {}))
        found.push([`${at} ${status} ${type}`, media.schema]);
      for (const [name, header] of Object.entries(response.headers ?? {}))
        found.push([`${at} ${status} ${name}`, header.schema]);
    }
  }
  return found;
}

/** The rules of OpenAPI 3.1 a generated document could break; [] when it keeps them all. */
export function shapeProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  const fail = (message: string) => problems.push(message);
  if (!/^3\.1\.\d+$/.test(doc.openapi)) fail(`openapi is ${doc.openapi}`);
  if (!doc.info?.title || !doc.info?.version) fail('info needs title and version');
  const schemes = Object.keys(doc.components.securitySchemes);
  const tags = doc.tags.map((t) => t.name);
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/')) fail(`path ${path} must start with /`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const key of Object.keys(item)) {
      if (!(METHODS as readonly string[]).includes(key)) fail(`${path}: ${key} is not an HTTP method`);
    }
    for (const [method, operation] of Object.entries(item) as Array<[string, OpenApiOperation]>) {
      const at = `${method.toUpperCase()} ${path}`;
      if (ids.has(operation.operationId)) fail(`${at}: operationId ${operation.operationId} is not unique`);
      ids.add(operation.operationId);
      const statuses = Object.keys(operation.responses ?? {});
      if (statuses.length === 0) fail(`${at}: no responses`);
      for (const status of statuses) {
        if (!/^([1-5](\d\d|XX)|default)$/.test(status)) fail(`${at}: bad status ${status}`);
        if (typeof operation.responses[status]?.description !== 'string') fail(`${at} ${status}: no description`);
      }
      const params = operation.parameters ?? [];
      const keys = params.map((p) => `${p.in}:${p.name}`);
      if (new Set(keys).size !== keys.length) fail(`${at}: duplicate parameters`);
      for (const name of templated) {
        if (!params.some((p) => p.in === 'path' && p.name === name && p.required === true)) {
          fail(`${at}: path parameter ${name} is not declared as required`);
        }
      }
      for (const p of params) {
        if (p.in === 'path' && !templated.includes(p.name)) fail(`${at}: ${p.name} is not in the path`);
        if (p.style === 'deepObject' && p.in !== 'query') fail(`${at}: deepObject outside the query`);
      }
      // OpenAPI 3.1 admits a DELETE body (DELETE /account/two-factor carries the code that proves
      // the person); GET and HEAD never carry one.
      if (operation.requestBody && !['post', 'put', 'patch', 'delete'].includes(method))
        fail(`${at}: body on ${method}`);
      for (const requirement of operation.security) {
        for (const name of Object.keys(requirement)) if (!schemes.includes(name)) fail(`${at}: unknown scheme ${name}`);
      }
      for (const tag of operation.tags) if (!tags.includes(tag)) fail(`${at}: tag ${tag} not declared`);
    }
  }
  for (const ref of refsIn(doc)) if (resolvePointer(doc, ref) === undefined) fail(`$ref ${ref} does not resolve`);
  for (const name of Object.keys(doc.components.schemas)) {
    if (!/^[a-zA-Z0-9.\-_]+$/.test(name)) fail(`component name ${name} is not allowed`);
  }
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  for (const [where, schema] of schemasIn(doc)) {
    if (!ajv.validateSchema(schema)) fail(`${where}: not JSON Schema 2020-12: ${ajv.errorsText(ajv.errors)}`);
  }
  return problems;
}

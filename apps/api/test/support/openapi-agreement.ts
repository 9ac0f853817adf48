import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import qs from 'qs';
import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter } from '../../src/rest/openapi.js';

/**
 * The two sides of the OpenAPI agreement test (test/http/openapi-agreement.test.ts): a request
 * written the way a generated client writes it, and a validator built from the document alone,
 * reading it back. The inputs, made from the document's schemas (its examples and boundary
 * values), are openapi-cases.ts's.
 */

/** One request's input, as a client holds it: typed values; `undefined` leaves a value out. */
export interface ApiInput {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------------------------
// The client's side: a request written from typed values, as a generator does from the document.
// ---------------------------------------------------------------------------------------------

const scalarText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The query string a generated client writes: `deepObject` parameters in bracket notation (a
 * list inside one as `filters[role_id][]=1`), lists with `form` + `explode` as the name repeated.
 */
export function queryStringOf(operation: OpenApiOperation, query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const param of operation.parameters ?? []) {
    const value = query[param.name];
    if (param.in !== 'query' || value === undefined || value === null) continue;
    if (param.style === 'deepObject') {
      const text = qs.stringify({ [param.name]: value }, { arrayFormat: 'brackets', skipNulls: true });
      if (text) parts.push(text);
    } else {
      const values = Array.isArray(value) ? value : [value];
      for (const item of values)
        parts.push(`${encodeURIComponent(param.name)}=${encodeURIComponent(scalarText(item))}`);
    }
  }
  return parts.join('&');
}

export function urlOf(path: string, operation: OpenApiOperation, input: ApiInput): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input.path[name])));
  const query = queryStringOf(operation, input.query);
  return query ? `${filled}?${query}` : filled;
}

// ---------------------------------------------------------------------------------------------
// The document's side: a validator that knows nothing but the document.
// ---------------------------------------------------------------------------------------------

function dropEmpty(value: unknown): unknown {
  if (value === '') return undefined;
  if (Array.isArray(value)) {
    const items = value.map(dropEmpty).filter((item) => item !== undefined);
    return items.length ? items : undefined;
  }
  if (isObject(value)) {
    const entries = Object.entries(value)
      .map(([key, item]) => [key, dropEmpty(item)] as const)
      .filter(([, item]) => item !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value;
}

/**
 * Judges a request by the document: path and query values are read back from the URL as text
 * and coerced to their schema's types, as a server-side OpenAPI validator does (`?page=2` is the
 * integer 2); a parameter that allows an empty value may be sent empty, which is leaving it out;
 * the body is JSON and is taken as it is.
 */
export function documentJudge(doc: OpenApiDocument) {
  const ajvOf = (coerceTypes: false | 'array') => {
    const ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes });
    addFormats(ajv);
    return ajv;
  };
  const wire = ajvOf('array');
  const json = ajvOf(false);
  const compiled = new Map<Ajv2020, Map<JsonSchema, ValidateFunction>>([
    [wire, new Map()],
    [json, new Map()],
  ]);
  const validate = (ajv: Ajv2020, schema: JsonSchema, value: unknown): string | null => {
    const cache = compiled.get(ajv) as Map<JsonSchema, ValidateFunction>;
    let fn = cache.get(schema);
    if (!fn) {
      // Component refs (`#/components/schemas/…`) resolve against this root.
      fn = ajv.compile({ ...schema, components: doc.components });
      cache.set(schema, fn);
    }
    return fn(value) ? null : ajv.errorsText(fn.errors);
  };

  /**
   * A query parameter read as an OpenAPI request validator reads it: a `deepObject` by its
   * `name[key]` pairs, minus keys the operation documents as parameters of their own
   * (`filters[created_between][from]`); any other parameter by its exact name, repeated for a list.
   */
  const readParam = (
    operation: OpenApiOperation,
    param: OpenApiParameter,
    parsed: Record<string, unknown>,
    raw: URLSearchParams,
    input: ApiInput,
  ): unknown => {
    if (param.in === 'path') return input.path[param.name] === undefined ? undefined : String(input.path[param.name]);
    let value: unknown;
    if (param.style === 'deepObject') {
      value = parsed[param.name];
      if (isObject(value)) {
        const own = new Set(
          (operation.parameters ?? []).flatMap((p) => {
            const nested = /^(\w+)\[(\w+)\]\[/.exec(p.name);
            return nested && nested[1] === param.name ? [nested[2]] : [];
          }),
        );
        value = Object.fromEntries(Object.entries(value).filter(([key]) => !own.has(key)));
      }
    } else {
      const all = raw.getAll(param.name);
      // One value is a scalar; ajv's `coerceTypes: 'array'` reads it as a list where one is wanted.
      value = all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
    }
    return param.allowEmptyValue ? dropEmpty(value) : value;
  };

  return {
    /** Whether the document accepts `input` for `operation`, and why not. */
    judge(operation: OpenApiOperation, input: ApiInput): { accepts: boolean; why: string } {
      const text = queryStringOf(operation, input.query);
      const raw = new URLSearchParams(text);
      const parsed = qs.parse(text, {
        depth: 20,
        arrayLimit: 20_000,
        parameterLimit: 50_000,
      }) as Record<string, unknown>;
      for (const param of operation.parameters ?? []) {
        const value = readParam(operation, param, parsed, raw, input);
        if (value === undefined) {
          if (param.required) return { accepts: false, why: `${param.name} is required` };
          continue;
        }
        const problem = validate(wire, param.schema, value);
        if (problem) return { accepts: false, why: `${param.in} ${param.name}: ${problem}` };
      }
      const body = operation.requestBody;
      if (body) {
        const schema = body.content['application/json']?.schema ?? {};
        if (input.body === undefined)
          return body.required ? { accepts: false, why: 'no body' } : { accepts: true, why: '' };
        const problem = validate(json, schema, input.body);
        if (problem) return { accepts: false, why: `body: ${problem}` };
      }
      return { accepts: true, why: '' };
    },
    /** A JSON value against a schema, as the body is judged. */
    isValid: (schema: JsonSchema, value: unknown) => validate(json, schema, value) === null,
  };
}

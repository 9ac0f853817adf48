import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import qs from 'qs';
import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter } from '../../src/rest/openapi.js';

/**
 * The two sides of the OpenAPI agreement test (test/http/openapi-agreement.test.ts): inputs made
 * from a document's schemas (its examples and boundary values), and a validator built from the
 * document alone, reading a request the way a generated client writes it.
 */

/** One request's input, as a client holds it: typed values; `undefined` leaves a value out. */
export interface ApiInput {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
}

export interface Variant {
  label: string;
  value: unknown;
}

export type Where = 'path' | 'query' | 'body';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const omit = (value: Record<string, unknown>, key: string) => {
  const { [key]: _gone, ...rest } = value;
  return rest;
};

/** `text` cut or padded with `a` to `n` UTF-16 units. */
const fit = (text: string, n: number) => (n <= text.length ? text.slice(0, n) : text + 'a'.repeat(n - text.length));

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

// ---------------------------------------------------------------------------------------------
// Inputs: the documented examples, then boundary values of every keyword a schema states.
// ---------------------------------------------------------------------------------------------

const FORMAT_SAMPLES: Record<string, string> = {
  email: 'ann@example.com',
  uri: 'https://hooks.example.com/agreement',
  date: '2024-05-01',
  'date-time': '2024-05-01T09:30:00Z',
};

/** Values beside a format's sample: spellings each side might read differently. */
function formatVariants(format: unknown, seed: string): Variant[] {
  const v = (label: string, value: string) => ({ label: `${String(format)} ${label}`, value });
  switch (format) {
    case 'email':
      return [
        v('without a domain', 'ann'),
        v('without a top-level domain', 'ann@localhost'),
        v('with a one-letter top-level domain', 'ann@example.c'),
        v('with two @', 'ann@@example.com'),
        v('in capitals', seed.toUpperCase()),
        v('with a ! in the local part', 'ann!x@example.com'),
        v('with padding', ` ${seed} `),
      ];
    case 'uri':
      return [
        v('not a URL', 'not a url'),
        v('without a scheme', 'hooks.example.com/agreement'),
        v('ftp', 'ftp://hooks.example.com/agreement'),
        v('with a user and password', 'https://ann:secret@hooks.example.com/agreement'),
        v('with a fragment', `${seed}#part`),
        v('http', seed.replace(/^https:/, 'http:')),
        v('with a query', `${seed}?a=1`),
        v('with a non-ASCII path', `${seed}/ü`),
      ];
    case 'date':
      return [
        v('that does not exist', '2024-02-30'),
        v('leap day', '2024-02-29'),
        v('month 13', '2024-13-01'),
        v('without leading zeros', '2024-5-1'),
        v('a word', 'yesterday'),
      ];
    case 'date-time': {
      const at = seed.replace(/Z$/, '');
      return [
        v('with an offset', `${at}+02:00`),
        v('without a zone', at),
        v('without seconds', `${at.replace(/:\d\d(\.\d+)?$/, '')}Z`),
        v('with a space for T', seed.replace('T', ' ')),
        v('at hour 24', seed.replace(/T\d\d/, 'T24')),
        v('with a leap second', seed.replace(/:\d\d(\.\d+)?Z$/, ':60Z')),
        v('of a day that does not exist', seed.replace(/^(\d{4})-\d\d-\d\d/, '$1-02-30')),
      ];
    }
    default:
      return [];
  }
}

const typesOf = (schema: JsonSchema): Set<string> => {
  const types = new Set<string>(Array.isArray(schema.type) ? schema.type : schema.type ? [String(schema.type)] : []);
  if (types.size === 0 && Array.isArray(schema.enum))
    for (const m of schema.enum) types.add(m === null ? 'null' : typeof m);
  const textual = ['pattern', 'format', 'minLength', 'maxLength'].some((k) => k in schema);
  if (types.size === 0 && textual) types.add('string');
  if (types.has('integer')) types.delete('number');
  return types;
};

export class CaseMaker {
  constructor(
    private readonly doc: OpenApiDocument,
    private readonly isValid: (schema: JsonSchema, value: unknown) => boolean,
    /** Fields that must carry the same value (a password and its confirmation). */
    private readonly linked: Record<string, string> = {},
  ) {}

  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return schema;
    const target = this.doc.components.schemas[ref.slice('#/components/schemas/'.length)] ?? {};
    const { $ref: _ref, ...rest } = schema;
    return this.resolve({ ...target, ...rest });
  }

  /** anyOf/oneOf branches, each with the keywords around it. */
  private branches(schema: JsonSchema): JsonSchema[] {
    const { anyOf, oneOf, ...outer } = schema;
    const list = [...((anyOf as JsonSchema[] | undefined) ?? []), ...((oneOf as JsonSchema[] | undefined) ?? [])];
    return list.map((branch) => ({ ...outer, ...this.resolve(branch) }));
  }

  /** n items of `items`, distinct where the schema allows that many. */
  distinct(items: JsonSchema, n: number): unknown[] {
    const s = this.resolve(items);
    const members = Array.isArray(s.enum)
      ? s.enum
      : this.branches(s).flatMap((b) => (Array.isArray(b.enum) ? b.enum : []));
    if (members.length) return Array.from({ length: n }, (_, i) => members[i % members.length]);
    const types = typesOf(s);
    if (types.has('integer') || types.has('number')) {
      const lo =
        typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
      return Array.from({ length: n }, (_, i) => lo + i);
    }
    const first = this.sample(s);
    return Array.from({ length: n }, (_, i) => (typeof first === 'string' ? `${first}${i}` : first));
  }

  /** A value the schema accepts: a documented example first, else one made from its keywords. */
  sample(schema: JsonSchema): unknown {
    const s = this.resolve(schema);
    const candidates: unknown[] = [];
    if (Array.isArray(s.examples)) candidates.push(...s.examples);
    if ('const' in s) candidates.push(s.const);
    if (Array.isArray(s.enum)) candidates.push(...s.enum);
    if (s.default !== undefined) candidates.push(s.default);
    for (const branch of this.branches(s)) if (!typesOf(branch).has('null')) candidates.push(this.sample(branch));
    const types = typesOf(s);
    if (types.has('string')) {
      const min = typeof s.minLength === 'number' ? s.minLength : 1;
      if (typeof s.format === 'string' && FORMAT_SAMPLES[s.format]) candidates.push(FORMAT_SAMPLES[s.format]);
      candidates.push('a'.repeat(Math.max(min, 1)), 'Ann', 'ann@example.com', '2024-05-01', '203.0.113.7');
    }
    if (types.has('integer') || types.has('number')) {
      const lo =
        typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
      candidates.push(Math.max(lo, 1), lo);
    }
    if (types.has('boolean')) candidates.push(true);
    if (types.has('array')) {
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      const max = typeof s.maxItems === 'number' ? s.maxItems : min;
      candidates.push(this.distinct((s.items as JsonSchema) ?? {}, Math.min(Math.max(min, 1), max)));
    }
    if (types.has('object') || s.properties) {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      candidates.push(Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, this.sample(p)])));
    }
    if (types.has('null')) candidates.push(null);
    return candidates.find((value) => this.isValid(schema, value)) ?? candidates[0];
  }

  /** Boundary values of every keyword `schema` states, around a valid `seed`. */
  variants(schema: JsonSchema, seed: unknown, where: Where, depth = 0): Variant[] {
    const s = this.resolve(schema);
    const out: Variant[] = [{ label: 'a valid value', value: seed }];
    const add = (label: string, value: unknown) => out.push({ label, value });
    for (const branch of this.branches(s)) {
      const branchSeed = this.sample(branch);
      for (const v of this.variants(branch, branchSeed, where, depth)) add(v.label, v.value);
    }
    const types = typesOf(s);
    if (types.has('string')) this.strings(s, typeof seed === 'string' ? seed : String(this.sample(s)), where, add);
    if (types.has('integer') || types.has('number')) this.numbers(s, typeof seed === 'number' ? seed : 1, where, add);
    if (types.has('boolean')) {
      add('true', true);
      add('false', false);
      add('a word for a boolean', 'yes');
      if (where === 'body') add('"true" as text', 'true');
      if (where === 'body') add('1 for true', 1);
      if (where !== 'body') for (const word of ['1', '0', 'TRUE', 'False']) add(`${word} for a boolean`, word);
    }
    if (types.has('array') && depth < 3) this.arrays(s, seed, where, depth, add);
    if ((types.has('object') || s.properties) && depth < 3) this.objects(s, seed, where, depth, add);
    if (types.size === 0 && this.branches(s).length === 0) {
      // A schema that states nothing accepts anything: probe it with values of every kind.
      add('a word', 'not-a-value');
      add('a negative number', -1);
      add('a list of words', ['not-a-value']);
    }
    if (where === 'body' && depth > 0) add('null', null);
    if (where === 'body' && depth > 0 && !types.has('array')) add('a list', [seed]);
    const seen = new Set<string>();
    return out.filter((v) => {
      const key = v.value === undefined ? 'undefined' : JSON.stringify(v.value);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  private strings(s: JsonSchema, text: string, where: Where, add: (label: string, value: unknown) => void) {
    if (typeof s.minLength === 'number') {
      if (s.minLength > 0) add(`minLength-1 (${s.minLength - 1})`, fit(text, s.minLength - 1));
      add(`minLength (${s.minLength})`, fit(text, s.minLength));
    }
    if (typeof s.maxLength === 'number') {
      add(`maxLength (${s.maxLength})`, fit(text, s.maxLength));
      add(`maxLength+1 (${s.maxLength + 1})`, fit(text, s.maxLength + 1));
      // JSON Schema counts characters, JavaScript UTF-16 units: they differ outside the BMP.
      if (where !== 'path') add('maxLength characters ending in an emoji', `${fit(text, s.maxLength - 1)}😀`);
    }
    if (where !== 'path') {
      add('empty text', '');
      add('text with a right-to-left override', `${text}\u202e`);
    }
    if (where === 'body') add('blank text', '   ');
    const members = Array.isArray(s.enum) ? s.enum.filter((m): m is string => typeof m === 'string') : [];
    for (const member of members) add(`member ${member}`, member);
    if (members.length) {
      add('not a member', 'not-a-member');
      const upper = members[0]?.toUpperCase();
      if (upper !== undefined && upper !== members[0]) add(`member ${members[0]} in capitals`, upper);
    }
    for (const v of formatVariants(s.format, text)) add(v.label, v.value);
    if (where === 'path') add('text with a space', `${text} x`);
    if (where === 'body') add('a number for text', 12345);
  }

  private numbers(s: JsonSchema, seed: number, where: Where, add: (label: string, value: unknown) => void) {
    const lo =
      typeof s.minimum === 'number'
        ? s.minimum
        : typeof s.exclusiveMinimum === 'number'
          ? s.exclusiveMinimum + 1
          : undefined;
    const hi =
      typeof s.maximum === 'number'
        ? s.maximum
        : typeof s.exclusiveMaximum === 'number'
          ? s.exclusiveMaximum - 1
          : undefined;
    if (lo !== undefined) {
      add(`minimum-1 (${lo - 1})`, lo - 1);
      add(`minimum (${lo})`, lo);
    }
    if (hi !== undefined) {
      add(`maximum (${hi})`, hi);
      add(`maximum+1 (${hi + 1})`, hi + 1);
    }
    if (typesOf(s).has('integer')) add('a fraction', seed + 0.5);
    add('a word for a number', 'abc');
    if (where === 'body') add('a number as text', String(seed));
  }

  private arrays(
    s: JsonSchema,
    seed: unknown,
    where: Where,
    depth: number,
    add: (label: string, value: unknown) => void,
  ) {
    const items = (s.items ?? {}) as JsonSchema;
    const first = Array.isArray(seed) && seed.length ? seed[0] : this.sample(items);
    add('no items', []);
    if (typeof s.minItems === 'number') {
      if (s.minItems > 1) add(`minItems-1 (${s.minItems - 1})`, this.distinct(items, s.minItems - 1));
      add(`minItems (${s.minItems})`, this.distinct(items, s.minItems));
    }
    if (typeof s.maxItems === 'number') {
      add(`maxItems (${s.maxItems})`, this.distinct(items, s.maxItems));
      add(`maxItems+1 (${s.maxItems + 1})`, this.distinct(items, s.maxItems + 1));
    }
    if (!(typeof s.maxItems === 'number' && s.maxItems < 2)) add('an item twice', [first, first]);
    // In a query string one value and a list of one are the same text.
    if (where === 'body') add('one item, not in a list', first);
    for (const v of this.variants(items, first, where, depth + 1)) {
      if (v.value !== undefined) add(`an item: ${v.label}`, [v.value]);
    }
  }

  private objects(
    s: JsonSchema,
    seed: unknown,
    where: Where,
    depth: number,
    add: (label: string, value: unknown) => void,
  ) {
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const base = isObject(seed) ? seed : {};
    const required = (s.required ?? []) as string[];
    for (const [key, property] of Object.entries(properties)) {
      const partner = this.linked[key];
      const propertySeed = base[key] ?? this.sample(property);
      for (const v of this.variants(property, propertySeed, where, depth + 1)) {
        const next = { ...base, [key]: v.value };
        if (partner && partner in base) next[partner] = v.value;
        add(`${key}: ${v.label}`, next);
      }
      if (key in base) add(`${key} left out`, omit(base, key));
      if (partner)
        add(`${key}: a valid value, ${partner} left out`, omit({ ...base, [key]: this.sample(property) }, partner));
    }
    add('an unknown key', { ...base, zz_unknown: 'x' });
    if (where === 'body' && depth === 0) {
      add('not an object', 'x');
      const minimal = Object.fromEntries(Object.entries(base).filter(([key]) => required.includes(key)));
      add('required keys only', minimal);
      // Each member of an enum beside only the required keys: rules that tie one key to another.
      for (const [key, property] of Object.entries(properties)) {
        const members = this.resolve(property).enum;
        if (required.includes(key) && Array.isArray(members)) {
          for (const member of members)
            add(`required keys only, ${key} ${String(member)}`, { ...minimal, [key]: member });
        }
      }
    }
  }
}

import fc from 'fast-check';
import { withHiddenCharacter } from './fuzz-text.js';

/**
 * The values the fuzzer sends: hostile strings and numbers, JSON of every shape, and arbitraries
 * derived from a JSON Schema (the product's own: the OpenAPI document's parameters and bodies,
 * or a procedure's zod input), mostly well-typed with hostile values mixed in at every level.
 *
 * None of the hostile strings looks like what the oracle hunts for (SQL, a stack frame, a hash,
 * a token), so a value the product echoes back (a filter, a name) is never mistaken for a leak.
 */

export type JsonSchema = Record<string, unknown>;

/** Encoded as a raw JSON token instead of a string: `1e999`, `-0`, 30 digits. */
export const RAW_PREFIX = '\u0001raw:';
/** An object key written twice in the raw JSON: `{"ids":[1],"ids":"x"}`. */
export const DUP_PREFIX = '\u0001dup:';

const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', 'a\ud83d', '\ude00b'];

export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '   ',
  '\t\r\n',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\u0085',
  'a\u009bb',
  '\u200b',
  '\u200f',
  'a\u200db',
  '\ufeff',
  '\u202eevil\u202c',
  'Mallory\u202etxt.exe',
  '\u2066rtl\u2069',
  'a\u2028b',
  'שלום עולם',
  'مرحبا',
  '😀',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  'e\u0301',
  'ｆｕｌｌ＠ｗｉｄｔｈ．ｔｅｓｔ',
  'İstanbul',
  'ß',
  'Ω',
  ...LONE_SURROGATES,
  '%',
  '%%',
  '_',
  '\\',
  '\\\\%_',
  "'",
  '"',
  '`',
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  "') OR 1=1 --",
  '" OR ""="',
  '../../etc/passwd',
  '..\\..\\windows',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent as typed.
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '=HYPERLINK("http://x")',
  '+1',
  '-1',
  '@SUM(1)',
  'NaN',
  'Infinity',
  '-Infinity',
  'undefined',
  'null',
  'true',
  'false',
  'TRUE',
  '0',
  '-0',
  '00',
  '1e3',
  '1e309',
  '0x1f',
  '1_000',
  '١٢٣',
  '9'.repeat(30),
  '-9'.repeat(15),
  '2024-02-30',
  '2024-13-01',
  '0000-00-00',
  '9999-12-31T23:59:59Z',
  '2024-01-01T00:00:00+25:00',
  '1970-01-01',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'a@b',
  'user@example.com',
  ' USER@EXAMPLE.COM ',
  'admin@example.com',
  '@',
  'a@',
  'a'.repeat(101),
  'a'.repeat(256),
  `${'a'.repeat(250)}@x.test`,
  'x'.repeat(5000),
  '😀'.repeat(200),
];

export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  1.0000001,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  1e308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  10_000,
  10_001,
];

/** Raw number tokens JSON.stringify cannot write (it would write `null` or lose digits). */
const RAW_NUMBERS = ['1e999', '-1e999', '-0', '123456789012345678901234567890', '1.0', '1E2', '0.0000000000000000001'];

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

const loneSurrogates = fc
  .array(fc.integer({ min: 0xd800, max: 0xdfff }), { minLength: 1, maxLength: 3 })
  .map((codes) => String.fromCharCode(...codes));

/** Any string, weighted towards the ones that break things. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 4 }), loneSurrogates).map(([a, b]) => a + b) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '😀', ' ', '%', '\u0000'), fc.constantFrom(99, 100, 101, 254, 255, 256, 4096))
      .map(([unit, n]) => unit.repeat(n)),
  },
);

export const hostileNumber: fc.Arbitrary<number | string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((n) => `${RAW_PREFIX}${n}`) },
);

/** An object whose keys try to reach Object.prototype. */
const protoObject = fc
  .tuple(fc.constantFrom(...PROTO_KEYS), fc.oneof(fc.constant({ isAdmin: true }), hostileString, fc.constant(null)))
  .map(([key, value]) => {
    const o: Record<string, unknown> = {};
    Object.defineProperty(o, key, { value, enumerable: true, configurable: true, writable: true });
    return o;
  });

/**
 * Nested arrays or objects, 20 to 5 000 levels: parsers and validators that recurse. Written as
 * raw JSON text: a 5 000-level value would overflow the fuzzer's own stack before the server's.
 */
const deepNesting = fc
  .tuple(fc.constantFrom(20, 200, 5000), fc.boolean())
  .map(
    ([depth, arrays]) =>
      `${RAW_PREFIX}${arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`}`,
  );

/**
 * Lists at and past the bulk and export limits (10 000 ids). Only where a list of ids is
 * expected (see the `ids` hint of fuzz-world.ts): anywhere else they only make the fuzzer slow.
 */
export const bigIdList = fc
  .tuple(fc.constantFrom(1_000, 10_000, 10_001), fc.constantFrom('ids', 'same', 'strings'))
  .map(([n, kind]) => Array.from({ length: n }, (_, i) => (kind === 'ids' ? i + 1 : kind === 'same' ? 1 : `id-${i}`)));

/** A value of any type: what a caller sends where something else is expected. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 4, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom([], {}, [[]], [{}], [null], ['']) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: protoObject },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

export interface SchemaContext {
  /** Resolves a `$ref` of the document the schema came from. */
  resolve(ref: string): JsonSchema | undefined;
  /** Known-good values by property name (seeded e-mails, the test password, versions). */
  hints: Record<string, fc.Arbitrary<unknown>>;
  /** How often a hostile value replaces a well-typed one, 0–1. */
  hostility: number;
}

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 40;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const edges = [...new Set([min, max, max + 1, Math.max(0, min - 1)])].map((n) => 'x'.repeat(n));
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 30) }) },
    { weight: 1, arbitrary: fc.constantFrom(...edges) },
    // Every text field, now and then, with a character free text may not hold (fuzz-text.ts).
    { weight: 1, arbitrary: withHiddenCharacter },
  );
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
  const low = Math.max(exclusiveMin ?? min, -(2 ** 31));
  const high = Math.min(max, 2 ** 31);
  const edges = [low, high, low - 1, high + 1];
  return fc.oneof(
    {
      weight: 6,
      arbitrary: integer
        ? fc.integer({ min: low, max: Math.max(low, Math.min(high, 200)) })
        : fc.double({ noNaN: true }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...edges) },
  );
}

/**
 * An arbitrary for values of `schema`: well-typed values near its limits, and with probability
 * `ctx.hostility` at every node a hostile value instead. Objects get unknown and
 * prototype-touching keys now and then, and a key sent twice.
 */
export function fromSchema(schema: JsonSchema, ctx: SchemaContext, name = '', depth = 0): fc.Arbitrary<unknown> {
  const typed = wellTyped(schema, ctx, name, depth);
  const hint = ctx.hints[name];
  const good = hint ? fc.oneof({ weight: 2, arbitrary: hint }, { weight: 1, arbitrary: typed }) : typed;
  if (ctx.hostility <= 0) return good;
  const weight = Math.max(1, Math.round((1 - ctx.hostility) / ctx.hostility));
  return fc.oneof({ weight, arbitrary: good }, { weight: 1, arbitrary: hostileValue });
}

function wellTyped(schema: JsonSchema, ctx: SchemaContext, name: string, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (typeof schema.$ref === 'string') {
    const target = ctx.resolve(schema.$ref);
    // A recursive schema (zod's JSON type) is any JSON.
    return target && depth < 3 ? wellTyped(target, ctx, name, depth + 1) : fc.jsonValue({ maxDepth: 2 });
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      return fc.oneof(...(options as JsonSchema[]).map((s) => wellTyped(s, ctx, name, depth + 1)));
    }
  }
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as JsonSchema[]).map((s) => wellTyped(s, ctx, name, depth + 1));
    return fc
      .tuple(...parts)
      .map((values) =>
        values.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
          ? Object.assign({}, ...(values as object[]))
          : values[0],
      );
  }
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringFor(schema);
        case 'integer':
          return numberFor(schema, true);
        case 'number':
          return numberFor(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const items = (schema.items as JsonSchema | undefined) ?? {};
          const max = typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, 6) : 6;
          const min = typeof schema.minItems === 'number' ? Math.min(schema.minItems, max) : 0;
          return fc.array(fromSchema(items, ctx, name, depth + 1), { minLength: min, maxLength: max });
        }
        default:
          return objectFor(schema, ctx, depth);
      }
    }),
  );
}

function objectFor(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields = Object.entries(properties).map(([key, sub]) =>
    fc
      .tuple(
        fc.constant(key),
        // Required fields are mostly present, optional ones about half the time.
        fc.double({ min: 0, max: 1, noNaN: true }),
        fromSchema(sub, ctx, key, depth + 1),
      )
      .map(([k, roll, value]) => (roll < (required.has(k) ? 0.9 : 0.5) ? ([k, value] as const) : null)),
  );
  const extras = fc.oneof(
    { weight: 6, arbitrary: fc.constant([] as Array<readonly [string, unknown]>) },
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(fc.oneof(hostileString, fc.constantFrom(...PROTO_KEYS)), hostileValue), {
        maxLength: 3,
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...Object.keys(properties), 'x'), hostileValue)
        .map(([k, v]) => [[`${DUP_PREFIX}${k}`, v] as const]),
    },
  );
  return fc.tuple(fc.tuple(...fields), extras, fc.nat(3)).map(([present, extra, roll]) => {
    const o: Record<string, unknown> = {};
    for (const entry of [...present, ...extra]) {
      if (entry) Object.defineProperty(o, entry[0], { value: entry[1], enumerable: true, writable: true });
    }
    // Mostly a password is confirmed, as a form would: otherwise a create never gets through.
    if (roll > 0 && 'password' in o && 'password_confirmation' in properties) o.password_confirmation = o.password;
    return o;
  });
}

/**
 * JSON text for a generated value: raw-number and duplicate-key markers become what they stand
 * for. Lone surrogates are written as JSON escapes, as JSON.stringify does.
 */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  if (!text.includes('\\u0001')) return text;
  return text
    .replace(/"\\u0001raw:((?:[^"\\]|\\.)*)"/g, (_m, raw: string) => JSON.parse(`"${raw}"`) as string)
    .replace(/"\\u0001dup:((?:[^"\\]|\\.)*)"/g, (_m, key: string) => `"${key}"`);
}

/** Percent-encodes every byte outside the unreserved set; lone surrogates become U+FFFD as in any UTF-8 encoder. */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A generated value as a query-string value (strings as they are, markers unwrapped). */
function scalar(value: unknown): string {
  if (typeof value === 'string') return value.startsWith(RAW_PREFIX) ? value.slice(RAW_PREFIX.length) : value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export type ListStyle = 'brackets' | 'indices' | 'repeat';

/** `[name, value]` pairs in bracket notation: `filters[created_between][from]`, `ids[]`, `ids[3]`, `ids`. */
export function queryPairs(name: string, value: unknown, style: ListStyle, depth = 0): Array<[string, string]> {
  const key = name.startsWith(DUP_PREFIX) ? name.slice(DUP_PREFIX.length) : name;
  // 40 levels of brackets is ten times what the parser accepts; deeper adds nothing but stack.
  if (depth > 40) return [[key, '']];
  if (Array.isArray(value)) {
    return value.flatMap((item, i) =>
      typeof item === 'object' && item !== null
        ? queryPairs(`${key}[${i}]`, item, style, depth + 1)
        : [[style === 'brackets' ? `${key}[]` : style === 'indices' ? `${key}[${i}]` : key, scalar(item)]],
    );
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return [[`${key}[]`, '']];
    return entries.flatMap(([k, v]) => queryPairs(`${key}[${k}]`, v, style, depth + 1));
  }
  return [[key, scalar(value)]];
}

/** Raw fragments appended to a query string: what no encoder writes but any client can send. */
export const RAW_QUERY_FRAGMENTS: readonly string[] = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%FF%FE',
  '%00',
  '&&&',
  '=',
  '==x',
  '[',
  ']=1',
  '[]=1',
  'a[=1',
  'a]=1',
  'a[b=1',
  'a[][]=1',
  'a[0][1][2][3][4][5][6][7]=1',
  `a${'[b]'.repeat(40)}=1`,
  'filters[name][a][b][c][d][e]=x',
  'filters[created_between][from][x][y][z]=1',
  'ids[20]=1',
  'ids[9999]=1',
  'ids[10000]=1',
  'ids[999999999999]=1',
  'ids[-1]=1',
  'ids[1][x]=1',
  'ids[]=1&ids=2&ids[5]=3',
  '__proto__[isAdmin]=1',
  '__proto__=x',
  'constructor[prototype][isAdmin]=1',
  'filters[__proto__][role_id]=1',
  'filters[constructor][prototype][x]=1',
  'with[__proto__]=roles',
  'toString=x',
  'hasOwnProperty=x',
  `q=${'a'.repeat(300)}`,
  `${'n'.repeat(3000)}=1`,
  Array.from({ length: 250 }, (_, i) => `p${i}=1`).join('&'),
  Array.from({ length: 10_001 }, () => 'ids[]=1').join('&'),
  Array.from({ length: 10_201 }, () => 'x').join('&'),
  'page=1&page=2',
  'sort=id&sort=name',
  'dir=ASC&dir=desc',
  'q=a&q[]=b',
  'filters=x',
  'filters[]=x',
  'filters[trashed]=only&filters[trashed]=with',
  'format=csv&format=json',
  'withTrashed=1&withTrashed=0',
  'perPage=1e2',
  'page=0x10',
  'limit=-0',
];

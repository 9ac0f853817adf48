import fc from 'fast-check';

/**
 * The values the fuzzer sends: hostile strings and numbers, JSON of every shape. fuzz-schema.ts
 * derives arbitraries from a JSON Schema (the product's own: the OpenAPI document's parameters
 * and bodies, or a procedure's zod input), mostly well-typed with these mixed in at every level;
 * fuzz-encoding.ts writes them as JSON text and query strings.
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

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

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

import type { JsonSchema } from '../../src/rest/openapi.js';
import type { Variant, Where } from './openapi-cases.js';

// Boundary values of the keywords a string or number schema states, and spellings of its format.

type Add = (label: string, value: unknown) => void;

/** `text` cut or padded with `a` to `n` UTF-16 units. */
const fit = (text: string, n: number) => (n <= text.length ? text.slice(0, n) : text + 'a'.repeat(n - text.length));

export const FORMAT_SAMPLES: Record<string, string> = {
  email: 'ann@example.com',
  uri: 'https://hooks.example.com/agreement',
  iri: 'https://hooks.example.com/agreement',
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
    case 'iri':
      return [
        ...formatVariants('uri', seed).map(({ label, value }) => ({ label: label.replace(/^uri/, 'iri'), value })),
        v('with an internationalised host', 'https://bücher.example/agreement'),
        v('with a space', `${seed}/a b`),
        v('with braces in the host', 'https://ex{am}ple.com/agreement'),
        v('with a bar in the path', `${seed}/a|b`),
        v('with a stray %', `${seed}/100%`),
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

export const typesOf = (schema: JsonSchema): Set<string> => {
  const types = new Set<string>(Array.isArray(schema.type) ? schema.type : schema.type ? [String(schema.type)] : []);
  if (types.size === 0 && Array.isArray(schema.enum))
    for (const m of schema.enum) types.add(m === null ? 'null' : typeof m);
  const textual = ['pattern', 'format', 'minLength', 'maxLength'].some((k) => k in schema);
  if (types.size === 0 && textual) types.add('string');
  if (types.has('integer')) types.delete('number');
  return types;
};

/** Around `text`: its length limits, empty and odd text, its enum's members, its format's spellings. */
export function stringVariants(s: JsonSchema, text: string, where: Where, add: Add) {
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

/** Around `seed`: its limits, a fraction for an integer, a word, the number as text. */
export function numberVariants(s: JsonSchema, seed: number, where: Where, add: Add) {
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

import { DUP_PREFIX, RAW_PREFIX } from './fuzz-values.js';

// How a generated value goes on the wire: JSON text with its markers written out, query strings,
// and the raw query fragments no encoder writes.

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

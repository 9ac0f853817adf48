import qs from 'qs';

/**
 * Hard limits of {@link parseQueryString}. The numbers follow from the largest legitimate request,
 * an export of a 10 000-row selection (`ids[]=…` 10 000 times plus the list query):
 *
 * - `maxParameters` 10 200: `&`-separated parts, counted before anything is decoded, so a flood
 *   fails in microseconds. 10 000 list entries + 200 other parameters.
 * - `maxNames` 200: distinct names once list entries (`ids[]`, `ids[3]`) are grouped under their
 *   list. This is what keeps qs cheap: it only ever sees 200 keys, whatever the input.
 * - `maxListLength` 10 000: entries of one list; 10 001 `ids[]` fails here, before validation.
 * - `depth` 4 bracket levels after the name (`filters[created_between][from]` uses 2; a trailing
 *   `[]` does not count); deeper input fails rather than being silently flattened.
 * - `arrayLimit` 20: for an index in the middle of a key (`a[3][b]`), the only index qs still
 *   sees. A larger one fails instead of allocating a sparse array.
 */
export const QUERY_STRING_LIMITS = {
  maxParameters: 10_200,
  maxNames: 200,
  maxListLength: 10_000,
  depth: 4,
  arrayLimit: 20,
} as const;

export type QueryStringLimits = { readonly [K in keyof typeof QUERY_STRING_LIMITS]: number };

export type QueryStringProblem = 'parameters' | 'names' | 'list' | 'depth' | 'array';

/** A query string over one of the hard limits. The server answers it with a 400 or 422. */
export class QueryStringError extends Error {
  override readonly name = 'QueryStringError';

  constructor(
    readonly problem: QueryStringProblem,
    message: string,
  ) {
    super(message);
  }
}

// `ids[]` or `ids[12]` at the end of a key: a list entry, grouped here in one pass because qs
// merges repeated or indexed keys one at a time, which costs O(n²) for long lists.
const LIST_ENTRY = /^(.+?)\[(\d*)\]$/;

type ListEntries = { indexed: Array<[number, string]>; appended: string[] };

function countParts(raw: string, limits: QueryStringLimits): void {
  let parts = 1;
  for (let at = raw.indexOf('&'); at !== -1; at = raw.indexOf('&', at + 1)) {
    parts += 1;
    if (parts > limits.maxParameters) {
      throw new QueryStringError(
        'parameters',
        `The query string has too many parameters (at most ${limits.maxParameters}).`,
      );
    }
  }
}

function tooLong(limits: QueryStringLimits): QueryStringError {
  return new QueryStringError(
    'list',
    `A list in the query string has too many entries (at most ${limits.maxListLength}).`,
  );
}

function group(raw: string, limits: QueryStringLimits) {
  const scalars = new Map<string, string[]>();
  const lists = new Map<string, ListEntries>();
  for (const [key, value] of new URLSearchParams(raw)) {
    const entry = LIST_ENTRY.exec(key);
    if (!entry) {
      const values = scalars.get(key) ?? [];
      values.push(value);
      scalars.set(key, values);
      continue;
    }
    const [, name = '', index = ''] = entry;
    const list = lists.get(name) ?? { indexed: [], appended: [] };
    lists.set(name, list);
    if (index === '') {
      list.appended.push(value);
    } else {
      if (Number(index) >= limits.maxListLength) throw tooLong(limits);
      list.indexed.push([Number(index), value]);
    }
    if (list.appended.length + list.indexed.length > limits.maxListLength) throw tooLong(limits);
  }
  return { scalars, lists };
}

function flatten(raw: string, limits: QueryStringLimits): Record<string, string | string[]> {
  const { scalars, lists } = group(raw, limits);
  const names = new Set([...scalars.keys(), ...lists.keys()]);
  if (names.size > limits.maxNames) {
    throw new QueryStringError(
      'names',
      `The query string has too many different parameters (at most ${limits.maxNames}).`,
    );
  }
  // A null prototype so that a `__proto__` name is plain data here; qs then drops it.
  const flat: Record<string, string | string[]> = Object.create(null);
  for (const [name, values] of scalars) flat[name] = values.length === 1 ? (values[0] ?? '') : values;
  for (const [name, list] of lists) {
    const ordered = list.indexed.sort((a, b) => a[0] - b[0]).map(([, value]) => value);
    const before = flat[name];
    const head = before === undefined ? [] : Array.isArray(before) ? before : [before];
    const all = [...head, ...ordered, ...list.appended];
    if (all.length > limits.maxListLength) throw tooLong(limits);
    flat[name] = all;
  }
  return flat;
}

function translate(error: unknown, limits: QueryStringLimits): never {
  if (error instanceof RangeError && /depth/i.test(error.message)) {
    throw new QueryStringError(
      'depth',
      `The query string is too deeply nested (at most ${limits.depth} levels of brackets).`,
    );
  }
  if (error instanceof RangeError && /array limit/i.test(error.message)) {
    throw new QueryStringError(
      'array',
      `A list index inside a query string key is too large (at most ${limits.arrayLimit - 1}).`,
    );
  }
  throw error;
}

/**
 * Parses a raw query string (with or without the leading `?`) in bracket notation into nested
 * objects and arrays of strings. Names that would touch `Object.prototype` (`__proto__`,
 * `constructor`, `toString`, …) are dropped. Throws {@link QueryStringError} over a limit.
 */
export function parseQueryString(raw: string, overrides: Partial<QueryStringLimits> = {}): Record<string, unknown> {
  const limits: QueryStringLimits = { ...QUERY_STRING_LIMITS, ...overrides };
  const query = raw.startsWith('?') ? raw.slice(1) : raw;
  countParts(query, limits);
  const flat = flatten(query, limits);
  try {
    // qs takes pre-split values, lists included, though its types only admit strings.
    return qs.parse(flat as Record<string, string>, {
      depth: limits.depth,
      strictDepth: true,
      arrayLimit: limits.arrayLimit,
      throwOnLimitExceeded: true,
      parameterLimit: limits.maxNames,
      allowPrototypes: false,
      allowDots: false,
      comma: false,
    });
  } catch (error) {
    return translate(error, limits);
  }
}

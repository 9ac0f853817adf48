import { type Filter, parse } from 'scim2-parse-filter';
import { invalidFilter } from '../scim-error.js';

/**
 * Bounds on a filter (RFC 7644 leaves them to the service provider): 1 000 characters, and at
 * most 10 levels of nesting (and/or/not/grouping/value paths), so a hostile filter can neither
 * make a huge statement nor recurse deeply. Identity providers send one or two comparisons.
 */
export const MAX_FILTER_LENGTH = 1000;
export const MAX_FILTER_DEPTH = 10;

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type FilterValue = string | number | boolean | null;

/** A parsed filter, attribute paths as sent (the translation resolves them). */
export type FilterNode =
  | { op: 'and' | 'or'; filters: FilterNode[] }
  | { op: 'not'; filter: FilterNode }
  | { op: CompareOp; path: string; value: FilterValue }
  | { op: 'pr'; path: string }
  | { op: '[]'; path: string; filter: FilterNode };

/** A JSON string (RFC 7644's compValue strings are JSON's). */
const QUOTED = /"(?:[^"\\]|\\.)*"/gs;

/**
 * Parses a filter with scim2-parse-filter, around two faults of its 0.2.10:
 * - its strings are not JSON's (it doubles every backslash not before a quote, so `"a\\b"` reads
 *   as two backslashes and a value ending in a backslash cannot be written at all): every quoted
 *   string is read here with JSON.parse and handed to the library as a placeholder (`"0"`, `"1"`…);
 * - `true`/`false`/`null` must be lower-case for it; they are lowered, as a client that writes `True`
 *   (the spelling Entra uses for booleans elsewhere) means the same.
 * A value path followed by a sub-attribute (`emails[type eq "work"].value eq "x"`, not in the
 * RFC's filter grammar but sent) comes back from it as the value path AND `emails.value eq "x"`:
 * for this product's one-element attributes, the same. A syntax error is an `invalidFilter`
 * naming what was wrong, never a 500.
 */
export function parseFilter(text: string): FilterNode {
  if (text.length > MAX_FILTER_LENGTH) {
    throw invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  }
  const strings: string[] = [];
  if (text.replace(QUOTED, '').includes('"')) throw invalidFilter('The filter has a string without its closing quote.');
  const masked = text.replace(QUOTED, (quoted) => {
    try {
      strings.push(JSON.parse(quoted) as string);
    } catch {
      throw invalidFilter(`The filter's string ${quoted} is not a valid JSON string.`);
    }
    return `"${strings.length - 1}"`;
  });
  let parsed: Filter;
  try {
    parsed = parse(masked.replace(/\b(true|false|null)\b/gi, (w) => w.toLowerCase()));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidFilter(`The filter is not valid SCIM filter syntax (RFC 7644 §3.4.2.2): ${reason}`);
  }
  return restore(parsed, strings, 1);
}

function restore(f: Filter, strings: string[], depth: number): FilterNode {
  if (depth > MAX_FILTER_DEPTH) {
    throw invalidFilter(`The filter nests deeper than ${MAX_FILTER_DEPTH} levels.`);
  }
  switch (f.op) {
    case 'and':
    case 'or':
      return { op: f.op, filters: (f as { filters: Filter[] }).filters.map((c) => restore(c, strings, depth + 1)) };
    case 'not':
      return { op: 'not', filter: restore((f as { filter: Filter }).filter, strings, depth + 1) };
    case '[]': {
      const v = f as { attrPath: string; valFilter: Filter };
      return { op: '[]', path: v.attrPath, filter: restore(v.valFilter, strings, depth + 1) };
    }
    case 'pr':
      return { op: 'pr', path: (f as { attrPath: string }).attrPath };
    default: {
      const c = f as { op: CompareOp; attrPath: string; compValue: FilterValue };
      // Every string the library saw is a placeholder: its index into `strings`.
      const value = typeof c.compValue === 'string' ? (strings[Number(c.compValue)] ?? '') : c.compValue;
      return { op: c.op, path: c.attrPath, value };
    }
  }
}

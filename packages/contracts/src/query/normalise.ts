/**
 * The generic normalisation of SPEC §5, as pure functions. Steps 1–2 (trim, empty → absent) run
 * over the whole raw input before validation ({@link normaliseRaw}); the value-specific steps
 * (boolean words, lower-cased keywords, numeric strings, swapped bounds) run inside the schema of
 * the one field whose form calls for them, so a text filter holding "1" stays the text "1".
 */

export type Direction = 'asc' | 'desc';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Input comes from qs (4 levels) or a JSON body; nothing we accept is deeper than this, so a
// hostile, deeply nested body is left for validation to reject instead of overflowing the stack.
const MAX_NORMALISE_DEPTH = 16;

function normaliseAt(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (depth >= MAX_NORMALISE_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => normaliseAt(item, depth + 1)).filter((item) => item !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // Never a field name, and assigning it would replace `out`'s prototype.
      if (key === '__proto__') continue;
      const normalised = normaliseAt(item, depth + 1);
      if (normalised !== undefined) out[key] = normalised;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

/**
 * Steps 1 and 2: every string trimmed; an empty string is absent, and so is an array or object
 * left empty by that (`filters[created_between][from]=` means "no date filter", `role_id[]=`
 * means "any role"). Array entries that become empty are dropped.
 */
export function normaliseRaw(value: unknown): unknown {
  return normaliseAt(value, 0);
}

const TRUE_WORDS = new Set(['true', '1']);
const FALSE_WORDS = new Set(['false', '0']);

/** `true/false/1/0` in any case (or the numbers 1/0) → a boolean; anything else unchanged. */
export function toBooleanish(value: unknown): unknown {
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : value;
  if (typeof value !== 'string') return value;
  const word = value.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return value;
}

// Plain decimal notation only: `Number()` would also read '', ' ', '0x1f' and '1e3'.
const DECIMAL = /^[+-]?\d{1,20}(\.\d{1,20})?$/;

/** A decimal string → a number; anything else unchanged, for validation to reject. */
export function toNumberish(value: unknown): unknown {
  return typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
}

export function toLowerCase(value: unknown): unknown {
  return typeof value === 'string' ? value.toLowerCase() : value;
}

/** A single value or a list → a list; absent stays absent. */
export function toList(value: unknown): unknown {
  return value === undefined || Array.isArray(value) ? value : [value];
}

export function dedupe<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

// Only text that is plainly an ISO date is compared as an instant: `Date.parse('5')` is a date too.
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}(T|$)/i;

function instant(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'string' && ISO_LIKE.test(value) ? Date.parse(value) : Number.NaN;
}

/** Orders two filter bounds: numbers numerically, Dates and ISO strings as instants, else as text. */
export function compareBounds(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const ta = instant(a);
  const tb = instant(b);
  if (!Number.isNaN(ta) && !Number.isNaN(tb)) return ta - tb;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** `from > to` is a mistake, not a request for nothing: the bounds are swapped. */
export function orderBounds<T>(from: T | undefined, to: T | undefined): { from?: T; to?: T } {
  const swap = from !== undefined && to !== undefined && compareBounds(from, to) > 0;
  const [lower, upper] = swap ? [to, from] : [from, to];
  return {
    ...(lower !== undefined ? { from: lower } : {}),
    ...(upper !== undefined ? { to: upper } : {}),
  };
}

/**
 * JSON Schema's `pattern` is an ECMAScript regular expression, read with the `u` flag (ajv, the
 * SPA, the server's own zod checks). Tools written in Python (Schemathesis, jsonschema) read it
 * with `re`, which has no `\p{…}` and no `\u{…}`, and reads `\d`, `\w`, `\s` and `.` over other
 * characters (`\d` takes `٣`, `\s` takes U+001C but not U+FEFF, `.` takes U+2028). For the
 * OpenAPI document, `portablePattern` rewrites each of those as an explicit class of code-point
 * ranges, computed from the pattern itself by the engine that enforces it, so the two cannot
 * drift: `[^\p{Cc}…]` becomes `[^\u0000-\u001F\u007F-\u009F…]`. What both engines already read
 * alike is kept as written.
 *
 * Left as it is: `$`, which Python also matches before a final line break (the server trims text
 * and refuses a line break inside it); `\b`; named groups and back-references (unused here).
 */

const LAST_CODE_POINT = 0x10ffff;

/** Inclusive ranges of code points, ascending. */
type Ranges = Array<[number, number]>;

const rangesCache = new Map<string, Ranges>();

/** The code points one character class (or a one-character atom) matches, by trying each. */
function rangesOf(atom: string): Ranges {
  const cached = rangesCache.get(atom);
  if (cached) return cached;
  const matches = new RegExp(`^${atom}$`, 'u');
  const ranges: Ranges = [];
  let start = -1;
  for (let cp = 0; cp <= LAST_CODE_POINT + 1; cp++) {
    const inside = cp <= LAST_CODE_POINT && matches.test(String.fromCodePoint(cp));
    if (inside && start < 0) start = cp;
    if (!inside && start >= 0) {
      ranges.push([start, cp - 1]);
      start = -1;
    }
  }
  rangesCache.set(atom, ranges);
  return ranges;
}

function complement(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= LAST_CODE_POINT) out.push([next, LAST_CODE_POINT]);
  return out;
}

/**
 * One code point as both engines read it inside a class: letters and digits as themselves, the
 * rest of the BMP as `\uXXXX`, and beyond it the character itself, since neither engine reads
 * the other's escape for it (`\u{1F600}`, `\U0001F600`).
 */
function written(cp: number): string {
  if (cp > 0xffff) return String.fromCodePoint(cp);
  const c = String.fromCharCode(cp);
  return /[0-9A-Za-z]/.test(c) ? c : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

const isLowSurrogate = ([from]: [number, number]) => from >= 0xdc00 && from <= 0xdfff;

function classOf(ranges: Ranges, negated: boolean): string {
  if (ranges.length === 0) return negated ? `[\\u0000-${written(LAST_CODE_POINT)}]` : '(?!)';
  // With the u flag, `\uD83D\uDE00` is one code point: a range starting at a low surrogate goes
  // first, so no escape of one ever follows the escape of a high surrogate.
  const ordered = [...ranges.filter(isLowSurrogate), ...ranges.filter((r) => !isLowSurrogate(r))];
  const items = ordered.map(([from, to]) => (from === to ? written(from) : `${written(from)}-${written(to)}`));
  return `[${negated ? '^' : ''}${items.join('')}]`;
}

/**
 * The class matching what `atom` matches: negated where the atom is a negated class (so
 * `[^\p{Cc}…]` still lists what it refuses), else in whichever form is shorter (`\S`: `[^…]`).
 */
function explicitClass(atom: string): string {
  const ranges = rangesOf(atom);
  const outside = complement(ranges);
  const negated = atom.startsWith('[^') || (!atom.startsWith('[') && outside.length < ranges.length);
  return negated ? classOf(outside, true) : classOf(ranges, false);
}

/** Where the class opening at `start` ends (just past its `]`). */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  for (; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i + 1;
  }
  throw new Error(`Unterminated character class in pattern: ${source}`);
}

/** A class needs rewriting when it holds an escape Python lacks or reads otherwise, or is empty. */
const NOT_PORTABLE_CLASS = /\\[pPdDwWsS]|\\u\{|\\u[Dd][89A-Fa-f]|[\u0080-\u{10FFFF}]|^\[\^?\]$/u;

/** `pattern` in the form both ECMAScript (`u` flag) and Python's `re` read alike. */
export function portablePattern(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    const next = pattern[i + 1] ?? '';
    if (c === '[') {
      const end = classEnd(pattern, i);
      const cls = pattern.slice(i, end);
      out += NOT_PORTABLE_CLASS.test(cls) ? explicitClass(cls) : cls;
      i = end;
    } else if (c === '\\' && (next === 'p' || next === 'P' || (next === 'u' && pattern[i + 2] === '{'))) {
      const end = pattern.indexOf('}', i) + 1;
      out += explicitClass(pattern.slice(i, end));
      i = end;
    } else if (
      c === '\\' &&
      /^u[Dd][89AaBb][0-9A-Fa-f]{2}\\u[Dd][C-Fc-f][0-9A-Fa-f]{2}$/.test(pattern.slice(i + 1, i + 12))
    ) {
      // A surrogate pair written as two escapes: one code point with the u flag, two in Python.
      out += explicitClass(pattern.slice(i, i + 12));
      i += 12;
    } else if (c === '\\' && 'dDwWsS'.includes(next)) {
      out += explicitClass(pattern.slice(i, i + 2));
      i += 2;
    } else if (c === '\\') {
      out += pattern.slice(i, i + 2);
      i += 2;
    } else if (c === '.') {
      out += explicitClass('.');
      i += 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

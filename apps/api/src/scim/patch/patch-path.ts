import { type Filter, parse, Tester } from 'scim2-parse-filter';
import { invalidFilter, invalidPath } from '../scim-error.js';

/**
 * A PATCH `path` (RFC 7644 §3.5.2: `attrPath / valuePath [subAttr]`, optionally prefixed by a
 * schema URN), taken apart. Names are lower-cased: SCIM attribute names are case-insensitive.
 */
export interface PatchPath {
  /** The schema URN the path names, or the resource's core schema when it names none. */
  schema: string;
  /** Absent when the path is a bare extension URN (its value is the extension's object). */
  attr: string | undefined;
  filter: Filter | undefined;
  sub: string | undefined;
  text: string;
}

const ATTR_PATH = /^([A-Za-z][\w$-]*)(?:\[(.*)\])?(?:\.([A-Za-z][\w$-]*))?$/s;

export function parsePath(text: string, core: string, extensions: readonly string[] = []): PatchPath {
  const lower = text.toLowerCase();
  let schema = core;
  let rest = text;
  if (lower.startsWith('urn:')) {
    const urn = [core, ...extensions].find((u) => lower === u.toLowerCase() || lower.startsWith(`${u.toLowerCase()}:`));
    if (urn === undefined) throw invalidPath(`"${text}" names a schema this resource does not have.`);
    schema = urn;
    if (lower === urn.toLowerCase()) {
      if (urn === core) throw invalidPath(`"${text}" names a schema, not an attribute.`);
      return { schema, attr: undefined, filter: undefined, sub: undefined, text };
    }
    rest = text.slice(urn.length + 1);
  }
  const m = ATTR_PATH.exec(rest);
  if (!m?.[1]) throw invalidPath(`"${text}" is not a valid attribute path.`);
  return {
    schema,
    attr: m[1].toLowerCase(),
    filter: m[2] === undefined ? undefined : parseFilter(m[2], text),
    sub: m[3]?.toLowerCase(),
    text,
  };
}

function parseFilter(filter: string, path: string): Filter {
  try {
    return parse(filter);
  } catch {
    throw invalidFilter(`The filter in "${path}" is not a valid SCIM filter.`);
  }
}

/**
 * Compares as RFC 7643 says for the sub-attributes PATCH filters name here (emails' `value` and
 * `type`, members' `value`): strings are not case-exact. The library's own tester compares exactly.
 */
class CaseInsensitiveTester extends Tester {
  private static fold(v: unknown): unknown {
    return typeof v === 'string' ? v.toLowerCase() : v;
  }
  override eq(r: unknown, v: string | number | boolean | null): boolean {
    return CaseInsensitiveTester.fold(r) === CaseInsensitiveTester.fold(v);
  }
  override ne(r: unknown, v: string | number | boolean | null): boolean {
    return !this.eq(r, v);
  }
  override co(r: unknown, v: string | number | boolean | null): boolean {
    return typeof r === 'string' && typeof v === 'string' && r.toLowerCase().includes(v.toLowerCase());
  }
  override sw(r: unknown, v: string | number | boolean | null): boolean {
    return typeof r === 'string' && typeof v === 'string' && r.toLowerCase().startsWith(v.toLowerCase());
  }
  override ew(r: unknown, v: string | number | boolean | null): boolean {
    return typeof r === 'string' && typeof v === 'string' && r.toLowerCase().endsWith(v.toLowerCase());
  }
}

const tester = new CaseInsensitiveTester();

/** Whether one value of a multi-valued attribute matches a path's value filter. */
export function matchesFilter(filter: Filter, value: object): boolean {
  return tester.test(value, filter);
}

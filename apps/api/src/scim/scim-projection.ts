import { SCIM_SCHEMAS } from '@app/contracts';

/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9): which attributes of a
 * resource an answer carries. `id` and `schemas` are always returned. Attribute names are
 * case-insensitive and may carry their schema's URN; a sub-attribute (`name.familyName`,
 * `emails.value`, an extension's `…:User:department`) selects inside its parent.
 */

const ALWAYS = new Set(['id', 'schemas']);
const CORE_PREFIXES = [SCIM_SCHEMAS.user, SCIM_SCHEMAS.group].map((u) => `${u.toLowerCase()}:`);
const EXTENSION = SCIM_SCHEMAS.enterpriseUser.toLowerCase();

interface Path {
  top: string;
  sub: string | null;
}

function pathOf(raw: string): Path {
  let name = raw.trim().toLowerCase();
  if (name.startsWith(`${EXTENSION}:`)) return { top: EXTENSION, sub: name.slice(EXTENSION.length + 1) };
  if (name === EXTENSION) return { top: EXTENSION, sub: null };
  for (const prefix of CORE_PREFIXES) if (name.startsWith(prefix)) name = name.slice(prefix.length);
  const dot = name.indexOf('.');
  return dot === -1 ? { top: name, sub: null } : { top: name.slice(0, dot), sub: name.slice(dot + 1) };
}

type Resource = Record<string, unknown>;

/** Keeps (`keep`) or drops the sub-attributes `subs` of a complex or multi-valued value. */
function narrow(value: unknown, subs: Set<string>, keep: boolean): unknown {
  const pick = (o: Resource) =>
    Object.fromEntries(Object.entries(o).filter(([k]) => subs.has(k.toLowerCase()) === keep));
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' && v !== null ? pick(v as Resource) : v));
  return typeof value === 'object' && value !== null ? pick(value as Resource) : value;
}

function grouped(paths: readonly string[]): Map<string, Set<string> | null> {
  const byTop = new Map<string, Set<string> | null>();
  for (const { top, sub } of paths.map(pathOf)) {
    if (sub === null) byTop.set(top, null);
    else if (byTop.get(top) !== null) byTop.set(top, new Set([...(byTop.get(top) ?? []), sub]));
  }
  return byTop;
}

export function project<T extends object>(
  resource: T,
  attributes: readonly string[],
  excluded: readonly string[],
): Partial<T> {
  if (attributes.length === 0 && excluded.length === 0) return resource;
  const out: Resource = {};
  if (attributes.length > 0) {
    const wanted = grouped(attributes);
    for (const [key, value] of Object.entries(resource as Resource)) {
      const k = key.toLowerCase();
      if (ALWAYS.has(k)) out[key] = value;
      else if (wanted.has(k)) {
        const subs = wanted.get(k);
        out[key] = subs ? narrow(value, subs, true) : value;
      }
    }
    return out as Partial<T>;
  }
  const dropped = grouped(excluded);
  for (const [key, value] of Object.entries(resource as Resource)) {
    const k = key.toLowerCase();
    if (ALWAYS.has(k) || !dropped.has(k)) out[key] = value;
    else {
      const subs = dropped.get(k);
      if (subs) out[key] = narrow(value, subs, false);
    }
  }
  return out as Partial<T>;
}

/** Whether an answer needs `name` (e.g. a group's `members`) at all: read only what is shown. */
export function wants(name: string, attributes: readonly string[], excluded: readonly string[]): boolean {
  const n = name.toLowerCase();
  if (attributes.length > 0) return grouped(attributes).has(n);
  const subs = grouped(excluded);
  return !(subs.has(n) && subs.get(n) === null);
}

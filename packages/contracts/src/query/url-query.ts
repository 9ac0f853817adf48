/**
 * The browser's side of the bracket notation (`filters[role_id][]=2`): writing the SPA's URLs and
 * reading them back, without qs. qs and the polyfills it brings (object-inspect, get-intrinsic,
 * side-channel) were 17 KB of the list page's gzipped JavaScript. The API reads query strings
 * only with `parseQueryString` (qs, with hard limits); a property test checks that both readers
 * and qs's own writer agree on every shape the SPA writes.
 */

const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

// A UTF-16 half without its partner (pasted text can hold one) cannot be percent-encoded.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// RFC 3986 unreserved characters stay; everything else is percent-encoded, as qs does.
function encode(text: string): string {
  return encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD')).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function write(prefix: string, value: unknown, parts: string[]): void {
  if (value === null || value === undefined || value === '') return;
  if (Array.isArray(value)) {
    for (const item of value) write(`${prefix}[]`, item, parts);
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) write(`${prefix}[${key}]`, item, parts);
  } else {
    parts.push(`${prefix}=${encode(String(value))}`);
  }
}

/**
 * Builds a query string in the notation `parseQueryString` reads, for the SPA's URLs.
 * null, undefined, empty strings and empty lists are left out, so cleared filters vanish from
 * the URL. Keys are not percent-encoded (`filters[name]=ann`): they are our own field names.
 */
export function stringifyQuery(value: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value)) write(key, item, parts);
  return parts.join('&');
}

// A name and up to four bracket segments; an empty or numeric last segment is a list entry.
const KEY = /^([^[\]]+)((?:\[[^[\]]*\]){0,4})$/;
const SEGMENT = /\[([^[\]]*)\]/g;

type Node = Record<string, unknown>;

function child(parent: Node, name: string): Node | undefined {
  const existing = parent[name];
  if (existing === undefined) {
    const created: Node = {};
    parent[name] = created;
    return created;
  }
  return existing && typeof existing === 'object' && !Array.isArray(existing) ? (existing as Node) : undefined;
}

function put(parent: Node, name: string, value: string, asList: boolean): void {
  const existing = parent[name];
  if (existing === undefined) parent[name] = asList ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else if (typeof existing === 'string') parent[name] = [existing, value];
}

/**
 * Reads a query string the SPA wrote (or a person edited) into nested objects and lists of
 * strings, leniently: keys that are malformed, deeper than four brackets, or that would touch
 * `Object.prototype` are skipped, and a key that contradicts an earlier one loses. The contract's
 * schema then decides what is valid. Not for untrusted input on the server: that is
 * `parseQueryString`'s job.
 */
export function readQueryString(search: string): Record<string, unknown> {
  const root: Node = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const match = KEY.exec(key);
    if (!match) continue;
    const names = [match[1] ?? '', ...[...(match[2] ?? '').matchAll(SEGMENT)].map((m) => m[1] ?? '')];
    const last = names.at(-1) ?? '';
    const asList = names.length > 1 && /^\d*$/.test(last);
    const path = asList ? names.slice(0, -1) : names;
    if (path.some((name) => PROTOTYPE_NAMES.has(name) || name === '')) continue;
    let node: Node | undefined = root;
    for (const name of path.slice(0, -1)) node = node && child(node, name);
    if (node) put(node, path.at(-1) ?? '', value, asList);
  }
  return root;
}

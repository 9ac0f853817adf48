/**
 * Keys no JSON input may hold, at any depth, at either door: `__proto__`, `constructor` and
 * `prototype` are the names through which a parsed object reaches a prototype once it is merged
 * or copied (prototype pollution). No input of this API has a field so named, so a body holding
 * one is refused whole (400) before any procedure reads it, and the OpenAPI document says so on
 * every object of a request body.
 */
export const REFUSED_JSON_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** The keys an object of a request body may have, as JSON Schema's `propertyNames`. */
export const ALLOWED_JSON_KEYS_SCHEMA = { not: { enum: [...REFUSED_JSON_KEYS] } };

const REFUSED = new Set<string>(REFUSED_JSON_KEYS);

/** Whether a name is one of the refused keys: the one test every rule about them makes. */
export const isRefusedJsonKey = (name: string): boolean => REFUSED.has(name);

/**
 * The dotted path (`extra.0.deep.prototype`) of a refused key in a parsed JSON value, or null.
 * Walked with a list, not recursion: a body may nest deeper than the call stack.
 */
export function refusedJsonKeyPath(value: unknown): string | null {
  const pending: Array<{ node: object; path: string }> = [];
  if (typeof value === 'object' && value !== null) pending.push({ node: value, path: '' });
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, path } = next;
    const isList = Array.isArray(node);
    for (const [key, item] of Object.entries(node)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (!isList && isRefusedJsonKey(key)) return at;
      if (typeof item === 'object' && item !== null) pending.push({ node: item, path: at });
    }
  }
  return null;
}

/** "The request body holds a `constructor` key (at extra.constructor), …": what was sent, and the rule. */
export function refusedJsonKeyMessage(where: string, path: string): string {
  const key = path.slice(path.lastIndexOf('.') + 1);
  const keys = REFUSED_JSON_KEYS.map((k) => `\`${k}\``).join(', ');
  return `${where} holds a \`${key}\` key (at ${path}): ${keys} are refused as keys anywhere in it.`;
}

/**
 * The entry of `record` named `name`, if the record has one of its own. For names taken from what
 * was sent (a filter's path, a patch's attribute, a column's header, a field's value): a plain
 * lookup of "constructor" or "toString" finds Object.prototype's.
 */
export function ownEntry<T>(record: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

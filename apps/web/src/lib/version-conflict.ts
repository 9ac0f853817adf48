/**
 * A save refused with 409: three versions of one form meet — the one it was opened at, the
 * caller's edits, and the one the server holds now. These decide, for any form, which fields to
 * show side by side and what "keep my edits" loads.
 */

/** Two form values are one when they read the same: lists as sets, text without its outer spaces. */
export function sameFormValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    const left = [...a].map(String).sort();
    const right = [...b].map(String).sort();
    return left.length === right.length && left.every((value, index) => value === right[index]);
  }
  if (typeof a === 'string' && typeof b === 'string') return a.trim() === b.trim();
  return a === b;
}

/** A field where the caller's form and the server's version differ; `edited` when the caller changed it. */
export interface FieldConflict<K> {
  field: K;
  edited: boolean;
}

/**
 * Every field where the form now differs from the server's version, in the order of `keys`: the
 * caller's edits the server does not hold, and the server's changes to fields the caller left alone.
 */
export function conflictingFields<V, K extends keyof V>(
  keys: readonly K[],
  versions: { opened: V; mine: V; latest: V },
): FieldConflict<K>[] {
  const { opened, mine, latest } = versions;
  return keys
    .filter((key) => !sameFormValue(mine[key], latest[key]))
    .map((key) => ({ field: key, edited: !sameFormValue(mine[key], opened[key]) }));
}

/** The server's version with each field the caller edited (changed from `opened`) put back on top. */
export function keepingEdits<V, K extends keyof V>(keys: readonly K[], versions: { opened: V; mine: V; latest: V }): V {
  const { opened, mine, latest } = versions;
  const out = { ...latest };
  for (const key of keys) if (!sameFormValue(mine[key], opened[key])) out[key] = mine[key];
  return out;
}

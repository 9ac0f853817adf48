import { portablePattern } from '@app/contracts';
import type { OpenApiDocument } from './openapi-types.js';

/** Keywords whose values are data, not schemas: a `pattern` key inside one is a value. */
const VALUES = new Set(['const', 'enum', 'default', 'example', 'examples']);

function rewrite(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) rewrite(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'pattern' && typeof value === 'string') schema.pattern = portablePattern(value);
    else if (!VALUES.has(keyword)) rewrite(value);
  }
}

/**
 * Every `pattern` of the document in the form ECMAScript (with the `u` flag) and Python's `re`
 * both read alike (contracts' portable-pattern.ts), so tools of either kind can check and
 * generate values: `\p{Cc}` becomes the ranges it stands for, as this server's engine reads it.
 */
export function portablePatterns(doc: OpenApiDocument): void {
  rewrite(doc.paths);
  rewrite(doc.components.schemas);
}

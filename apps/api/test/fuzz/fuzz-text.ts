import {
  codePointName,
  normaliseRaw,
  PLAIN_TEXT_PATTERN,
  parseQueryString,
  portablePattern,
  refusedCharacter,
  refusedTextIssues,
} from '@app/contracts';
import fc from 'fast-check';
import type { JsonSchema } from './fuzz-values.js';

/**
 * The text rule (contracts' text.ts) as the fuzzer sees it: characters no free-text field may
 * hold, spliced into the text fields it generates, and the property that follows — a request
 * whose free text holds one is refused (422, or whatever the caller's rights answer first),
 * never answered 2xx: what was refused is never stored.
 */

/**
 * Half a surrogate pair (high and low), NUL, C0 and C1 controls, direction overrides and
 * isolates, zero-width characters, a line separator.
 */
export const HIDDEN_CHARACTERS: readonly string[] = [
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u0000',
  '\u0007',
  '\u0085',
  '\u009b',
  '\u202e',
  '\u202a',
  '\u2066',
  '\u2069',
  '\u200b',
  '\u200f',
  '\u2060',
  '\ufeff',
  '\u2028',
];

/** Ordinary text with one hidden character in it: at the start, the end or inside. */
export const withHiddenCharacter: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...HIDDEN_CHARACTERS), fc.string({ maxLength: 8 }))
  .map(([before, hidden, after]) => `${before}${hidden}${after}`);

/** A field's known-good values, and now and then the same with a hidden character. */
export const orHidden = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<T | string> =>
  fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: withHiddenCharacter });

type Resolve = (ref: string) => JsonSchema | undefined;

function resolved(schema: JsonSchema | undefined, resolve: Resolve, depth = 0): JsonSchema | undefined {
  if (!schema || depth > 4) return schema;
  return typeof schema.$ref === 'string' ? resolved(resolve(schema.$ref), resolve, depth + 1) : schema;
}

/** The text rule's pattern as the OpenAPI document writes it (explicit ranges, for Python tools too). */
const DOCUMENTED_TEXT_PATTERN = portablePattern(PLAIN_TEXT_PATTERN.source);
const isPlainTextField = (schema: JsonSchema | undefined) => schema?.pattern === DOCUMENTED_TEXT_PATTERN;

/**
 * What the server will judge of `input` against an input `schema`: for a list query (it has a
 * free-text `q`), every string under any key but `skip` (the path's own parameters, which win);
 * otherwise each top-level property whose schema carries the text rule's pattern, trimmed as the
 * schema trims. Returns a description of the first refused text, or null.
 */
export function refusedTextIn(
  schema: JsonSchema | null,
  input: unknown,
  resolve: Resolve,
  skip: readonly string[] = [],
): string | null {
  const root = resolved(schema ?? undefined, resolve);
  if (!root || typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const properties = (root.properties ?? {}) as Record<string, JsonSchema>;
  const value = input as Record<string, unknown>;
  if (isPlainTextField(resolved(properties.q, resolve))) {
    const kept = Object.fromEntries(Object.entries(value).filter(([key]) => !skip.includes(key)));
    const [first] = refusedTextIssues(normaliseRaw(kept));
    return first ? `${first.path.join('.')}: ${first.message}` : null;
  }
  for (const [key, property] of Object.entries(properties)) {
    const text = value[key];
    if (skip.includes(key) || typeof text !== 'string' || !isPlainTextField(resolved(property, resolve))) continue;
    const found = refusedCharacter(text.trim());
    if (found !== undefined) return `${key}: holds ${codePointName(found)}`;
  }
  return null;
}

/** A JSON text's value, or undefined when the server's parser would refuse it too. */
export function parsedJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A query string as the REST door reads it, or undefined when it refuses it (422). */
export function parsedQuery(url: string): Record<string, unknown> | undefined {
  const i = url.indexOf('?');
  try {
    return parseQueryString(i === -1 ? '' : url.slice(i + 1));
  } catch {
    return undefined;
  }
}

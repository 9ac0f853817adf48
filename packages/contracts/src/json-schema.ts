import { z } from 'zod';

/**
 * What a schema accepts, as JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), for the
 * OpenAPI document. zod derives most of it; where a schema normalises (a preprocess that reads
 * `DESC` as `desc`, one value or a list) or refines (unique items, one key requiring another),
 * zod cannot see the rule, so the schema says it here, beside the code that enforces it.
 */
export type JsonSchema = { [keyword: string]: unknown };

type Declared = { replace: JsonSchema } | { add: JsonSchema };

// Keyed by schema instance: `.meta()`, `.describe()` and `.refine()` return a copy, so declare
// on the finished schema; wrappers (`.optional()`, an object holding it) keep pointing at it.
const declared = new WeakMap<object, Declared>();

/** Declares exactly what `schema` accepts, replacing what zod would derive. */
export function describeInput<T extends z.ZodType>(schema: T, json: JsonSchema): T {
  declared.set(schema, { replace: json });
  return schema;
}

/**
 * Adds keywords to what zod derives for `schema`: a `format`, `uniqueItems`, a dependency
 * between keys. A `pattern` beside one zod already wrote joins it in `allOf`.
 */
export function constrainInput<T extends z.ZodType>(schema: T, keywords: JsonSchema): T {
  declared.set(schema, { add: keywords });
  return schema;
}

function addKeywords(json: JsonSchema, keywords: JsonSchema): void {
  for (const [keyword, value] of Object.entries(keywords)) {
    if (keyword === 'pattern' && typeof json.pattern === 'string' && json.pattern !== value) {
      json.allOf = [...((json.allOf as JsonSchema[] | undefined) ?? []), { pattern: value }];
    } else if (keyword === 'allOf') {
      json.allOf = [...((json.allOf as JsonSchema[] | undefined) ?? []), ...(value as JsonSchema[])];
    } else {
      json[keyword] = structuredClone(value);
    }
  }
}

/** zod's `override` hook that applies the declarations above; for input conversions only. */
export function inputJsonSchemaOverride(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const found = declared.get(ctx.zodSchema as object);
  if (!found) return;
  if ('add' in found) {
    addKeywords(ctx.jsonSchema, found.add);
    return;
  }
  for (const keyword of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[keyword];
  Object.assign(ctx.jsonSchema, structuredClone(found.replace));
}

/** The JSON Schema of what `schema` accepts (its input), declarations included. */
export function inputJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: inputJsonSchemaOverride,
  }) as JsonSchema;
  const { $schema: _dialect, ...rest } = json;
  return rest;
}

/** `[Aa][Ss][Cc]`: JSON Schema patterns have no flags, so case is spelled out. */
export function anyCase(word: string): string {
  return [...word]
    .map((c) => {
      const lower = c.toLowerCase();
      const upper = c.toUpperCase();
      if (lower !== upper) return `[${upper}${lower}]`;
      return /[\w-]/.test(c) ? c : `\\${c}`;
    })
    .join('');
}

/** Text matching one of `words` in any case. */
export function anyCasePattern(words: readonly string[]): string {
  return `^(?:${words.map(anyCase).join('|')})$`;
}

/** JSON Schema's `if`/`then`: where `condition` holds, `consequence` must hold too. */
export function ifThen(condition: JsonSchema, consequence: JsonSchema): JsonSchema {
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword; `then` here is never a function.
  return { if: condition, then: consequence };
}

/** No schema accepts anything: a key that must not be sent (an empty list of allowed names). */
export const ACCEPTS_NOTHING: JsonSchema = { not: {} };

export function acceptsNothing(json: JsonSchema): boolean {
  return typeof json.not === 'object' && json.not !== null && Object.keys(json.not).length === 0;
}

/**
 * On a query's root object: an empty value (`filters[name]=`, `sort=`) is read as absent. The
 * OpenAPI document turns it into `allowEmptyValue` on the query parameters.
 */
export const EMPTY_IS_ABSENT = 'x-empty-is-absent';

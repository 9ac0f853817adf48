import { z } from 'zod';
import { anyCasePattern, describeInput, inputJsonSchema, type JsonSchema } from '../json-schema';
import { toBooleanish, toLowerCase, toNumberish } from './normalise';

/**
 * An integer schema where every failure (not a number, a fraction, out of range) gets the one
 * `message`: the message states the whole rule, so it is right whichever part was broken.
 */
export function integer(message: string, range: { min?: number; max?: number } = {}) {
  let schema = z.number({ error: message }).int(message);
  if (range.min !== undefined) schema = schema.min(range.min, message);
  if (range.max !== undefined) schema = schema.max(range.max, message);
  return schema;
}

// The wrappers below put a value-specific normalisation step in front of a schema. Wrap the
// optional/default schema itself (`numeric(integer(…).optional())`): a preprocess takes its
// optionality from the inner schema, so the key stays optional for callers.

/**
 * A whole number of 1 or more as {@link numeric} reads it from text (`7`, `+7`, `007`, `7.0`), as
 * a JSON Schema pattern; up to 15 digits, always within the safe integers.
 */
export const POSITIVE_INTEGER_TEXT_PATTERN = '^\\+?(?=\\d{1,20}(?:\\.|$))0*[1-9]\\d{0,14}(?:\\.0{1,20})?$';

/** Decimal text → number, since query strings carry only text. */
export function numeric<S extends z.ZodType>(schema: S) {
  return z.preprocess((raw: number | string) => toNumberish(raw), schema);
}

/** The words {@link toBooleanish} reads, in any case: what a query string may say for a boolean. */
export const BOOLEAN_WORDS_PATTERN = anyCasePattern(['true', 'false', '1', '0']);

/** `true/false/1/0` in any case → boolean. */
export function booleanish<S extends z.ZodType>(schema: S) {
  const { type: _boolean, ...rest } = inputJsonSchema(schema);
  return describeInput(
    z.preprocess((raw: boolean | string | number) => toBooleanish(raw), schema),
    {
      ...rest,
      anyOf: [{ type: 'boolean' }, { type: 'string', pattern: BOOLEAN_WORDS_PATTERN }],
    },
  );
}

/** An enum's JSON Schema with its members accepted in any case; anything else unchanged. */
export function anyCaseEnum(json: JsonSchema): JsonSchema {
  const { enum: members, type: _string, ...rest } = json;
  if (!Array.isArray(members) || !members.every((m) => typeof m === 'string')) return json;
  return {
    ...rest,
    type: 'string',
    anyOf: [
      { type: 'string', enum: members },
      { type: 'string', pattern: anyCasePattern(members) },
    ],
  };
}

/** Keywords (`DESC`, `Only`) are case-insensitive. */
export function lowerCased<S extends z.ZodType>(schema: S) {
  return describeInput(
    z.preprocess((raw: string) => toLowerCase(raw), schema),
    anyCaseEnum(inputJsonSchema(schema)),
  );
}

function reissue(ctx: z.core.$RefinementCtx, issue: z.core.$ZodIssue, input: unknown): void {
  // A finalized issue already carries its message and relative path; only `input` is re-added.
  ctx.addIssue({ ...issue, input } as z.core.$ZodRawIssue);
}

/**
 * A schema that hands the raw value to whichever schema `pick` chooses, keeping that schema's
 * issue paths. Used where a zod union would merge both branches' failures into one unhelpful
 * "invalid input" (one id vs a list of ids). `In` documents what callers may send; at run time
 * the chosen schema is the judge.
 */
export function delegate<Out, In>(pick: (raw: unknown) => z.ZodType<Out>): z.ZodType<Out, In> {
  const schema = z.unknown().transform((raw, ctx): Out => {
    const result = pick(raw).safeParse(raw);
    if (result.success) return result.data;
    for (const issue of result.error.issues) reissue(ctx, issue, raw);
    return z.NEVER;
  });
  // Narrows the declared input from z.unknown()'s `unknown` to `In` (see above).
  return schema as unknown as z.ZodType<Out, In>;
}

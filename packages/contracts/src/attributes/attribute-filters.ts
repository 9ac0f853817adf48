import { z } from 'zod';
import { ATTRIBUTE_KEY_PATTERN, ATTRIBUTE_TEXT_MAX, ATTRIBUTES_MAX } from './attribute-schema';
import { describeInput, type JsonSchema } from '../json-schema';
import { plainTextCheck } from '../text';
import type { ExactFilter, FilterDefinition } from '../query/filters';
import { dedupe, isPlainObject, toBooleanish } from '../query/normalise';

/**
 * `filters[attributes][<key>]…` (SPEC §14): one condition per custom attribute, in one of four
 * shapes. The contract knows the shapes, not the attributes: which keys exist for the caller,
 * which shape each type takes and what its values mean are the server's to judge against the
 * declared schema (an unknown, unseen or mistyped one is a 422 naming the filter). Values stay
 * as written (text from a query string) until then.
 *
 * - `[key]=v` or `[key][]=v&[key][]=w`: any of these values (enum, string, e-mail, URL, yes/no,
 *   number, user);
 * - `[key][from]=…&[key][to]=…`: a range, either bound optional (number, date);
 * - `[key][contains]=…`: a case-insensitive substring (string, e-mail, URL);
 * - `[key][empty]=true`: users holding no value (`false`: holding one).
 */

/** A value as a caller writes it: text from a query string, or a JSON scalar from tRPC. */
export type AttributeFilterScalar = string | number | boolean;

export type AttributeCondition =
  | AttributeFilterScalar[]
  | { from?: AttributeFilterScalar; to?: AttributeFilterScalar }
  | { contains: string }
  | { empty: boolean };

/** The conditions by attribute key, normalised into the shapes a caller may send back as they are. */
export type AttributeConditions = Record<string, AttributeCondition>;

/**
 * The filter's kind is `exact`: its value is the normalised conditions map, echoed in the list
 * answer's `filters` and written back to a URL unchanged.
 */
export type AttributesFilter = ExactFilter<AttributeConditions>;

export const ATTRIBUTE_FILTER_VALUES_MAX = 100;

const SHAPES =
  'Filter an attribute by a value (filters[attributes][key]=v), several ([key][]=v), a range ([key][from], [key][to]), [key][contains] or [key][empty]=true.';

const scalar = z.union([z.string().max(ATTRIBUTE_TEXT_MAX), z.number(), z.boolean()], {
  error: `A value is text of at most ${ATTRIBUTE_TEXT_MAX} characters, a number or true/false.`,
});

const values = z
  .array(scalar, { error: SHAPES })
  .max(ATTRIBUTE_FILTER_VALUES_MAX, `Give at most ${ATTRIBUTE_FILTER_VALUES_MAX} values.`)
  .transform((list) => dedupe(list));

// Not swapped here: whether "10" comes after "9" depends on the attribute's type (the server's).
const range = z.strictObject({ from: scalar.optional(), to: scalar.optional() });

const contains = z.strictObject({
  contains: plainTextCheck(z.string({ error: 'Contains takes a single piece of text.' }), 'filter').max(
    ATTRIBUTE_TEXT_MAX,
    `The text can be at most ${ATTRIBUTE_TEXT_MAX} characters long.`,
  ),
});

const empty = z.strictObject({
  empty: z.preprocess(toBooleanish, z.boolean({ error: 'Empty takes true or false.' })),
});

/** Picks the one shape a raw condition is written in, so its message is that shape's own. */
function shapeOf(raw: unknown): z.ZodType<AttributeCondition> | null {
  if (!isPlainObject(raw)) return values;
  const keys = Object.keys(raw);
  if (keys.length > 0 && keys.every((k) => k === 'from' || k === 'to')) return range;
  if (keys.length === 1 && keys[0] === 'contains') return contains;
  if (keys.length === 1 && keys[0] === 'empty') return empty;
  return null;
}

const condition = z.unknown().transform((raw, ctx): AttributeCondition => {
  const shape = shapeOf(raw);
  if (!shape) {
    ctx.addIssue({ code: 'custom', message: SHAPES, input: raw });
    return z.NEVER;
  }
  const result = shape.safeParse(Array.isArray(raw) || isPlainObject(raw) ? raw : [raw]);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ ...issue, input: raw } as z.core.$ZodRawIssue);
  return z.NEVER;
});

const keyMessage = 'An attribute key starts with a lower-case letter and holds only a-z, 0-9 and _.';

const conditions = z
  .record(z.string().regex(ATTRIBUTE_KEY_PATTERN, keyMessage).max(64, keyMessage), condition, {
    error: `Give attribute filters by key: ${SHAPES}`,
  })
  .refine((map) => Object.keys(map).length <= ATTRIBUTES_MAX, `At most ${ATTRIBUTES_MAX} attributes can be filtered.`);

const SCALAR_JSON: JsonSchema = {
  anyOf: [{ type: 'string', maxLength: ATTRIBUTE_TEXT_MAX }, { type: 'number' }, { type: 'boolean' }],
};

/** What a caller may send for one attribute, for the OpenAPI document. */
const CONDITION_JSON: JsonSchema = {
  anyOf: [
    SCALAR_JSON,
    { type: 'array', items: SCALAR_JSON, maxItems: ATTRIBUTE_FILTER_VALUES_MAX },
    {
      type: 'object',
      properties: { from: SCALAR_JSON, to: SCALAR_JSON },
      additionalProperties: false,
      minProperties: 1,
    },
    {
      type: 'object',
      properties: { contains: { type: 'string', maxLength: ATTRIBUTE_TEXT_MAX } },
      required: ['contains'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { empty: { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false', '1', '0'] }] } },
      required: ['empty'],
      additionalProperties: false,
    },
  ],
};

/** The users list's `filters[attributes]`: conditions on custom attributes, judged on the server. */
export function attributeConditions() {
  const schema: z.ZodType<AttributesFilter, Record<string, unknown>> = describeInput(
    conditions.transform((value) => ({ kind: 'exact' as const, value: value as AttributeConditions })),
    {
      type: 'object',
      propertyNames: { pattern: ATTRIBUTE_KEY_PATTERN.source, maxLength: 64 },
      additionalProperties: CONDITION_JSON,
      maxProperties: ATTRIBUTES_MAX,
    },
  );
  return { kind: 'exact', schema: schema.optional() } satisfies FilterDefinition<'exact'>;
}

/** `sort=attributes.<key>`: the attribute's key, or null when the sort is a column's. */
export function attributeSortKey(sort: string | null): string | null {
  return sort?.startsWith('attributes.') ? sort.slice('attributes.'.length) : null;
}

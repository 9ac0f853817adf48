import { z } from 'zod';
import { IsoDateTimeSchema } from '../common';
import { isRefusedJsonKey, REFUSED_JSON_KEYS } from '../json-keys';
import { constrainInput } from '../json-schema';
import { listResultSchema } from '../lists';
import { booleanish } from '../query/fields';

/**
 * Custom profile attributes (SPEC §14, "Attributes"): the types, limits and validators of a
 * definition and the answers that carry one. Apart from attributes.ts (the write inputs, which
 * compile patterns on RE2): the users list, its filters and the user answers need these and not
 * the pattern engine, which then stays out of every page that does not edit a pattern or a value.
 */

export const ATTRIBUTE_TYPES = ['string', 'number', 'boolean', 'date', 'email', 'url', 'enum', 'user'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/**
 * `personal`: left out of webhook payloads unless a webhook opts in. `sensitive`: absent from every
 * answer, export, webhook and audit diff for a caller without `attributes.sensitive.view`.
 */
export const ATTRIBUTE_SENSITIVITIES = ['none', 'personal', 'sensitive'] as const;
export type AttributeSensitivity = (typeof ATTRIBUTE_SENSITIVITIES)[number];

/** At most this many attributes: each is a list column, a filter and a form field. */
export const ATTRIBUTES_MAX = 100;
/** A text value's length at most (it is indexed for filters and sorts). */
export const ATTRIBUTE_TEXT_MAX = 255;
/** An enumeration's values at most. */
export const ATTRIBUTE_ENUM_MAX = 200;

/** The types whose values are text: length and pattern validators apply to them. */
export const TEXT_ATTRIBUTE_TYPES: readonly AttributeType[] = ['string', 'email', 'url'];
/** The types with an order of their own: `min` and `max` apply to them. */
export const RANGED_ATTRIBUTE_TYPES: readonly AttributeType[] = ['number', 'date'];

export const ATTRIBUTE_KEY_PATTERN = /^[a-z][a-z0-9_]*$/;

export const AttributeKeySchema = constrainInput(
  z
    .string({ error: 'Give the attribute a key.' })
    .min(1, 'Give the attribute a key.')
    .max(64, 'A key can be at most 64 characters long.')
    .regex(
      ATTRIBUTE_KEY_PATTERN,
      'A key starts with a lower-case letter and holds only lower-case letters, digits and _ (cost_centre).',
    ),
  { examples: ['department'] },
);

/** The refused names an attribute key's pattern admits: `constructor` and `prototype`. */
const RESERVED_KEYS = REFUSED_JSON_KEYS.filter((k) => ATTRIBUTE_KEY_PATTERN.test(k));
const RESERVED_TEXT = RESERVED_KEYS.map((k) => `“${k}”`).join(' and ');

/**
 * A new attribute's key: also neither `constructor` nor `prototype`. Values travel under their
 * attribute's key in request bodies (`"attributes": {"department": …}`), and both doors refuse
 * those two names as keys anywhere in a body (json-keys.ts): an attribute so named could be
 * declared but never given a value. Lookups keep `AttributeKeySchema`, so one declared before
 * this rule can still be shown and deleted.
 */
export const NewAttributeKeySchema = constrainInput(
  AttributeKeySchema.refine((key) => !isRefusedJsonKey(key), {
    message: `${RESERVED_TEXT} cannot be keys: request bodies refuse those names. Choose another key.`,
  }),
  { examples: ['department'], not: { enum: RESERVED_KEYS } },
);

const IsoDateSchema = z.iso.date('Give a date as YYYY-MM-DD.');

/** A bound of a number attribute (a number) or of a date attribute (YYYY-MM-DD). */
const BoundSchema = z.union([z.number().finite(), IsoDateSchema], {
  error: 'Give a bound as a number, or as a date YYYY-MM-DD for a date attribute.',
});

export const AttributeValidatorsSchema = z
  .object({
    min_length: z
      .number()
      .int('A length is a whole number.')
      .min(0)
      .max(ATTRIBUTE_TEXT_MAX, `A length is at most ${ATTRIBUTE_TEXT_MAX}.`)
      .optional(),
    max_length: z
      .number()
      .int('A length is a whole number.')
      .min(1, 'A maximum length is at least 1.')
      .max(ATTRIBUTE_TEXT_MAX, `A length is at most ${ATTRIBUTE_TEXT_MAX}.`)
      .optional(),
    /** A regular expression the whole value must match (RE2 syntax: it runs in linear time). */
    pattern: z.string().min(1).max(500, 'A pattern can be at most 500 characters long.').optional(),
    min: BoundSchema.optional(),
    max: BoundSchema.optional(),
  })
  .strict();
export type AttributeValidators = z.infer<typeof AttributeValidatorsSchema>;

/** The path's `{key}`. */
export const AttributeKeyInputSchema = z.object({ key: AttributeKeySchema });

/** DELETE /attributes/{key}?dryRun=true: the impact only. */
export const AttributeDeleteQuerySchema = z.object({
  dryRun: booleanish(z.boolean({ error: 'dryRun must be true or false (1 or 0 also work).' }).default(false)),
});
export type AttributeDeleteQuery = z.output<typeof AttributeDeleteQuerySchema>;

/** A definition as answered. */
export const AttributeSchema = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(ATTRIBUTE_TYPES),
  values: z.array(z.string()).nullable(),
  required: z.boolean(),
  unique: z.boolean(),
  validators: AttributeValidatorsSchema,
  sensitivity: z.enum(ATTRIBUTE_SENSITIVITIES),
  description: z.string().nullable(),
  /** Users holding a value (live users and those in the trash). */
  holders: z.number().int().nonnegative(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
});
export type Attribute = z.infer<typeof AttributeSchema>;

export const AttributeItemSchema = z.object({ item: AttributeSchema });
export const AttributeListSchema = listResultSchema(AttributeSchema);
export type AttributeList = z.infer<typeof AttributeListSchema>;

/** What a change or a removal would do to stored values: who holds one, and whose would break. */
export const AttributeImpactSchema = z.object({
  holders: z.number().int().nonnegative(),
  failing: z.number().int().nonnegative(),
});
export type AttributeImpact = z.infer<typeof AttributeImpactSchema>;

/** A dry run's answer, and the body of a 409 ATTRIBUTE_CONFLICT. */
export const AttributeImpactAnswerSchema = z.object({ impact: AttributeImpactSchema });

/** A write's answer: the definition, or, for a dry run, the impact. */
export const AttributeWriteAnswerSchema = z.union([AttributeItemSchema, AttributeImpactAnswerSchema]);

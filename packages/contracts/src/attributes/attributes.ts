import { z } from 'zod';
import { IsoDateTimeSchema } from '../common';
import { compilePattern } from './attribute-pattern';
import { constrainInput } from '../json-schema';
import { listResultSchema } from '../lists';
import { booleanish } from '../query/fields';
import { plainText } from '../text';

/**
 * Custom profile attributes (SPEC §14, "Attributes"): a declared, typed schema for the fields an
 * organisation keeps on its people (employee number, department, cost centre, manager). The
 * schema lives here once; the server, the SPA's forms and the import read it.
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

/** For the OpenAPI document: trimmed before its length is counted, so not blank. */
const notBlank = <S extends z.ZodType>(schema: S): S => constrainInput(schema, { pattern: '\\S' });

const EnumValueSchema = notBlank(
  plainText('value', { error: 'Give each value as text.' })
    .min(1, 'A value cannot be empty.')
    .max(ATTRIBUTE_TEXT_MAX, `A value can be at most ${ATTRIBUTE_TEXT_MAX} characters long.`),
);

/** What every write of a definition carries; the key is given once, at creation. */
const definitionFields = {
  label: notBlank(
    plainText('label', { error: 'Give the attribute a label.' })
      .min(1, 'Give the attribute a label.')
      .max(100, 'A label can be at most 100 characters long.'),
  ),
  type: z.enum(ATTRIBUTE_TYPES, { error: `A type is one of: ${ATTRIBUTE_TYPES.join(', ')}.` }),
  values: constrainInput(
    z
      .array(EnumValueSchema)
      .min(1, 'List the values people can pick.')
      .max(ATTRIBUTE_ENUM_MAX, `At most ${ATTRIBUTE_ENUM_MAX} values.`),
    { uniqueItems: true },
  ).optional(),
  required: z.boolean().default(false),
  unique: z.boolean().default(false),
  validators: AttributeValidatorsSchema.default({}),
  sensitivity: z
    .enum(ATTRIBUTE_SENSITIVITIES, { error: `A sensitivity is one of: ${ATTRIBUTE_SENSITIVITIES.join(', ')}.` })
    .default('none'),
  description: plainText('description').max(500, 'A description can be at most 500 characters long.').optional(),
};

type DefinitionDraft = {
  type: AttributeType;
  values?: string[] | undefined;
  unique: boolean;
  validators: AttributeValidators;
};

/**
 * The rules between fields, one place for the API's 422 and the SPA's form: an enumeration lists
 * its values (once each, whatever the case), and only an enumeration does; length and pattern
 * apply to text, bounds to numbers and dates (and of that type); a yes/no or a user reference
 * cannot be unique.
 */
export function definitionIssues(d: DefinitionDraft): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  if (d.type === 'enum') {
    if (!d.values || d.values.length === 0)
      issues.push({ path: 'values', message: 'List the values people can pick.' });
    else if (new Set(d.values.map((v) => v.toLowerCase())).size !== d.values.length) {
      issues.push({ path: 'values', message: 'Each value can be listed once (letter case aside).' });
    }
  } else if (d.values !== undefined) {
    issues.push({ path: 'values', message: 'Only an enumeration lists values.' });
  }
  const v = d.validators;
  const text = TEXT_ATTRIBUTE_TYPES.includes(d.type);
  for (const key of ['min_length', 'max_length', 'pattern'] as const) {
    if (v[key] !== undefined && !text) {
      issues.push({ path: `validators.${key}`, message: 'Length and pattern apply to text attributes only.' });
    }
  }
  if (v.pattern !== undefined && text && compilePattern(v.pattern) === null) {
    issues.push({
      path: 'validators.pattern',
      message: 'This pattern cannot be read (patterns follow RE2: no back-references or look-around).',
    });
  }
  if (v.min_length !== undefined && v.max_length !== undefined && v.min_length > v.max_length) {
    issues.push({ path: 'validators.min_length', message: 'The shortest length is above the longest.' });
  }
  for (const key of ['min', 'max'] as const) {
    const bound = v[key];
    if (bound === undefined) continue;
    if (!RANGED_ATTRIBUTE_TYPES.includes(d.type)) {
      issues.push({ path: `validators.${key}`, message: 'Bounds apply to number and date attributes only.' });
    } else if ((d.type === 'number') !== (typeof bound === 'number')) {
      issues.push({
        path: `validators.${key}`,
        message: d.type === 'number' ? 'Give a number.' : 'Give a date as YYYY-MM-DD.',
      });
    }
  }
  if (v.min !== undefined && v.max !== undefined && typeof v.min === typeof v.max && v.min > v.max) {
    issues.push({ path: 'validators.min', message: 'The lowest value is above the highest.' });
  }
  if (d.unique && (d.type === 'boolean' || d.type === 'user')) {
    issues.push({ path: 'unique', message: 'A yes/no or a user reference cannot be unique.' });
  }
  return issues;
}

const withDefinitionRules = <T extends DefinitionDraft>(ctx: z.RefinementCtx, value: T) => {
  for (const issue of definitionIssues(value)) {
    ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
  }
};

const typeIn = (types: readonly AttributeType[]) => ({
  properties: { type: { enum: [...types] } },
  required: ['type'],
});
const without = (...keys: string[]) => ({ not: { anyOf: keys.map((k) => ({ required: [k] })) } });
const NOT_TEXT = ATTRIBUTE_TYPES.filter((t) => !TEXT_ATTRIBUTE_TYPES.includes(t));
const NOT_RANGED = ATTRIBUTE_TYPES.filter((t) => !RANGED_ATTRIBUTE_TYPES.includes(t));

/**
 * The rules between fields, for the OpenAPI document as JSON Schema (`definitionIssues` is the
 * server's and the SPA's): an enumeration lists its values and nothing else does; length and
 * pattern only for text; bounds only for numbers (as numbers) and dates (as dates); a yes/no or a
 * user reference is never unique. What JSON Schema cannot say (values once each whatever their
 * case, lowest below highest, a pattern RE2 reads) is the server's 422, named by field.
 */
/** JSON Schema's if/then/else (`then` spelled through an entry: a literal one reads as a thenable). */
const when = (condition: object, then: object, otherwise?: object) =>
  Object.fromEntries([['if', condition], ['then', then], ...(otherwise ? [['else', otherwise]] : [])]);

const DEFINITION_RULES = {
  allOf: [
    when(typeIn(['enum']), { required: ['values'] }, without('values')),
    when(typeIn(NOT_TEXT), { properties: { validators: without('min_length', 'max_length', 'pattern') } }),
    when(typeIn(NOT_RANGED), { properties: { validators: without('min', 'max') } }),
    when(typeIn(['number']), {
      properties: { validators: { properties: { min: { type: 'number' }, max: { type: 'number' } } } },
    }),
    when(typeIn(['date']), {
      properties: { validators: { properties: { min: { type: 'string' }, max: { type: 'string' } } } },
    }),
    when(typeIn(['boolean', 'user']), { properties: { unique: { const: false } } }),
  ],
};

/** POST /attributes. */
export const AttributeCreateInputSchema = constrainInput(
  z
    .object({ key: AttributeKeySchema, ...definitionFields })
    .superRefine((value, ctx) => withDefinitionRules(ctx, value)),
  {
    ...DEFINITION_RULES,
    examples: [
      { key: 'department', label: 'Department', type: 'enum', values: ['Sales', 'Support'] },
      {
        key: 'employee_number',
        label: 'Employee number',
        type: 'string',
        unique: true,
        validators: { pattern: '[0-9]{6}' },
      },
    ],
  },
);
export type AttributeCreateInput = z.infer<typeof AttributeCreateInputSchema>;

/**
 * PUT /attributes/{key}: the whole definition again (the key stays). `dryRun` answers the impact
 * only; a change that would break stored values is refused (409 ATTRIBUTE_CONFLICT) unless
 * `onConflict: "clear"` clears those values.
 */
export const AttributeUpdateInputSchema = constrainInput(
  z
    .object({
      ...definitionFields,
      dryRun: z.boolean().default(false),
      onConflict: z.enum(['refuse', 'clear']).default('refuse'),
    })
    .superRefine((value, ctx) => withDefinitionRules(ctx, value)),
  { ...DEFINITION_RULES, examples: [{ label: 'Department', type: 'enum', values: ['Sales', 'Support', 'Legal'] }] },
);
export type AttributeUpdateInput = z.infer<typeof AttributeUpdateInputSchema>;

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

import { z } from 'zod';
import { compilePattern } from './attribute-pattern';
import {
  ATTRIBUTE_ENUM_MAX,
  ATTRIBUTE_SENSITIVITIES,
  ATTRIBUTE_TEXT_MAX,
  ATTRIBUTE_TYPES,
  NewAttributeKeySchema,
  type AttributeType,
  AttributeValidatorsSchema,
  type AttributeValidators,
  RANGED_ATTRIBUTE_TYPES,
  TEXT_ATTRIBUTE_TYPES,
} from './attribute-schema';
import { constrainInput } from '../json-schema';
import { plainText } from '../text';

/**
 * Custom profile attributes (SPEC §14, "Attributes"): the writes of a definition — the rules
 * between its fields and the inputs of POST and PUT /attributes. The types, limits and answers
 * are in attribute-schema.ts.
 */

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
    .object({ key: NewAttributeKeySchema, ...definitionFields })
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

import {
  type Attribute,
  AttributeCreateInputSchema,
  type AttributeSensitivity,
  type AttributeType,
  AttributeUpdateInputSchema,
  type AttributeValidators,
  type FieldErrors,
  RANGED_ATTRIBUTE_TYPES,
  TEXT_ATTRIBUTE_TYPES,
} from '@app/contracts';
import type { FieldError, FieldErrors as FormErrors, Resolver } from 'react-hook-form';

/** What the attribute form holds: text as typed; the contract's schema reads it on submit. */
export interface AttributeFormValues {
  key: string;
  label: string;
  type: AttributeType;
  /** An enumeration's values, one per line. */
  values: string;
  required: boolean;
  unique: boolean;
  validators: Record<keyof AttributeValidators, string>;
  sensitivity: AttributeSensitivity;
  description: string;
}

/** The definition as the contract takes it, before its defaults (what the form sends). */
export type AttributeDraft = {
  key: string;
  label: string;
  type: AttributeType;
  values?: string[];
  required: boolean;
  unique: boolean;
  validators: AttributeValidators;
  sensitivity: AttributeSensitivity;
  description?: string;
};

/** The form's fields, in the order it shows them: where client and server errors land. */
export const ATTRIBUTE_FORM_FIELDS = [
  'key',
  'label',
  'type',
  'values',
  'description',
  'required',
  'unique',
  'validators.min_length',
  'validators.max_length',
  'validators.pattern',
  'validators.min',
  'validators.max',
  'sensitivity',
] as const;
export type AttributeFormField = (typeof ATTRIBUTE_FORM_FIELDS)[number];

export const EMPTY_ATTRIBUTE_FORM: AttributeFormValues = {
  key: '',
  label: '',
  type: 'string',
  values: '',
  required: false,
  unique: false,
  validators: { min_length: '', max_length: '', pattern: '', min: '', max: '' },
  sensitivity: 'none',
  description: '',
};

const text = (value: string | number | undefined) => (value === undefined ? '' : String(value));

export const toAttributeFormValues = (item: Attribute): AttributeFormValues => ({
  key: item.key,
  label: item.label,
  type: item.type,
  values: (item.values ?? []).join('\n'),
  required: item.required,
  unique: item.unique,
  validators: {
    min_length: text(item.validators.min_length),
    max_length: text(item.validators.max_length),
    pattern: text(item.validators.pattern),
    min: text(item.validators.min),
    max: text(item.validators.max),
  },
  sensitivity: item.sensitivity,
  description: item.description ?? '',
});

/** A typed number stays a number when it reads as one; otherwise the text goes, for the schema to refuse. */
const numberOf = (typed: string) => (Number.isFinite(Number(typed)) ? Number(typed) : typed);

/**
 * The validators that apply to `type`, from what was typed: length and pattern for text, bounds
 * for numbers (as numbers) and dates (as YYYY-MM-DD). Blank means none.
 */
function validatorsOf(type: AttributeType, typed: AttributeFormValues['validators']): AttributeValidators {
  const out: Record<string, unknown> = {};
  const given = (name: keyof AttributeValidators) => typed[name].trim() !== '';
  if (TEXT_ATTRIBUTE_TYPES.includes(type)) {
    if (given('min_length')) out.min_length = numberOf(typed.min_length.trim());
    if (given('max_length')) out.max_length = numberOf(typed.max_length.trim());
    if (given('pattern')) out.pattern = typed.pattern;
  }
  if (RANGED_ATTRIBUTE_TYPES.includes(type)) {
    for (const name of ['min', 'max'] as const) {
      if (given(name)) out[name] = type === 'number' ? numberOf(typed[name].trim()) : typed[name].trim();
    }
  }
  return out as AttributeValidators;
}

/** The form's values as the contract's definition: only what applies to the chosen type is sent. */
export function toAttributeDraft(values: AttributeFormValues): AttributeDraft {
  const description = values.description.trim();
  return {
    key: values.key.trim(),
    label: values.label,
    type: values.type,
    ...(values.type === 'enum'
      ? {
          values: values.values
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        }
      : {}),
    required: values.required,
    // A yes/no or a user reference is never unique: the switch is not offered for them.
    unique: values.type === 'boolean' || values.type === 'user' ? false : values.unique,
    validators: validatorsOf(values.type, values.validators),
    sensitivity: values.sensitivity,
    ...(description ? { description } : {}),
  };
}

/** The form field an error path (`validators.pattern`, `values.2`, `label`) belongs to; null for the input as a whole. */
export function fieldOfPath(path: string): AttributeFormField | null {
  const [head, next] = path.split('.');
  const field = head === 'validators' ? `validators.${next}` : head;
  return ATTRIBUTE_FORM_FIELDS.find((name) => name === field) ?? null;
}

/** Errors by form field as react-hook-form nests them (`validators.min` → `{validators: {min}}`). */
export function nestErrors(errors: FieldErrors): {
  nested: FormErrors<AttributeFormValues>;
  unplaced: string[];
} {
  const nested: Record<string, FieldError | Record<string, FieldError>> = {};
  const unplaced: string[] = [];
  for (const [path, messages] of Object.entries(errors)) {
    const field = fieldOfPath(path);
    const error: FieldError = { type: 'validate', message: [...new Set(messages)].join(' ') };
    if (field === null) unplaced.push(...messages);
    else if (field.startsWith('validators.')) {
      const validators = (nested.validators ?? {}) as Record<string, FieldError>;
      validators[field.slice('validators.'.length)] ??= error;
      nested.validators = validators;
    } else nested[field] ??= error;
  }
  return { nested: nested as FormErrors<AttributeFormValues>, unplaced };
}

/**
 * Client validation by the contract's own schema (the server's messages, the rules between
 * fields included): the create schema with the key, the update schema without it.
 */
export function attributeResolver(creating: boolean): Resolver<AttributeFormValues, unknown, AttributeDraft> {
  return (values) => {
    const draft = toAttributeDraft(values);
    const { key, ...definition } = draft;
    const parsed = creating
      ? AttributeCreateInputSchema.safeParse(draft)
      : AttributeUpdateInputSchema.safeParse(definition);
    if (parsed.success) return { values: draft, errors: {} };
    const errors: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.');
      errors[path] = [...(errors[path] ?? []), issue.message];
    }
    return { values: {}, errors: nestErrors(errors).nested };
  };
}

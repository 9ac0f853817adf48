import {
  type AttributeField,
  type AttributeValue,
  attributePath,
  checkAttributeValue,
  type UserAttributes,
  type UserAttributesInput,
} from '@app/contracts';

/**
 * A user's custom attribute values as the user form holds them: text by key, as typed (a yes/no
 * as "true"/"false", a number or a user id as its digits); "" is no value.
 */
export type AttributeTexts = Record<string, string>;

/** The stored values as the form's text. */
export function toAttributeTexts(values: UserAttributes | undefined): AttributeTexts {
  return Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key, String(value)]));
}

/**
 * The form's text as the value the API takes, before it is judged: "" is a clear, a yes/no is a
 * boolean, a number or a user id a number when it reads as one (otherwise the text, for the judge
 * to refuse in its own words).
 */
export function rawAttributeValue(field: Pick<AttributeField, 'type'>, text: string | undefined): unknown {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return null;
  switch (field.type) {
    case 'boolean':
      return trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed;
    case 'number':
    case 'user':
      return Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
    default:
      return text;
  }
}

/** Whether `raw` is the value the form opened with, in its stored form (" 004217 " is "004217", "SALES" is "Sales"). */
function sameValue(field: AttributeField, raw: unknown, openedText: string | undefined): boolean {
  const before = rawAttributeValue(field, openedText);
  if (raw === before) return true;
  const [now, was] = [checkAttributeValue(field, raw), checkAttributeValue(field, before)];
  return now.ok && was.ok && now.value === was.value;
}

export interface JudgedAttributes {
  /** What to send: every value on a create, the changed keys on an edit (`null` clears). */
  values: UserAttributesInput;
  /** The judge's sentence by key, for the fields it refused. */
  errors: Record<string, string>;
}

/**
 * Judges the form's attribute values with the server's own function (`checkAttributeValue`). A
 * create sends (and so judges) every field with a value and every required one; an edit only the
 * fields changed since the form opened, as the server judges only the keys it is sent.
 */
export function judgeAttributes(
  fields: readonly AttributeField[],
  texts: AttributeTexts | undefined,
  opened: AttributeTexts | null,
): JudgedAttributes {
  const values: Record<string, AttributeValue | null> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const raw = rawAttributeValue(field, texts?.[field.key]);
    const sent = opened === null ? raw !== null || field.required : !sameValue(field, raw, opened[field.key]);
    if (!sent) continue;
    const checked = checkAttributeValue(field, raw);
    if (checked.ok) values[field.key] = checked.value;
    else errors[field.key] = checked.message;
  }
  return { values, errors };
}

/** The key of an `attributes.<key>` error path, or null for another field's. */
export function attributeKeyOf(path: string): string | null {
  const prefix = attributePath('');
  return path.startsWith(prefix) ? path.slice(prefix.length) : null;
}

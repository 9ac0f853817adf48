import { type AttributeField, attributePath, type UserAttributesInput } from '@app/contracts';
import type { FieldError, FieldPath, FieldValues, Resolver, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../../lib/api-error';
import { RestError } from '../../lib/rest';
import { attributeKeyOf, type AttributeTexts, judgeAttributes } from './user-attribute-values';

// What the user form's values need: the attribute texts it holds and how stored values become them.
export { type AttributeTexts, toAttributeTexts } from './user-attribute-values';

type WithTexts = FieldValues & { attributes?: AttributeTexts };

/**
 * The user form's resolver with its custom attributes: the contract's schema judges the rest (the
 * `base` resolver), `checkAttributeValue` each attribute sent (what a create or an edit sends:
 * see judgeAttributes); the output carries `attributes` as the API takes them, or none when no
 * value is sent. Refs, because the definitions arrive after the form is made.
 */
export function withAttributeValues<V extends WithTexts, T>(
  base: Resolver<V, unknown, T>,
  fields: { readonly current: readonly AttributeField[] },
  opened: { readonly current: AttributeTexts | null },
): Resolver<V, unknown, T & { attributes?: UserAttributesInput }> {
  type Result = Awaited<ReturnType<Resolver<V, unknown, T & { attributes?: UserAttributesInput }>>>;
  return async (values, context, options): Promise<Result> => {
    const { attributes: texts, ...rest } = values;
    const result = await base(rest as V, context, options);
    const judged = judgeAttributes(fields.current, texts, opened.current);
    const refused = Object.entries(judged.errors);
    const failed = Object.keys(result.errors).length > 0 || refused.length > 0;
    if (!failed) {
      const attributes = Object.keys(judged.values).length > 0 ? { attributes: judged.values } : {};
      return { values: { ...(result.values as T), ...attributes }, errors: {} } as Result;
    }
    const attributeErrors: Record<string, FieldError> = Object.fromEntries(
      refused.map(([key, message]) => [key, { type: 'validate', message }]),
    );
    return {
      values: {},
      errors: { ...result.errors, ...(refused.length > 0 ? { attributes: attributeErrors } : {}) },
    } as Result;
  };
}

/**
 * The server's field errors on the user form: its own fields as applyServerFieldErrors places
 * them (a nested path on its top-level field) and `attributes.<key>` on that attribute's field,
 * focusing the first in the form's order. Answers the messages no shown field owns.
 */
export function applyUserFormErrors<T extends FieldValues>(
  error: unknown,
  fields: ReadonlyArray<FieldPath<T>>,
  attributes: readonly AttributeField[],
  setError: UseFormSetError<T>,
): { applied: boolean; unplaced: string[] } {
  const errors = isApiError(error) ? error.data?.errors : error instanceof RestError ? error.errors : undefined;
  if (!errors) return { applied: false, unplaced: [] };
  const order = [...fields, ...attributes.map((a) => attributePath(a.key) as FieldPath<T>)];
  const byField = new Map<FieldPath<T>, string[]>();
  const unplaced: string[] = [];
  for (const [path, messages] of Object.entries(errors)) {
    const key = attributeKeyOf(path);
    const field =
      key === null
        ? fields.find((name) => name === path.split('.')[0])
        : order.find((name) => name === attributePath(key));
    if (field) byField.set(field, [...(byField.get(field) ?? []), ...messages]);
    else unplaced.push(...messages);
  }
  let first = true;
  for (const field of order) {
    const messages = byField.get(field);
    if (!messages) continue;
    setError(field, { type: 'server', message: [...new Set(messages)].join(' ') }, { shouldFocus: first });
    first = false;
  }
  return { applied: byField.size > 0, unplaced };
}

import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-error';
import { RestError } from './rest';

/**
 * Puts the server's field errors (`error.data.errors`: `email`, `roles_ids`, `roles_ids.1`, …) on
 * the form's fields — a nested path lands on its top-level field — focusing the first one.
 * Returns the messages no field of this form owns (the input as a whole, a hidden field), for a
 * form-level banner.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: ReadonlyArray<FieldPath<T>>,
  setError: UseFormSetError<T>,
): { applied: boolean; unplaced: string[] } {
  const errors = isApiError(error) ? error.data?.errors : error instanceof RestError ? error.errors : undefined;
  if (!errors) return { applied: false, unplaced: [] };
  const byField = new Map<FieldPath<T>, string[]>();
  const unplaced: string[] = [];
  for (const [path, messages] of Object.entries(errors)) {
    const field = fields.find((name) => name === path.split('.')[0]);
    if (field) byField.set(field, [...(byField.get(field) ?? []), ...messages]);
    else unplaced.push(...messages);
  }
  // Focus follows the form's order, not the order the server listed the errors in.
  let first = true;
  for (const field of fields) {
    const messages = byField.get(field);
    if (!messages) continue;
    setError(field, { type: 'server', message: [...new Set(messages)].join(' ') }, { shouldFocus: first });
    first = false;
  }
  return { applied: byField.size > 0, unplaced };
}

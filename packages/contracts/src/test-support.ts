import { expect } from 'vitest';
import type { z } from 'zod';
import { codeFromZod, type ErrorCode, type FieldErrors, fieldErrorsFromZod } from './errors';

/** Parses input that must be accepted and returns the output. */
export function accept<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    expect.fail(`expected success, got ${JSON.stringify(fieldErrorsFromZod(result.error))}`);
  }
  return result.data;
}

/** Parses input that must be refused and returns what a client would see. */
export function refuse(schema: z.ZodType, input: unknown): { code: ErrorCode; errors: FieldErrors } {
  const result = schema.safeParse(input);
  if (result.success) expect.fail(`expected failure, got ${JSON.stringify(result.data)}`);
  return { code: codeFromZod(result.error), errors: fieldErrorsFromZod(result.error) };
}

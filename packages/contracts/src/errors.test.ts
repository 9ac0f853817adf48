import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  codeFromZod,
  ERROR_CODES,
  ERRORS,
  fieldErrorsFromZod,
  makeProblem,
  ProblemSchema,
  problemTypeUri,
  ROOT_ERROR_KEY,
} from './errors';

function errorOf(schema: z.ZodType, input: unknown): z.ZodError {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a failure');
  return result.error;
}

describe('error codes', () => {
  it('covers every code of the contract plus NOT_DELETED and INTERNAL', () => {
    expect([...ERROR_CODES].sort()).toEqual(
      [
        'UNAUTHENTICATED',
        'FORBIDDEN',
        'NOT_FOUND',
        'BAD_REQUEST',
        'VALIDATION_FAILED',
        'RELATION_NOT_ALLOWED',
        'COUNT_NOT_ALLOWED',
        'APPEND_NOT_ALLOWED',
        'SELF_DEACTIVATION',
        'LAST_ADMIN',
        'NOT_INACTIVE',
        'SELF_DELETE',
        'VERSION_CONFLICT',
        'RATE_LIMITED',
        'UNAVAILABLE',
        'NOT_DELETED',
        'NOT_ACTIVE',
        'ALREADY_SIGNED_IN',
        'INVALID_TOKEN',
        'INTERNAL',
        'OUTRANKED',
        'METHOD_NOT_ALLOWED',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
        'JOB_FINISHED',
        'ATTRIBUTE_CONFLICT',
        'ATTRIBUTE_BUSY',
        'NOT_UNDOABLE',
        'IDEMPOTENCY_KEY_IN_USE',
        'IDEMPOTENCY_KEY_REUSED',
        'ROLE_IN_USE',
        'ROLE_PROTECTED',
        'TWO_FACTOR_CHALLENGE_EXPIRED',
        'TWO_FACTOR_ENROLLED',
        'TWO_FACTOR_ENROLMENT_REQUIRED',
        'TWO_FACTOR_NOT_ENROLLED',
        'TWO_FACTOR_NOT_PENDING',
      ].sort(),
    );
  });

  it('gives each code the HTTP status of the contract', () => {
    const statuses = Object.fromEntries(ERROR_CODES.map((code) => [code, ERRORS[code].status]));
    expect(statuses).toMatchObject({
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      OUTRANKED: 403,
      NOT_FOUND: 404,
      ROLE_IN_USE: 409,
      ROLE_PROTECTED: 422,
      METHOD_NOT_ALLOWED: 405,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      BAD_REQUEST: 400,
      VALIDATION_FAILED: 422,
      RELATION_NOT_ALLOWED: 422,
      LAST_ADMIN: 422,
      VERSION_CONFLICT: 409,
      JOB_FINISHED: 409,
      ATTRIBUTE_CONFLICT: 409,
      ATTRIBUTE_BUSY: 409,
      NOT_UNDOABLE: 409,
      IDEMPOTENCY_KEY_IN_USE: 409,
      IDEMPOTENCY_KEY_REUSED: 422,
      RATE_LIMITED: 429,
      UNAVAILABLE: 503,
      INTERNAL: 500,
    });
  });

  it('gives each code a title that is a sentence', () => {
    for (const code of ERROR_CODES) expect(ERRORS[code].title).toMatch(/^[A-Z].*\.$/);
  });
});

describe('problem+json', () => {
  it('derives a relative type URI from the code', () => {
    expect(problemTypeUri('VALIDATION_FAILED')).toBe('/problems/validation-failed');
  });

  it('builds a problem that satisfies the problem schema', () => {
    const problem = makeProblem('FORBIDDEN', { detail: 'You need users.delete.', permission: 'users.delete' });
    expect(ProblemSchema.parse(problem)).toEqual({
      type: '/problems/forbidden',
      title: ERRORS.FORBIDDEN.title,
      status: 403,
      code: 'FORBIDDEN',
      detail: 'You need users.delete.',
      permission: 'users.delete',
    });
  });

  it('uses the title as detail when no detail is given', () => {
    expect(makeProblem('NOT_FOUND').detail).toBe(ERRORS.NOT_FOUND.title);
  });
});

describe('fieldErrorsFromZod', () => {
  it('joins nested paths with dots', () => {
    const schema = z.object({ filters: z.object({ created_between: z.object({ from: z.string() }) }) });
    const errors = fieldErrorsFromZod(errorOf(schema, { filters: { created_between: { from: 1 } } }));
    expect(Object.keys(errors)).toEqual(['filters.created_between.from']);
  });

  it('includes array indices in the path', () => {
    const errors = fieldErrorsFromZod(errorOf(z.object({ with: z.array(z.string()) }), { with: ['a', 2] }));
    expect(Object.keys(errors)).toEqual(['with.1']);
  });

  it('files an issue about the whole input under the root key', () => {
    const errors = fieldErrorsFromZod(errorOf(z.object({}), 'text'));
    expect(Object.keys(errors)).toEqual([ROOT_ERROR_KEY]);
  });

  it('files each unknown key of a strict object under its own path', () => {
    const schema = z.object({ filters: z.strictObject({ name: z.string().optional() }) });
    const errors = fieldErrorsFromZod(errorOf(schema, { filters: { foo: 1, bar: 2 } }));
    expect(Object.keys(errors).sort()).toEqual(['filters.bar', 'filters.foo']);
  });

  it('collects several messages for one path without repeating one', () => {
    const schema = z.string().min(5, 'Too short.').regex(/x/, 'Needs an x.');
    const errors = fieldErrorsFromZod(errorOf(z.object({ a: schema }), { a: 'abc' }));
    expect(errors.a).toEqual(['Too short.', 'Needs an x.']);
  });
});

describe('fieldErrorsFromZod: size', () => {
  it('reports at most 100 paths, however many entries failed', () => {
    const errors = fieldErrorsFromZod(
      errorOf(
        z.array(z.number()),
        Array.from({ length: 500 }, () => 'x'),
      ),
    );
    expect(Object.keys(errors)).toHaveLength(100);
  });
});

describe('fieldErrorsFromZod: odd paths', () => {
  it('files a path named like an Object.prototype member as plain data', () => {
    const schema = z.object({ constructor: z.string(), toString: z.string() });
    expect(fieldErrorsFromZod(errorOf(schema, { constructor: 1, toString: 2 }))).toEqual({
      constructor: ['Invalid input: expected string, received number'],
      toString: ['Invalid input: expected string, received number'],
    });
  });
});

describe('codeFromZod', () => {
  const withCode = (code: string) =>
    z.string().superRefine((_, ctx) => ctx.addIssue({ code: 'custom', message: 'No.', params: { code } }));

  it('returns the code a custom issue carries for a show query', () => {
    expect(codeFromZod(errorOf(withCode('COUNT_NOT_ALLOWED'), 'x'))).toBe('COUNT_NOT_ALLOWED');
  });

  it('returns VALIDATION_FAILED for an ordinary validation issue', () => {
    expect(codeFromZod(errorOf(z.number(), 'x'))).toBe('VALIDATION_FAILED');
  });

  it('ignores a custom code that is not a show-query code', () => {
    expect(codeFromZod(errorOf(withCode('LAST_ADMIN'), 'x'))).toBe('VALIDATION_FAILED');
  });

  it('returns the first show-query code when several are present', () => {
    const schema = z.object({ a: withCode('APPEND_NOT_ALLOWED'), b: withCode('RELATION_NOT_ALLOWED') });
    expect(codeFromZod(errorOf(schema, { a: 'x', b: 'y' }))).toBe('APPEND_NOT_ALLOWED');
  });
});

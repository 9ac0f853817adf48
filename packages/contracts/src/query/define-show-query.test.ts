import { describe, expect, it } from 'vitest';
import { userShowQuery } from '../users/users.query';
import { accept, refuse } from '../test-support';
import { parseQueryString } from './query-string';

const show = userShowQuery.input;

describe('defineShowQuery', () => {
  it('defaults to loading nothing extra', () => {
    expect(accept(show, undefined)).toEqual({ with: [], withCount: [], append: [], withTrashed: false });
  });

  it('accepts lists from bracket notation', () => {
    expect(
      accept(show, parseQueryString('with[]=roles&withCount[]=roles&append[]=is_admin&append[]=permission_names')),
    ).toEqual({
      with: ['roles'],
      withCount: ['roles'],
      append: ['is_admin', 'permission_names'],
      withTrashed: false,
    });
  });

  it('accepts a single name as a list of one', () => {
    expect(accept(show, { with: 'roles' }).with).toEqual(['roles']);
  });

  it('drops duplicate names', () => {
    expect(accept(show, { append: ['is_admin', 'is_admin'] }).append).toEqual(['is_admin']);
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads withTrashed=%s as %s', (raw, value) => {
    expect(accept(show, { withTrashed: raw }).withTrashed).toBe(value);
  });

  it('refuses withTrashed that is not a boolean word', () => {
    expect(refuse(show, { withTrashed: 'maybe' })).toEqual({
      code: 'VALIDATION_FAILED',
      errors: { withTrashed: ['withTrashed must be true or false (1 or 0 also work).'] },
    });
  });

  it('refuses a relation that is not allowed at its index, with RELATION_NOT_ALLOWED', () => {
    expect(refuse(show, { with: ['password'] })).toEqual({
      code: 'RELATION_NOT_ALLOWED',
      errors: { 'with.0': ['Relation "password" is not allowed. Allowed: roles.'] },
    });
  });

  it('refuses a single disallowed relation at with.0', () => {
    expect(Object.keys(refuse(show, { with: 'password' }).errors)).toEqual(['with.0']);
  });

  it('refuses a count that is not allowed at its index, with COUNT_NOT_ALLOWED', () => {
    expect(refuse(show, { withCount: ['roles', 'sessions'] })).toEqual({
      code: 'COUNT_NOT_ALLOWED',
      errors: { 'withCount.1': ['Count of relation "sessions" is not allowed. Allowed: roles.'] },
    });
  });

  it('refuses an append that is not allowed at its index, with APPEND_NOT_ALLOWED', () => {
    expect(refuse(show, { append: ['password_hash'] })).toEqual({
      code: 'APPEND_NOT_ALLOWED',
      errors: { 'append.0': ['Appended field "password_hash" is not allowed. Allowed: is_admin, permission_names.'] },
    });
  });

  it('refuses a name that is not text as plain validation', () => {
    expect(refuse(show, { with: [{ a: 'b' }] }).code).toBe('VALIDATION_FAILED');
  });
});

import { describe, expect, it } from 'vitest';
import { accept, refuse } from '../test-support';
import { RoleCreateInputSchema } from './roles.create';
import { RoleDeleteQuerySchema, RoleUpdateInputSchema } from './roles.write';

describe('role create input', () => {
  it('trims the description, reads a blank one as none, and lists each permission once', () => {
    expect(
      accept(RoleCreateInputSchema, {
        name: ' ops ',
        description: '  Night shift. ',
        permissions: ['users.view', 'users.view'],
      }),
    ).toEqual({ name: 'ops', description: 'Night shift.', permissions: ['users.view'], require_two_factor: false });
    expect(accept(RoleCreateInputSchema, { name: 'ops', description: '   ' }).description).toBeNull();
    expect(accept(RoleCreateInputSchema, { name: 'ops' })).toEqual({
      name: 'ops',
      description: null,
      permissions: [],
      require_two_factor: false,
    });
  });

  it('refuses a description too long or holding a control character, at description', () => {
    expect(refuse(RoleCreateInputSchema, { name: 'ops', description: 'x'.repeat(501) }).errors).toEqual({
      description: ['The description can be at most 500 characters long.'],
    });
    expect(refuse(RoleCreateInputSchema, { name: 'ops', description: 'a\u202eb' }).errors.description?.[0]).toMatch(
      /invisible or control character \(U\+202E\)/,
    );
  });
});

describe('role update input', () => {
  it('needs the name, the permissions and the version; a description left out stays undefined', () => {
    expect(accept(RoleUpdateInputSchema, { name: 'ops', permissions: [], version: 'v1' })).toEqual({
      name: 'ops',
      permissions: [],
      version: 'v1',
    });
    expect(refuse(RoleUpdateInputSchema, { name: 'ops' })).toEqual({
      code: 'VALIDATION_FAILED',
      errors: {
        permissions: ['List the permissions the role grants (an empty list for none).'],
        version: ['The version is missing. Reload the role and try again.'],
      },
    });
  });

  it('refuses an unknown permission at its index', () => {
    const { errors } = refuse(RoleUpdateInputSchema, { name: 'ops', permissions: ['users.fly'], version: 'v1' });
    expect(Object.keys(errors)).toEqual(['permissions.0']);
  });
});

describe('role delete query', () => {
  it.each([
    [undefined, false],
    ['true', true],
    ['1', true],
    ['FALSE', false],
    [true, true],
  ])('reads detach=%s as %s', (raw, value) => {
    expect(accept(RoleDeleteQuerySchema, raw === undefined ? {} : { detach: raw }).detach).toBe(value);
  });

  it('refuses detach that is not a boolean word', () => {
    expect(refuse(RoleDeleteQuerySchema, { detach: 'maybe' }).errors).toEqual({
      detach: ['detach must be true or false (1 or 0 also work).'],
    });
  });
});

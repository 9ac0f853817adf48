import { describe, expect, it } from 'vitest';
import { accept, refuse } from '../test-support';
import { SetActiveInputSchema, UserCreateInputSchema, UserUpdateInputSchema } from './users.forms';

const valid = {
  name: 'Ann Lee',
  email: 'ann@example.com',
  password: 'correct horse',
  password_confirmation: 'correct horse',
};

describe('user create input', () => {
  it('accepts a complete user', () => {
    expect(accept(UserCreateInputSchema, { ...valid, roles_ids: [2], is_active: true })).toEqual({
      ...valid,
      roles_ids: [2],
      is_active: true,
    });
  });

  it('trims name and e-mail', () => {
    const input = accept(UserCreateInputSchema, { ...valid, name: '  Ann  ', email: ' ann@example.com ' });
    expect([input.name, input.email]).toEqual(['Ann', 'ann@example.com']);
  });

  it('keeps spaces around the password as typed', () => {
    expect(
      accept(UserCreateInputSchema, { ...valid, password: ' secret  ', password_confirmation: ' secret  ' }).password,
    ).toBe(' secret  ');
  });

  it('refuses a blank name', () => {
    expect(refuse(UserCreateInputSchema, { ...valid, name: '   ' }).errors).toEqual({ name: ['Enter a name.'] });
  });

  it('refuses a name over 100 characters', () => {
    expect(Object.keys(refuse(UserCreateInputSchema, { ...valid, name: 'a'.repeat(101) }).errors)).toEqual(['name']);
  });

  it('refuses an invalid e-mail address', () => {
    expect(refuse(UserCreateInputSchema, { ...valid, email: 'ann@' }).errors).toEqual({
      email: ['Enter a valid e-mail address, e.g. ann@example.com.'],
    });
  });

  it.each([
    'x@a-.example.com',
    'x@-a.example.com',
    'x@a.-b.example.com',
    `x@${'a'.repeat(64)}.com`,
    `x@a.${'b'.repeat(64)}`,
  ])('refuses %s: a domain label starts and ends with a letter or digit and is at most 63 long', (email) => {
    expect(refuse(UserCreateInputSchema, { ...valid, email }).errors).toEqual({
      email: ['Enter a valid e-mail address, e.g. ann@example.com.'],
    });
  });

  it.each(["o'brien+tag@mail-1.example.co.uk", 'a_b@x1.io', 'n@a-b.example.com', `x@${'a'.repeat(63)}.com`])(
    'accepts %s',
    (email) => {
      expect(accept(UserCreateInputSchema, { ...valid, email }).email).toBe(email);
    },
  );

  it('refuses an e-mail address over 255 characters', () => {
    const email = `${'a'.repeat(250)}@example.com`;
    expect(refuse(UserCreateInputSchema, { ...valid, email }).errors).toEqual({
      email: ['The e-mail address can be at most 255 characters long.'],
    });
  });

  it.each([
    ['short', 'The password must be at least 8 characters long.'],
    ['x'.repeat(129), 'The password can be at most 128 characters long.'],
  ])('refuses the password %j', (password, message) => {
    expect(refuse(UserCreateInputSchema, { ...valid, password, password_confirmation: password }).errors).toEqual({
      password: [message],
    });
  });

  it('takes invite: true in place of a password, and refuses both or neither at password', () => {
    const { password: _p, password_confirmation: _c, ...bare } = valid;
    expect(accept(UserCreateInputSchema, { ...bare, invite: true })).toMatchObject({ invite: true });
    expect(accept(UserCreateInputSchema, { ...bare, invite: true }).password).toBeUndefined();
    expect(refuse(UserCreateInputSchema, { ...valid, invite: true }).errors).toEqual({
      password: ['Leave the password empty when inviting: the person chooses it through the link.'],
    });
    expect(refuse(UserCreateInputSchema, bare).errors).toEqual({ password: ['Enter a password.'] });
    expect(refuse(UserCreateInputSchema, { ...bare, invite: false }).errors).toEqual({
      password: ['Enter a password.'],
    });
  });

  it('refuses a confirmation that differs, at password_confirmation', () => {
    expect(refuse(UserCreateInputSchema, { ...valid, password_confirmation: 'something else' }).errors).toEqual({
      password_confirmation: ['The password confirmation does not match the password.'],
    });
  });

  it('reports a mismatched confirmation together with other errors', () => {
    expect(
      Object.keys(refuse(UserCreateInputSchema, { ...valid, name: '', password_confirmation: 'x' }).errors).sort(),
    ).toEqual(['name', 'password_confirmation']);
  });

  it('refuses role ids that are not positive whole numbers', () => {
    expect(Object.keys(refuse(UserCreateInputSchema, { ...valid, roles_ids: [1, 0] }).errors)).toEqual(['roles_ids.1']);
  });

  it('drops duplicate role ids', () => {
    expect(accept(UserCreateInputSchema, { ...valid, roles_ids: [3, 3, 1] }).roles_ids).toEqual([3, 1]);
  });
});

describe('user update input', () => {
  const update = { name: 'Ann', email: 'ann@example.com', version: 'v7' };

  it('leaves the password unchanged when it is absent', () => {
    expect(accept(UserUpdateInputSchema, update)).toEqual(update);
  });

  it('leaves the password unchanged when it is empty', () => {
    expect(accept(UserUpdateInputSchema, { ...update, password: '', password_confirmation: '' })).toEqual(update);
  });

  it('changes the password when it is given and confirmed', () => {
    expect(
      accept(UserUpdateInputSchema, { ...update, password: 'new secret', password_confirmation: 'new secret' })
        .password,
    ).toBe('new secret');
  });

  it('refuses a new password without its confirmation, at password_confirmation', () => {
    expect(Object.keys(refuse(UserUpdateInputSchema, { ...update, password: 'new secret' }).errors)).toEqual([
      'password_confirmation',
    ]);
  });

  it('refuses an update without a version', () => {
    expect(refuse(UserUpdateInputSchema, { name: 'Ann', email: 'ann@example.com' }).errors).toEqual({
      version: ['The version is missing. Reload the record and try again.'],
    });
  });
});

describe('set-active input', () => {
  it('accepts a boolean', () => {
    expect(accept(SetActiveInputSchema, { active: false })).toEqual({ active: false });
  });

  it('refuses anything else at active', () => {
    expect(refuse(SetActiveInputSchema, { active: 'no' }).errors).toEqual({
      active: ['Active must be true or false.'],
    });
  });
});

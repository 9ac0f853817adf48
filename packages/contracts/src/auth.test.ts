import { describe, expect, it } from 'vitest';
import { AuthSessionSchema, LoginInputSchema } from './auth';
import { capabilityMap } from './permissions';

describe('login input', () => {
  it('trims the e-mail but keeps the password exactly as typed', () => {
    expect(LoginInputSchema.parse({ email: '  ann@example.com ', password: ' secret ' })).toEqual({
      email: 'ann@example.com',
      password: ' secret ',
    });
  });

  it('refuses blank credentials and absurdly long passwords', () => {
    expect(LoginInputSchema.safeParse({ email: ' ', password: 'x' }).success).toBe(false);
    expect(LoginInputSchema.safeParse({ email: 'a@b.c', password: '' }).success).toBe(false);
    expect(LoginInputSchema.safeParse({ email: 'a@b.c', password: 'x'.repeat(129) }).success).toBe(false);
  });
});

describe('auth session', () => {
  it('carries a boolean for every permission name', () => {
    const session = {
      user: { id: 1, name: 'Ann', email: 'ann@example.com' },
      can: capabilityMap(['users.view']),
      two_factor: { enrolled: false, required: false },
    };
    expect(AuthSessionSchema.parse(session).can).toMatchObject({ 'users.view': true, 'users.delete': false });
    expect(AuthSessionSchema.safeParse({ ...session, can: { 'users.view': true } }).success).toBe(false);
  });
});

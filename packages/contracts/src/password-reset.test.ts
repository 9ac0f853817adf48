import { describe, expect, it } from 'vitest';
import { EmptyAnswerSchema, ForgotPasswordInputSchema, PasswordResetAnswerSchema } from './password-reset';

describe('password reset contracts', () => {
  it('takes the e-mail of "forgot password" in its canonical form, as login does', () => {
    expect(ForgotPasswordInputSchema.parse({ email: '  ANN@Example.com ' })).toEqual({ email: 'ann@example.com' });
    expect(ForgotPasswordInputSchema.safeParse({ email: ' ' }).success).toBe(false);
    expect(ForgotPasswordInputSchema.safeParse({ email: `${'a'.repeat(250)}@example.com` }).success).toBe(false);
  });

  it('answers "forgot password" with nothing to tell accounts apart by', () => {
    expect(EmptyAnswerSchema.parse({})).toEqual({});
    expect(EmptyAnswerSchema.safeParse({ sent: true }).success).toBe(false);
  });

  it("carries the administrator's link only as url, beside the reset sent", () => {
    const reset = { user_id: 3, expires_at: '2026-11-28T12:00:00.000Z', sent: false };
    expect(PasswordResetAnswerSchema.parse({ reset, url: 'https://x.test/reset-password/abc' }).reset).toEqual(reset);
    expect(PasswordResetAnswerSchema.safeParse({ reset: { ...reset, sent: 'no' } }).success).toBe(false);
  });
});

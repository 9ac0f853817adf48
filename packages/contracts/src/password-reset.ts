import { z } from 'zod';
import { canonicalEmailField } from './email';
import { IdSchema, IsoDateTimeSchema } from './common';

/**
 * POST /auth/password/forgot: the e-mail of the account to reset, canonicalised as login takes
 * it, so that every spelling that signs into an account asks for that account's link.
 */
export const ForgotPasswordInputSchema = z.object({
  email: canonicalEmailField({
    required: 'Enter your e-mail address.',
    tooLong: 'The e-mail address can be at most 255 characters long.',
  }),
});
export type ForgotPasswordInput = z.infer<typeof ForgotPasswordInputSchema>;

/**
 * The answer to "forgot password" (202) and to a completed reset (200): empty on purpose. The
 * first is the same whether an account has the e-mail or not; the second signs nobody in (a
 * second factor, when the account has one, is asked at sign-in).
 */
export const EmptyAnswerSchema = z.object({}).strict();
export type EmptyAnswer = z.infer<typeof EmptyAnswerSchema>;

/**
 * POST /users/{id}/password-reset (202): the reset link sent, or — without mail (no SMTP_URL) —
 * `url`, the link for the administrator to pass on, and `sent: false`.
 */
export const PasswordResetAnswerSchema = z.object({
  reset: z.object({ user_id: IdSchema, expires_at: IsoDateTimeSchema, sent: z.boolean() }),
  url: z.string().optional(),
});
export type PasswordResetAnswer = z.infer<typeof PasswordResetAnswerSchema>;

import { z } from 'zod';
import { TwoFactorChallengeSchema, TwoFactorStateSchema } from './account';
import { canonicalEmailField } from './email';
import { type CapabilityMap, PERMISSIONS, type Permission } from './permissions';

/**
 * Login takes the e-mail in its canonical form (see `canonicalEmail`; invisible and control
 * characters refused) and the password as typed (a space is a legal character). Lengths are
 * capped so a megabyte "password" cannot tie up a hash worker.
 */
export const LoginInputSchema = z.object({
  email: canonicalEmailField({
    required: 'Enter your e-mail address.',
    tooLong: 'The e-mail address can be at most 255 characters long.',
  }),
  password: z.string({ error: 'Enter your password.' }).min(1, 'Enter your password.').max(128),
});
export type LoginInput = z.infer<typeof LoginInputSchema>;

export const CapabilityMapSchema: z.ZodType<CapabilityMap> = z.object(
  Object.fromEntries(PERMISSIONS.map((p) => [p, z.boolean()])) as Record<Permission, z.ZodBoolean>,
);

export const SessionUserSchema = z.object({ id: z.number().int(), name: z.string(), email: z.string() });

/**
 * What a sign-in and `GET /auth/me` answer: who is signed in, what they may do, and where their
 * second factor stands (`required` and not `enrolled`: the session is held at enrolment).
 */
export const AuthSessionSchema = z.object({
  user: SessionUserSchema,
  can: CapabilityMapSchema,
  two_factor: TwoFactorStateSchema,
});
export type AuthSession = z.infer<typeof AuthSessionSchema>;

/**
 * `POST /auth/login`: signed in (the session), or — for an account with a second factor — the
 * password was right and `POST /auth/two-factor` comes next. The two are told apart by
 * `two_factor_required`, which only the second has.
 */
export const LoginAnswerSchema = z.union([AuthSessionSchema, TwoFactorChallengeSchema]);
export type LoginAnswer = z.infer<typeof LoginAnswerSchema>;

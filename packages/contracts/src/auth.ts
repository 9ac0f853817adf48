import { z } from 'zod';
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

/** What login and `GET /auth/me` answer: who is signed in and what they may do. */
export const AuthSessionSchema = z.object({ user: SessionUserSchema, can: CapabilityMapSchema });
export type AuthSession = z.infer<typeof AuthSessionSchema>;

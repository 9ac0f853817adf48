import { z } from 'zod';
import { type CapabilityMap, PERMISSIONS, type Permission } from './permissions';

/**
 * Login takes the credentials as typed: the e-mail is trimmed (compared case-insensitively by
 * the database), the password is not (a space is a legal character). Lengths are capped so a
 * megabyte "password" cannot tie up a hash worker.
 */
export const LoginInputSchema = z.object({
  email: z.string({ error: 'Enter your e-mail address.' }).trim().min(1, 'Enter your e-mail address.').max(255),
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

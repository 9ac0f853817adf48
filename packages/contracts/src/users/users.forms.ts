import { z } from 'zod';
import { canonicalEmailField } from '../email';
import { integer, numeric } from '../query/fields';
import { dedupe, isPlainObject } from '../query/normalise';

// Names and e-mails are trimmed; passwords are not: a space is a legitimate password character,
// and silently changing what was typed would lock the user out.
const name = z
  .string({ error: 'Enter a name.' })
  .trim()
  .min(1, 'Enter a name.')
  .max(100, 'The name can be at most 100 characters long.');

// E-mails are stored and compared in their canonical form (trimmed, NFKC, lower-case).
const email = canonicalEmailField({
  required: 'Enter an e-mail address.',
  tooLong: 'The e-mail address can be at most 255 characters long.',
}).pipe(z.email('Enter a valid e-mail address, e.g. ann@example.com.'));

const password = z
  .string({ error: 'Enter a password.' })
  .min(8, 'The password must be at least 8 characters long.')
  .max(128, 'The password can be at most 128 characters long.');

const roleIdMessage = 'Each role id must be a whole number of 1 or more.';
const rolesIds = z
  .array(numeric(integer(roleIdMessage, { min: 1 })), { error: 'Give the roles as a list of role ids.' })
  .transform(dedupe);

const isActive = z.boolean({ error: 'Active must be true or false.' });

/** An empty or null password on update means "keep the current one". */
const blankToAbsent = (raw: string | null | undefined) => (raw === '' || raw === null ? undefined : raw);

type PasswordPair = { password?: unknown; password_confirmation?: unknown };

function confirmationMatches(value: PasswordPair, ctx: z.core.$RefinementCtx<PasswordPair>): void {
  if (typeof value.password !== 'string') return;
  if (value.password_confirmation === value.password) return;
  ctx.addIssue({
    code: 'custom',
    path: ['password_confirmation'],
    message: 'The password confirmation does not match the password.',
    input: value.password_confirmation,
  });
}

// Run the confirmation check even when another field failed, so a form shows every error at once.
const always = { when: (payload: { value: unknown }) => isPlainObject(payload.value) };

export const UserCreateInputSchema = z
  .object({
    name,
    email,
    password,
    password_confirmation: z.string({ error: 'Repeat the password.' }).optional(),
    roles_ids: rolesIds.optional(),
    is_active: isActive.optional(),
  })
  .superRefine(confirmationMatches, always);
export type UserCreateInput = z.output<typeof UserCreateInputSchema>;

export const UserUpdateInputSchema = z
  .object({
    name,
    email,
    password: z.preprocess(blankToAbsent, password.optional()),
    password_confirmation: z.preprocess(blankToAbsent, z.string({ error: 'Repeat the password.' }).optional()),
    roles_ids: rolesIds.optional(),
    is_active: isActive.optional(),
    version: z
      .string({ error: 'The version is missing. Reload the record and try again.' })
      .min(1, 'The version is missing. Reload the record and try again.'),
  })
  .superRefine(confirmationMatches, always);
export type UserUpdateInput = z.output<typeof UserUpdateInputSchema>;

export const SetActiveInputSchema = z.object({ active: isActive });
export type SetActiveInput = z.output<typeof SetActiveInputSchema>;

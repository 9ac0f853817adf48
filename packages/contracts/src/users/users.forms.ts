import { UserAttributesInputSchema } from '../attributes/user-attributes';
import { z } from 'zod';
import { canonicalEmailField, EMAIL_PATTERN } from '../email';
import { constrainInput, describeInput, ifThen, inputJsonSchema } from '../json-schema';
import { PermissionSchema } from '../permissions';
import { integer, numeric, POSITIVE_INTEGER_TEXT_PATTERN } from '../query/fields';
import { dedupe, isPlainObject } from '../query/normalise';
import { ENCODABLE_TEXT_PATTERN, plainText, UNENCODABLE_PASSWORD_MESSAGE } from '../text';

// Names and e-mails are trimmed; passwords are not: a space is a legitimate password character,
// and silently changing what was typed would lock the user out. A name is free text (text.ts); a
// password may hold anything that can be encoded.
const name = plainText('name', { error: 'Enter a name.' })
  .min(1, 'Enter a name.')
  .max(100, 'The name can be at most 100 characters long.');

// E-mails are stored and compared in their canonical form (trimmed, NFKC, lower-case).
const email = canonicalEmailField({
  required: 'Enter an e-mail address.',
  tooLong: 'The e-mail address can be at most 255 characters long.',
}).pipe(z.email({ pattern: EMAIL_PATTERN, error: 'Enter a valid e-mail address, e.g. ann@example.com.' }));

const password = z
  .string({ error: 'Enter a password.' })
  .min(8, 'The password must be at least 8 characters long.')
  .max(128, 'The password can be at most 128 characters long.')
  .regex(ENCODABLE_TEXT_PATTERN, UNENCODABLE_PASSWORD_MESSAGE);

const roleIdMessage = 'Each role id must be a whole number of 1 or more.';
const roleId = numeric(integer(roleIdMessage, { min: 1 }));
const rolesIds = z.array(roleId, { error: 'Give the roles as a list of role ids.' }).transform(dedupe);

// A user's direct grants, beside what their roles give: the whole list (on update, what is left out is taken away).
const directPermissions = z
  .array(PermissionSchema, { error: 'List the permissions granted to the user directly (an empty list for none).' })
  .transform(dedupe);

const isActive = z.boolean({ error: 'Active must be true or false.' });

const confirmation = z.string({ error: 'Repeat the password.' });

/** An empty or null password on update means "keep the current one". */
const blankToAbsent = (raw: string | null | undefined) => (raw === '' || raw === null ? undefined : raw);
const keptPassword = z.preprocess(blankToAbsent, password.optional());
const keptConfirmation = z.preprocess(blankToAbsent, confirmation.optional());

// For the OpenAPI document (json-schema.ts), what zod cannot derive from a trim, a pipe or a preprocess.
// A name is trimmed before its length is counted: it must not be blank.
constrainInput(name, { pattern: '\\S' });
describeInput(email, {
  ...inputJsonSchema(z.email({ pattern: EMAIL_PATTERN })),
  maxLength: 255,
  examples: ['ann@example.com'],
});
// A role id may come as text, as from a form's select: `"3"`.
describeInput(roleId, {
  anyOf: [
    { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    { type: 'string', pattern: POSITIVE_INTEGER_TEXT_PATTERN },
  ],
});
// The confirmation equals the password (which JSON Schema cannot compare), so it has its shape.
describeInput(confirmation, inputJsonSchema(password));
describeInput(keptPassword, { anyOf: [inputJsonSchema(password), { type: 'string', maxLength: 0 }, { type: 'null' }] });
describeInput(keptConfirmation, { type: ['string', 'null'] });

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

const INVITE_WITH_PASSWORD = 'Leave the password empty when inviting: the person chooses it through the link.';

/**
 * A new account has a password, or (`invite: true`) none yet: the invitation's link lets the
 * person choose it. Never both, never neither.
 */
function passwordOrInvite(
  value: { password?: unknown; invite?: unknown },
  ctx: z.core.$RefinementCtx<{ password?: unknown; invite?: unknown }>,
) {
  if (value.invite === true && value.password !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: INVITE_WITH_PASSWORD, input: value.password });
  }
  if (value.invite !== true && value.password === undefined) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: 'Enter a password.', input: undefined });
  }
}

/**
 * An account's own fields judged as the forms judge them, for a door that reads them from another
 * shape (SCIM's userName, name and emails): the same name, e-mail and password rules.
 */
export const AccountFieldsSchema = z.object({ name, email, password: password.optional() });
export type AccountFields = z.output<typeof AccountFieldsSchema>;

export const UserCreateInputSchema = z
  .object({
    name,
    email,
    password: password.optional(),
    password_confirmation: confirmation.optional(),
    roles_ids: rolesIds.optional(),
    permissions: directPermissions.optional(),
    is_active: isActive.optional(),
    invite: z.boolean({ error: 'Invite must be true or false.' }).optional(),
    /** Custom attribute values by key (SPEC §14); every required attribute the caller may see. */
    attributes: UserAttributesInputSchema.optional(),
  })
  .superRefine(confirmationMatches, always)
  .superRefine(passwordOrInvite, always);
export type UserCreateInput = z.output<typeof UserCreateInputSchema>;
constrainInput(UserCreateInputSchema, {
  dependentRequired: { password: ['password_confirmation'] },
  // A password, or an invitation instead of one (the refinement above).
  oneOf: [
    { required: ['password'], not: { properties: { invite: { const: true } }, required: ['invite'] } },
    { properties: { invite: { const: true } }, required: ['invite'], not: { required: ['password'] } },
  ],
});

export const UserUpdateInputSchema = z
  .object({
    name,
    email,
    password: keptPassword,
    password_confirmation: keptConfirmation,
    roles_ids: rolesIds.optional(),
    permissions: directPermissions.optional(),
    is_active: isActive.optional(),
    /** Only the keys given change; `null` clears one. */
    attributes: UserAttributesInputSchema.optional(),
    version: z
      .string({ error: 'The version is missing. Reload the record and try again.' })
      .min(1, 'The version is missing. Reload the record and try again.'),
  })
  .superRefine(confirmationMatches, always);
export type UserUpdateInput = z.output<typeof UserUpdateInputSchema>;
// A new password (not blank, which keeps the current one) needs its confirmation.
constrainInput(
  UserUpdateInputSchema,
  ifThen(
    { properties: { password: { type: 'string', minLength: 1 } }, required: ['password'] },
    { required: ['password_confirmation'], properties: { password_confirmation: inputJsonSchema(password) } },
  ),
);

export const SetActiveInputSchema = z.object({ active: isActive });
export type SetActiveInput = z.output<typeof SetActiveInputSchema>;

/**
 * A new password chosen through a mail's link (an invitation, a reset): the token from the link,
 * and the password twice, under the same policy as the forms'.
 */
export const LinkPasswordInputSchema = z
  .object({
    token: z
      .string({ error: 'The link is incomplete: open it again from the mail.' })
      .min(1, 'The link is incomplete: open it again from the mail.')
      .max(200, 'This link is not valid.'),
    password,
    password_confirmation: confirmation,
  })
  .superRefine(confirmationMatches, always);
export type LinkPasswordInput = z.infer<typeof LinkPasswordInputSchema>;

/** PUT /account: one's own name (the e-mail is the administrators' to change). */
export const AccountUpdateInputSchema = z.object({ name });
export type AccountUpdateInput = z.output<typeof AccountUpdateInputSchema>;

/** PUT /account/password: the current password proves it is the owner; the new one under the forms' policy. */
export const AccountPasswordInputSchema = z
  .object({
    current_password: z
      .string({ error: 'Enter your current password.' })
      .min(1, 'Enter your current password.')
      .max(128, 'The password is incorrect.'),
    password,
    password_confirmation: confirmation,
  })
  .superRefine(confirmationMatches, always);
export type AccountPasswordInput = z.output<typeof AccountPasswordInputSchema>;

import { z } from 'zod';
import { IdSchema, IsoDateTimeSchema } from './common';
import { constrainInput, describeInput } from './json-schema';

/**
 * Where one's second factor stands: `enrolled` once a TOTP enrolment was confirmed; `required`
 * when one of one's roles asks for a second factor (SPEC §14). A session of a member who is
 * required and not enrolled is held at enrolment (403 TWO_FACTOR_ENROLMENT_REQUIRED).
 */
export const TwoFactorStateSchema = z.object({ enrolled: z.boolean(), required: z.boolean() });
export type TwoFactorState = z.infer<typeof TwoFactorStateSchema>;

/** GET /account, PUT /account: one's own account, as the account page shows it. */
export const AccountSchema = z.object({
  item: z.object({
    id: IdSchema,
    name: z.string(),
    email: z.string(),
    roles: z.array(z.string()),
    two_factor: TwoFactorStateSchema,
    last_sign_in_at: IsoDateTimeSchema.nullable(),
  }),
});
export type Account = z.infer<typeof AccountSchema>;

/** PUT /account/password: how many of one's other sessions and API tokens the change ended. */
export const PasswordChangedSchema = z.object({
  sessions_ended: z.number().int().nonnegative(),
  tokens_revoked: z.number().int().nonnegative(),
});
export type PasswordChanged = z.infer<typeof PasswordChangedSchema>;

/** The digits of a TOTP code (RFC 6238 as the product uses it: SHA-1, 6 digits, 30 seconds). */
export const TOTP_DIGITS = 6;
/** How many recovery codes an enrolment hands out, shown once. */
export const RECOVERY_CODE_COUNT = 10;

const CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app.';
const RECOVERY_MESSAGE = 'Enter one of your recovery codes.';

/** A code: six digits, as the app shows them without the space ("123 456" is the SPA's to join). */
export const TotpCodeSchema = z.string({ error: CODE_MESSAGE }).regex(/^[0-9]{6}$/, CODE_MESSAGE);

/** A recovery code as typed: case and the dash do not matter (`ABCDE-FGH2J`, `abcdefgh2j`). */
export const RecoveryCodeSchema = z
  .string({ error: RECOVERY_MESSAGE })
  .regex(/^[A-Za-z2-7]{5}-?[A-Za-z2-7]{5}$/, 'This is not a recovery code.')
  .transform((v) => v.toLowerCase().replace('-', ''));

// For the OpenAPI document (json-schema.ts): examples its case maker starts from.
describeInput(TotpCodeSchema, { type: 'string', pattern: '^[0-9]{6}$', examples: ['123456'] });
describeInput(RecoveryCodeSchema, {
  type: 'string',
  pattern: '^[A-Za-z2-7]{5}-?[A-Za-z2-7]{5}$',
  examples: ['abcde-fgh2j'],
});

/** POST /account/two-factor: the pending enrolment's secret (base32) and its `otpauth://` URL, for a QR code. */
export const TwoFactorSetupSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TwoFactorSetup = z.infer<typeof TwoFactorSetupSchema>;

/** POST /account/two-factor/confirm: a code from the app proves it holds the secret. */
export const TwoFactorConfirmInputSchema = z.object({ code: TotpCodeSchema });
export type TwoFactorConfirmInput = z.output<typeof TwoFactorConfirmInputSchema>;

/** The recovery codes of a confirmed enrolment: shown this once, stored hashed. */
export const RecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/**
 * A second factor as proof: a code from the app, or one of the recovery codes. Signing in
 * (`POST /auth/two-factor`) and disabling (`DELETE /account/two-factor`) take either, not both.
 */
export const SecondFactorInputSchema = z
  .object({ code: TotpCodeSchema.optional(), recovery_code: RecoveryCodeSchema.optional() })
  .superRefine((value, ctx) => {
    if ((value.code === undefined) === (value.recovery_code === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: `${CODE_MESSAGE} Or use a recovery code.` });
    }
  });
export type SecondFactorInput = z.output<typeof SecondFactorInputSchema>;
// For the OpenAPI document (json-schema.ts): exactly one of the two, as the refinement says.
constrainInput(SecondFactorInputSchema, { oneOf: [{ required: ['code'] }, { required: ['recovery_code'] }] });

/** POST /auth/login for an account with a second factor: the password was right; the code comes next. */
export const TwoFactorChallengeSchema = z.object({ two_factor_required: z.literal(true) });
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallengeSchema>;

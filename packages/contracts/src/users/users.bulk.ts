import { z } from 'zod';
import { IdSchema } from '../common';
import type { ErrorCode } from '../errors';
import { AttributeKeySchema } from '../attributes/attribute-schema';
import { AttributeValueSchema } from '../attributes/user-attributes';
import { constrainInput, ifThen } from '../json-schema';
import { isPlainObject } from '../query/normalise';
import { type BulkNoun, bulkIds, bulkSelection, checkBulkTargets, dryRunField } from '../bulk';
import { usersListQuery } from './users.query';
import { BULK_OPERATIONS, BULK_ROLE_OPERATIONS, isBulkRoleOperation } from './users.bulk-operations';

/** Codes the users business rules (SPEC §7) can refuse a change with. */
export const USERS_RULE_CODES = [
  'OUTRANKED',
  'SELF_DEACTIVATION',
  'LAST_ADMIN',
  'NOT_INACTIVE',
  'SELF_DELETE',
] as const satisfies readonly ErrorCode[];
export type UsersRuleCode = (typeof USERS_RULE_CODES)[number];

/**
 * A user addRole/removeRole leaves as it was: already holding the role, or not holding it. Not
 * errors (nothing was refused), so not among the error codes.
 */
export const BULK_ROLE_SKIP_CODES = ['ROLE_ALREADY_HELD', 'ROLE_NOT_HELD'] as const;

/**
 * setAttribute of a unique attribute: another user already holds the value. Not an error of the
 * request (the value itself is fine), so not among the error codes.
 */
export const BULK_ATTRIBUTE_SKIP_CODES = ['ATTRIBUTE_VALUE_TAKEN'] as const;

/** Why a bulk entry was skipped: a rule, a missing user, a wrong state, or the record policy. */
export const BULK_SKIP_CODES = [
  ...USERS_RULE_CODES,
  'NOT_FOUND',
  'NOT_DELETED',
  'FORBIDDEN',
  ...BULK_ROLE_SKIP_CODES,
  // Invite: an account that cannot accept an invitation (domain/users.invite.ts).
  'NOT_ACTIVE',
  'ALREADY_SIGNED_IN',
  ...BULK_ATTRIBUTE_SKIP_CODES,
] as const satisfies readonly (
  | ErrorCode
  | (typeof BULK_ROLE_SKIP_CODES)[number]
  | (typeof BULK_ATTRIBUTE_SKIP_CODES)[number]
)[];
export type BulkSkipCode = (typeof BULK_SKIP_CODES)[number];

const USERS: BulkNoun = { one: 'user', many: 'users' };

/** Every user a list query matches, less `except` (bulk.ts). */
export const BulkSelectionSchema = bulkSelection(usersListQuery.input, USERS);
export type BulkSelection = z.output<typeof BulkSelectionSchema>;

export const BulkInputSchema = z
  .object({
    operation: z.enum(BULK_OPERATIONS, { error: `Operation must be one of: ${BULK_OPERATIONS.join(', ')}.` }),
    ids: bulkIds(USERS).optional(),
    selection: BulkSelectionSchema.optional(),
    active: z.boolean({ error: 'Active must be true or false.' }).optional(),
    role_id: z
      .number({ error: 'A role id must be a whole number of 1 or more.' })
      .int('A role id must be a whole number of 1 or more.')
      .positive('A role id must be a whole number of 1 or more.')
      .optional(),
    /** setAttribute: the attribute's key, and the value to give every user (null clears it). */
    attribute: AttributeKeySchema.optional(),
    value: AttributeValueSchema.nullable().optional(),
    dryRun: dryRunField,
  })
  .superRefine(
    (value, ctx) => {
      if (value.operation === 'setActive' && value.active === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['active'],
          message: 'Say whether to activate or deactivate: active must be true or false.',
          input: undefined,
        });
      }
      if (isBulkRoleOperation(value.operation) && value.role_id === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['role_id'],
          message: `Say which role to ${value.operation === 'addRole' ? 'give' : 'take away'}: role_id is required.`,
          input: undefined,
        });
      }
      if (value.operation === 'setAttribute') {
        if (value.attribute === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['attribute'],
            message: 'Say which attribute to set: attribute (its key) is required.',
            input: undefined,
          });
        }
        // Absent is a mistake; null says "clear it" (the definition's rules judge the value itself).
        if (value.value === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['value'],
            message: 'Say which value to give: value is required (null clears it).',
            input: undefined,
          });
        }
      }
      checkBulkTargets(value, ctx, USERS);
    },
    // Checked even when `ids` failed, so every mistake is reported at once.
    { when: (payload) => isPlainObject(payload.value) },
  );
export type BulkInput = z.output<typeof BulkInputSchema>;
/** What a client sends (the selection's query as a list query's input). */
export type BulkRequest = z.input<typeof BulkInputSchema>;
// For the OpenAPI document (json-schema.ts): what the refinements above enforce.
constrainInput(BulkInputSchema, {
  allOf: [
    ifThen({ properties: { operation: { const: 'setActive' } }, required: ['operation'] }, { required: ['active'] }),
    ifThen(
      { properties: { operation: { enum: [...BULK_ROLE_OPERATIONS] } }, required: ['operation'] },
      { required: ['role_id'] },
    ),
    ifThen(
      { properties: { operation: { const: 'setAttribute' } }, required: ['operation'] },
      { required: ['attribute', 'value'] },
    ),
  ],
  oneOf: [{ required: ['ids'] }, { required: ['selection'] }],
});

export const BulkReportSchema = z.object({
  operation: z.enum(BULK_OPERATIONS),
  dryRun: z.boolean(),
  requested: z.number().int().nonnegative(),
  affected: z.array(IdSchema),
  skipped: z.array(z.object({ id: z.number().int(), code: z.enum(BULK_SKIP_CODES), message: z.string() })),
  /**
   * invite: whether the links went by mail, and how many (in a dry run, would). Without mail no
   * link is answered or kept: each user's page sends it again once SMTP_URL is set.
   */
  invitations: z.object({ mailed: z.boolean(), sent: z.number().int().nonnegative() }).optional(),
});
export type BulkReport = z.infer<typeof BulkReportSchema>;

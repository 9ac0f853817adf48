import { z } from 'zod';
import { IdSchema, IsoDateTimeSchema, NamedRefSchema } from '../common';
import { integer, numeric } from '../query/fields';
import { constrainInput } from '../json-schema';
import { PERMISSIONS, PermissionSchema } from '../permissions';
import { plainText } from '../text';

/** A user keeps at most this many API tokens: a leaked script minting tokens in a loop is bounded. */
export const TOKENS_PER_USER = 50;
/** The furthest expiry a token may be given (five years): "never" is `null`, not a far date. */
export const TOKEN_MAX_LIFETIME_DAYS = 5 * 366;

/** A token's name: free text (text.ts), so the list and the audit trail show what was typed. */
export const TokenNameSchema = plainText('name', { error: 'Give the token a name.' })
  .min(1, 'Give the token a name.')
  .max(100, 'The name can be at most 100 characters long.');

/**
 * POST /tokens and POST /users/{id}/tokens. `scopes` narrows the token to some of its owner's
 * permissions; absent or null, the token acts with whatever its owner holds at each request.
 * Either way a token never holds more than its owner holds now (judged at every request).
 */
export const TokenCreateInputSchema = z.object({
  name: TokenNameSchema,
  expires_at: IsoDateTimeSchema.nullable()
    .optional()
    .refine((v) => v == null || Date.parse(v) > Date.now(), 'The expiry must be in the future.')
    .refine(
      (v) => v == null || Date.parse(v) <= Date.now() + TOKEN_MAX_LIFETIME_DAYS * 86_400_000,
      'A token can live at most five years; leave the expiry empty for a token that does not expire.',
    ),
  scopes: constrainInput(
    z
      .array(PermissionSchema)
      .min(1, 'Pick at least one permission, or leave the scopes out to act with all of yours.')
      .max(PERMISSIONS.length)
      .refine((list) => new Set(list).size === list.length, 'Each permission can be listed once.'),
    { uniqueItems: true },
  )
    .nullable()
    .optional(),
});
// For the OpenAPI document (json-schema.ts): trimmed before its length is counted, a name is not blank.
constrainInput(TokenNameSchema, { pattern: '\\S' });
export type TokenCreateInput = z.infer<typeof TokenCreateInputSchema>;

/** One API token as listed: never its secret, which exists only in the create response. */
export const ApiTokenSchema = z.object({
  id: IdSchema,
  name: z.string(),
  /** null: acts with all of its owner's permissions. */
  scopes: z.array(PermissionSchema).nullable(),
  created_at: IsoDateTimeSchema,
  expires_at: IsoDateTimeSchema.nullable(),
  expired: z.boolean(),
  last_used_at: IsoDateTimeSchema.nullable(),
  last_used_ip: z.string().nullable(),
  /** Who made it: the owner, another administrator (with tokens.manage), or null for the command line. */
  created_by: NamedRefSchema.nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

export const ApiTokenListSchema = z.object({ items: z.array(ApiTokenSchema) });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;

/** The create response: the only time the secret is ever shown. */
export const ApiTokenCreatedSchema = z.object({ item: ApiTokenSchema, token: z.string() });
export type ApiTokenCreated = z.infer<typeof ApiTokenCreatedSchema>;

/** `{id, tokenId}` of DELETE /users/{id}/tokens/{tokenId}. */
export const TokenIdInputSchema = z.object({
  tokenId: numeric(integer('The token id must be a whole number of 1 or more.', { min: 1 })),
});
export type TokenIdInput = z.infer<typeof TokenIdInputSchema>;

/**
 * GET /tokens/options and GET /users/{id}/tokens/options: the permissions a new token may be
 * narrowed to, in the contract's order — those both its owner and the caller hold now, as the
 * create route judges them.
 */
export const TokenOptionsSchema = z.object({ scopes: z.array(PermissionSchema) });
export type TokenOptions = z.infer<typeof TokenOptionsSchema>;

import { z } from 'zod';
import { IdSchema, IsoDateTimeSchema } from './common';
import { constrainInput } from './json-schema';
import { listResultSchema } from './lists';
import { integer, numeric } from './query/fields';
import { plainText } from './text';

/** At most this many providers: the sign-in page shows a button for each. */
export const AUTH_PROVIDERS_MAX = 20;

/** For the OpenAPI document (json-schema.ts): trimmed before its length is counted, so not blank. */
const notBlank = <S extends z.ZodType>(schema: S): S => constrainInput(schema, { pattern: '\\S' });

/** An e-mail domain as people write it after the @ (`example.com`), kept in lower case. */
const DomainSchema = constrainInput(
  plainText('domain')
    .regex(
      /^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/,
      'Give a domain such as example.com (the part of an e-mail address after the @).',
    )
    .toLowerCase(),
  { examples: ['example.com'] },
);

/**
 * POST /auth/providers and PUT /auth/providers/{id} (SPEC §14): an OpenID Connect provider. The
 * issuer's discovery document is read when saved. `client_secret` is written, never answered; on
 * a PUT it may be left out to keep the stored one.
 */
export const AuthProviderInputSchema = z.object({
  name: notBlank(
    plainText('name', { error: 'Give the name the sign-in button shows.' })
      .min(1, 'Give the name the sign-in button shows.')
      .max(100, 'The name can be at most 100 characters long.'),
  ),
  // Whether http is admitted, and which hosts, is the server's call (SSO_ALLOW_INSECURE_ISSUER).
  issuer: constrainInput(
    plainText('issuer', { error: 'Give the issuer URL.' })
      .max(500, 'The issuer URL can be at most 500 characters long.')
      .regex(
        /^https?:\/\/[^\s/?#]+[^\s?#]*$/,
        'Give the issuer as a URL, such as https://login.example.com/realms/staff.',
      ),
    { examples: ['https://login.example.com/realms/staff'] },
  ),
  client_id: notBlank(
    plainText('client id', { error: 'Give the client id.' })
      .min(1, 'Give the client id.')
      .max(255, 'The client id can be at most 255 characters long.'),
  ),
  client_secret: z
    .string({ error: 'Give the client secret.' })
    .min(1, 'Give the client secret.')
    .max(1000, 'The client secret can be at most 1000 characters long.')
    .optional(),
  allowed_domains: constrainInput(
    z
      .array(DomainSchema, { error: 'List the e-mail domains allowed to sign in.' })
      .min(1, 'List at least one e-mail domain allowed to sign in.')
      .max(50, 'At most 50 domains.')
      .refine((list) => new Set(list).size === list.length, 'Each domain can be listed once.'),
    { uniqueItems: true },
  ),
  create_users: z.boolean().default(false),
  default_roles: z
    .array(notBlank(plainText('role').min(1).max(100)), { error: 'Give the default roles as a list of role names.' })
    .max(50)
    .default([]),
});
export type AuthProviderInput = z.infer<typeof AuthProviderInputSchema>;

/** POST /auth/providers: as a change, but a new provider needs its client secret. */
export const AuthProviderCreateInputSchema = AuthProviderInputSchema.extend({
  client_secret: AuthProviderInputSchema.shape.client_secret.unwrap(),
});

/** A provider as answered: never its secret, only whether one is stored. */
export const AuthProviderSchema = z.object({
  id: IdSchema,
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  client_secret_set: z.boolean(),
  allowed_domains: z.array(z.string()),
  create_users: z.boolean(),
  default_roles: z.array(z.string()),
  /** Where the provider sends the browser back (from PUBLIC_URL): register it at the provider. */
  redirect_uri: z.string(),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
});
export type AuthProvider = z.infer<typeof AuthProviderSchema>;

export const AuthProviderItemSchema = z.object({ item: AuthProviderSchema });
export type AuthProviderItem = z.infer<typeof AuthProviderItemSchema>;
export const AuthProviderListSchema = listResultSchema(AuthProviderSchema);
export type AuthProviderList = z.infer<typeof AuthProviderListSchema>;

/** GET /auth/providers/public: what the sign-in page needs for its buttons, nothing more. */
export const PublicAuthProviderListSchema = z.array(z.object({ id: IdSchema, name: z.string() }));
export type PublicAuthProviderList = z.infer<typeof PublicAuthProviderListSchema>;

/**
 * Why a single sign-on ended at `/login?error=<code>` (stable: the sign-in page words each).
 * `sso_state`: the browser came back without the sign-in it started (another browser, too late, a
 * replay); `sso_token`: the provider's answer or ID token failed a check (issuer, audience,
 * signature, nonce, expiry); `sso_provider`: the provider is gone, unreachable or refused;
 * `sso_rate_limited`: too many sign-ins started from the client's network (the login's limit).
 */
export const SSO_ERRORS = [
  'sso_state',
  'sso_token',
  'sso_provider',
  'sso_email_unverified',
  'sso_domain',
  'sso_inactive',
  'sso_no_account',
  'sso_rate_limited',
] as const;
export type SsoError = (typeof SSO_ERRORS)[number];

/** GET /auth/sso/{id}/start. */
export const SsoStartInputSchema = z.object({
  id: numeric(integer('The id must be a whole number of 1 or more.', { min: 1 })),
});
export type SsoStartInput = z.infer<typeof SsoStartInputSchema>;

/**
 * GET /auth/sso/{id}/callback: what the provider sends back in the query string (RFC 6749 §4.1.2,
 * RFC 9207's `iss`). Kept as text: the client library judges it, with the whole URL.
 */
const param = z.string().max(4000).optional();
export const SsoCallbackInputSchema = SsoStartInputSchema.extend({
  code: param,
  state: param,
  iss: param,
  error: param,
  error_description: param,
  session_state: param,
});
export type SsoCallbackInput = z.infer<typeof SsoCallbackInputSchema>;

/** Where a start or a callback sends the browser (302 Location). */
export const SsoRedirectSchema = z.object({ location: z.string() });
export type SsoRedirect = z.infer<typeof SsoRedirectSchema>;

import { AccountFieldsSchema, type AccountFields, refusedCharacter, SCIM_SCHEMAS, scimBoolean } from '@app/contracts';
import { z } from 'zod';
import { invalidSyntax, invalidValue } from '../scim-error.js';
import type { UserIdentity } from '../../modules/users/users.write-repository.js';
import { enterpriseFieldsOf } from './scim-enterprise.js';
import { nameParts } from './scim-user.mapping.js';

/** What a SCIM client writes of a user (POST, PUT, and PATCH's result). */
export interface ScimUserFields {
  userName: string;
  externalId: string | null;
  name: { formatted: string | null; givenName: string | null; familyName: string | null };
  displayName: string | null;
  emails: { value: string; type?: string; primary?: boolean }[];
  active: boolean;
  /** Enterprise extension fields by name, as sent (mapped onto custom attributes later). */
  enterprise: Record<string, unknown>;
  password?: string;
}

const text = z.string().trim();
const optionalText = z.preprocess((raw) => (raw === '' ? null : raw), text.nullish());

const UserBodySchema = z.object({
  userName: text.min(1, 'userName is required.').max(255, 'userName is longer than 255 characters.'),
  externalId: optionalText.pipe(z.string().max(255, 'externalId is longer than 255 characters.').nullish()),
  name: z.object({ formatted: optionalText, givenName: optionalText, familyName: optionalText }).partial().nullish(),
  displayName: optionalText,
  emails: z
    .array(z.object({ value: text, type: text.optional(), primary: scimBoolean.optional() }))
    .max(20, 'At most 20 e-mails.')
    .nullish(),
  active: scimBoolean.optional(),
  password: z.string().optional(),
});

/** SCIM attribute names are case-insensitive (RFC 7643 §2.1): keys as the schema spells them. */
const SPELLING = new Map(
  ['userName', 'externalId', 'name', 'displayName', 'emails', 'active', 'password', 'schemas']
    .concat(['formatted', 'givenName', 'familyName', 'value', 'type', 'primary'])
    .map((k) => [k.toLowerCase(), k]),
);

function canonicalKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      SPELLING.get(k.toLowerCase()) ?? k,
      k.startsWith('urn:') ? v : canonicalKeys(v),
    ]),
  );
}

const ENTERPRISE_KEY = SCIM_SCHEMAS.enterpriseUser.toLowerCase();

/** Whether a body carries the enterprise extension at all (a PUT without it leaves its fields as they are). */
export const carriesEnterprise = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && Object.keys(body).some((k) => k.toLowerCase() === ENTERPRISE_KEY);

/**
 * A POST or PUT body read as a SCIM User: the core schema's writable attributes (read-only ones —
 * `id`, `meta`, `groups` — and unknown ones are ignored, as RFC 7644 §3.3 and §3.5.1 allow), the
 * enterprise extension's fields as sent. 400 `invalidSyntax` when it is not a User at all,
 * `invalidValue` naming the attribute when a value has the wrong shape. An absent `active` is
 * `defaults.active`: true for a new account, the current status for a replacement (a PUT that
 * leaves it out must not reactivate a deactivated account).
 */
export function readUserBody(body: unknown, defaults: { active: boolean }): ScimUserFields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidSyntax('The request body must be a SCIM User object.');
  }
  const raw = canonicalKeys(body) as Record<string, unknown>;
  const schemas = raw.schemas;
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s === SCIM_SCHEMAS.user)) {
    throw invalidSyntax(`"schemas" must list ${SCIM_SCHEMAS.user}.`);
  }
  const parsed = UserBodySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidValue(`${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid value'}`);
  }
  const v = parsed.data;
  const bad = refusedCharacter(v.userName);
  if (bad !== undefined) throw invalidValue('userName holds a character that cannot be stored.');
  const enterpriseEntry = Object.entries(body).find(([k]) => k.toLowerCase() === ENTERPRISE_KEY)?.[1];
  return {
    userName: v.userName,
    externalId: v.externalId ?? null,
    name: {
      formatted: v.name?.formatted ?? null,
      givenName: v.name?.givenName ?? null,
      familyName: v.name?.familyName ?? null,
    },
    displayName: v.displayName ?? null,
    emails: (v.emails ?? []).map((e) => ({
      value: e.value,
      ...(e.type !== undefined ? { type: e.type } : {}),
      ...(e.primary !== undefined ? { primary: e.primary } : {}),
    })),
    active: v.active ?? defaults.active,
    enterprise: enterpriseFieldsOf(
      typeof enterpriseEntry === 'object' && enterpriseEntry !== null ? { ...enterpriseEntry } : null,
    ),
    ...(v.password !== undefined ? { password: v.password } : {}),
  };
}

/** The e-mail the account keeps: the primary one, else the first. */
const chosenEmail = (fields: ScimUserFields) => fields.emails.find((e) => e.primary) ?? fields.emails[0];

/** The account's e-mail: the chosen one, else the userName when it is one. */
function emailOf(fields: ScimUserFields): string {
  return chosenEmail(fields)?.value ?? fields.userName;
}

/** The account's one name: formatted, else given + family, else the display name, else the userName. */
function nameOf(fields: ScimUserFields): string {
  const { formatted, givenName, familyName } = fields.name;
  const joined = [givenName, familyName].filter((p) => p).join(' ');
  return formatted || joined || fields.displayName || fields.userName;
}

/**
 * What the account keeps of how the identity provider described it (docs/decisions.md, "SCIM:
 * name parts as sent"): its ids, the name parts only when they cannot be read back from the name
 * (most names are "given family": nothing is stored), the chosen e-mail's `primary` as sent.
 */
export function identityOf(fields: ScimUserFields) {
  const sent = { given_name: fields.name.givenName, family_name: fields.name.familyName };
  const read = nameParts({ name: nameOf(fields), given_name: null, family_name: null });
  const readable = (read.givenName ?? null) === sent.given_name && (read.familyName ?? null) === sent.family_name;
  return {
    externalId: fields.externalId,
    userName: fields.userName,
    nameParts: readable
      ? { givenName: null, familyName: null }
      : { givenName: sent.given_name, familyName: sent.family_name },
    emailPrimary: chosenEmail(fields)?.primary ?? null,
  } satisfies UserIdentity;
}

/**
 * The product's fields of a SCIM user, judged by the forms' own rules (the e-mail canonicalised,
 * the name's characters, the password's strength); 400 `invalidValue` naming the SCIM attribute.
 */
export function accountOf(fields: ScimUserFields): AccountFields {
  for (const part of ['givenName', 'familyName'] as const) {
    const value = fields.name[part];
    const judgedPart = value === null ? null : AccountFieldsSchema.shape.name.safeParse(value);
    if (judgedPart && !judgedPart.success) {
      throw invalidValue(`name.${part}: ${judgedPart.error.issues[0]?.message ?? 'invalid value'}`);
    }
  }
  const judged = AccountFieldsSchema.safeParse({
    name: nameOf(fields),
    email: emailOf(fields),
    ...(fields.password !== undefined ? { password: fields.password } : {}),
  });
  if (judged.success) return judged.data;
  const issue = judged.error.issues[0];
  const attribute = { name: 'name', email: 'emails', password: 'password' }[String(issue?.path[0])] ?? 'body';
  if (attribute === 'emails' && fields.emails.length === 0) {
    throw invalidValue('emails: an account needs an e-mail address; none was sent and the userName is not one.');
  }
  throw invalidValue(`${attribute}: ${issue?.message ?? 'invalid value'}`);
}

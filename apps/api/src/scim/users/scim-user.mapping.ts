import { SCIM_SCHEMAS, type ScimUser } from '@app/contracts';
import { groupLocation, groupScimId } from '../scim-group-id.js';

/** What the SCIM door reads of an account to answer it as a SCIM User. */
export interface ScimUserRow {
  id: number;
  name: string;
  email: string;
  user_name: string | null;
  external_id: string | null;
  /** The name parts an identity provider sent (NULL both: none; they are read from the name). */
  given_name: string | null;
  family_name: string | null;
  /** The e-mail's `primary` as last sent; NULL: not said. */
  email_primary: boolean | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
  lock_version: number;
}

export interface ScimRoleRef {
  id: number;
  name: string;
}

/** The weak ETag of a user: its optimistic-lock version, which every write of the row moves on. */
export const userEtag = (row: Pick<ScimUserRow, 'lock_version'>) => `W/"${row.lock_version}"`;

/**
 * A name's parts read from the name alone: the family name is its last word, the given name what
 * comes before (the split the filter on `name.familyName` uses too).
 */
function partsOfName(name: string): { givenName?: string; familyName?: string } {
  const trimmed = name.trim();
  const cut = trimmed.lastIndexOf(' ');
  if (cut === -1) return trimmed ? { familyName: trimmed } : {};
  return { givenName: trimmed.slice(0, cut).trim(), familyName: trimmed.slice(cut + 1) };
}

/**
 * SCIM's name parts of an account: those an identity provider sent, as sent, else read from the
 * product's one name ("Mary Ann" / "van der Berg" survive only when sent).
 */
export function nameParts(row: Pick<ScimUserRow, 'name' | 'given_name' | 'family_name'>): {
  givenName?: string;
  familyName?: string;
} {
  if (row.given_name === null && row.family_name === null) return partsOfName(row.name);
  return {
    ...(row.given_name !== null ? { givenName: row.given_name } : {}),
    ...(row.family_name !== null ? { familyName: row.family_name } : {}),
  };
}

/** The account's one e-mail, with the `primary` the identity provider last said (none when it said none). */
export const emailOf = (row: Pick<ScimUserRow, 'email' | 'email_primary'>) => ({
  value: row.email,
  type: 'work',
  ...(row.email_primary !== null ? { primary: row.email_primary } : {}),
});

/**
 * An account as a SCIM User (RFC 7643 §4.1); its groups are its roles; `extension` is its
 * enterprise extension (mapped custom attributes), listed in `schemas` when it holds anything.
 */
export function toScimUser(
  row: ScimUserRow,
  roles: readonly ScimRoleRef[],
  baseUrl: string,
  extension: Record<string, unknown> | null = null,
): ScimUser {
  const location = `${baseUrl}/Users/${row.id}`;
  return {
    schemas: extension ? [SCIM_SCHEMAS.user, SCIM_SCHEMAS.enterpriseUser] : [SCIM_SCHEMAS.user],
    id: String(row.id),
    ...(row.external_id ? { externalId: row.external_id } : {}),
    userName: row.user_name ?? row.email,
    name: { formatted: row.name, ...nameParts(row) },
    displayName: row.name,
    emails: [emailOf(row)],
    active: row.is_active,
    groups: roles.map((r) => ({ value: groupScimId(r.id), display: r.name, $ref: groupLocation(baseUrl, r.id) })),
    meta: {
      resourceType: 'User',
      created: row.created_at.toISOString(),
      lastModified: row.updated_at.toISOString(),
      location,
      version: userEtag(row),
    },
    ...(extension ? { [SCIM_SCHEMAS.enterpriseUser]: extension } : {}),
  };
}

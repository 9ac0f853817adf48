import { z } from 'zod';

/**
 * The SCIM 2.0 door's vocabulary (RFC 7643 resources, RFC 7644 protocol, RFC 9865 cursor paging):
 * schema URNs, error types and the resource shapes it answers. Identity providers send more than
 * this (and spell it loosely: Entra's "Replace", "False"); what comes in is read leniently at the
 * door and judged by the same rules as every other door.
 */

export const SCIM_SCHEMAS = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

export const SCIM_MEDIA_TYPE = 'application/scim+json';

/** RFC 7644 §3.12's `scimType` values (and RFC 9865's for a cursor). */
export const SCIM_ERROR_TYPES = [
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
  'invalidCursor',
  'expiredCursor',
] as const;
export type ScimErrorType = (typeof SCIM_ERROR_TYPES)[number];

export interface ScimErrorBody {
  schemas: [typeof SCIM_SCHEMAS.error];
  status: string;
  scimType?: ScimErrorType;
  detail: string;
}

export interface ScimMeta {
  resourceType: 'User' | 'Group';
  created: string;
  lastModified: string;
  location: string;
  /** A weak ETag from the record's optimistic-lock version: `W/"<version>"`. */
  version: string;
}

export interface ScimEmail {
  value: string;
  type?: string;
  primary?: boolean;
}

/** A user as the SCIM door answers it (before `attributes`/`excludedAttributes` trim it). */
export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name: { formatted: string; givenName?: string; familyName?: string };
  displayName: string;
  emails: ScimEmail[];
  active: boolean;
  groups: { value: string; display: string; $ref: string }[];
  meta: ScimMeta;
  [extension: string]: unknown;
}

export interface ScimGroup {
  schemas: string[];
  id: string;
  displayName: string;
  members?: { value: string; display?: string; $ref: string }[];
  meta: ScimMeta;
}

export interface ScimListResponse<T> {
  schemas: [typeof SCIM_SCHEMAS.listResponse];
  totalResults: number;
  itemsPerPage: number;
  startIndex?: number;
  nextCursor?: string;
  previousCursor?: string;
  Resources: T[];
}

/** A boolean as identity providers send it: Entra sends "True"/"False" as strings. */
export const scimBoolean = z.preprocess((raw) => {
  if (typeof raw !== 'string') return raw;
  const t = raw.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : raw;
}, z.boolean());

import { SCIM_ERROR_TYPES, SCIM_SCHEMAS } from '@app/contracts';
import { GROUP_ID_PATTERN } from '../scim/scim-group-id.js';
import type { JsonSchema } from './openapi-types.js';

/**
 * The SCIM door's bodies as JSON Schemas (RFC 7643/7644), written once for the OpenAPI document.
 * They describe what src/scim/ reads and answers: SCIM attribute names are case-insensitive there
 * (`USERNAME` is `userName`), which JSON Schema cannot say, so the request schemas name the usual
 * spelling and stay open (`additionalProperties`) — unknown and read-only attributes are ignored.
 * An answer trimmed by `attributes`/`excludedAttributes` keeps only `schemas` and `id` for sure.
 */

const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
/** Entra sends booleans as "True"/"False": read in any case, spaces around allowed. */
const scimBoolean = {
  anyOf: [{ type: 'boolean' }, { type: 'string', pattern: '^\\s*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])\\s*$' }],
};
const schemasListing = (urn: string) => ({
  type: 'array',
  items: text,
  contains: { const: urn },
  description: `Must list \`${urn}\`.`,
});

const meta = (resourceType: 'User' | 'Group'): JsonSchema => ({
  type: 'object',
  readOnly: true,
  properties: {
    resourceType: { const: resourceType },
    created: { type: 'string', format: 'date-time' },
    lastModified: { type: 'string', format: 'date-time' },
    location: { type: 'string', format: 'uri' },
    version: { type: 'string', description: 'A weak ETag from the record\'s version, `W/"<n>"`: the ETag header.' },
  },
  required: ['resourceType', 'created', 'lastModified', 'location', 'version'],
});

const USER_ID_PATTERN = '^\\d+$';

const reference = (what: string, idPattern: string): JsonSchema => ({
  type: 'object',
  properties: {
    value: { type: 'string', pattern: idPattern, description: `The ${what}'s id.` },
    display: text,
    $ref: { type: 'string', format: 'uri' },
  },
  required: ['value'],
});

const ENTERPRISE_FIELDS = ['employeeNumber', 'costCenter', 'organization', 'division', 'department'];

export const ScimUserSchema: JsonSchema = {
  type: 'object',
  description:
    'A user (RFC 7643 §4.1). The account has one name and one e-mail: `name.givenName`/`familyName` are read from the name, `emails` holds one primary "work" address. `groups` (the roles) is read-only: change it through the Group. The enterprise extension\'s fields are stored only where an administrator mapped them onto a custom attribute.',
  properties: {
    schemas: schemasListing(SCIM_SCHEMAS.user),
    id: { type: 'string', pattern: USER_ID_PATTERN, readOnly: true },
    externalId: { ...nullableText, maxLength: 255, description: "The identity provider's id; unique." },
    userName: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'Unique whatever its case; the e-mail when none was given.',
    },
    name: {
      type: ['object', 'null'],
      properties: { formatted: nullableText, givenName: nullableText, familyName: nullableText },
    },
    displayName: nullableText,
    emails: {
      type: ['array', 'null'],
      maxItems: 20,
      items: {
        type: 'object',
        properties: { value: text, type: text, primary: scimBoolean },
        required: ['value'],
      },
      description: "The primary one (else the first, else the userName) becomes the account's e-mail.",
    },
    active: { ...scimBoolean, description: 'Absent: true on create, unchanged on replace.' },
    password: { type: 'string', writeOnly: true, description: 'Judged by the password rules; never returned.' },
    groups: { type: 'array', items: reference('group', GROUP_ID_PATTERN), readOnly: true },
    [SCIM_SCHEMAS.enterpriseUser]: {
      type: 'object',
      properties: {
        ...Object.fromEntries(ENTERPRISE_FIELDS.map((f) => [f, text])),
        manager: { type: 'object', properties: { value: text, displayName: text } },
      },
    },
    meta: meta('User'),
  },
  required: ['schemas', 'userName'],
};

export const ScimGroupSchema: JsonSchema = {
  type: 'object',
  description:
    "A group is a role (RFC 7643 §4.2): `displayName` is the role's name (unique whatever its case and spacing), `members` the users holding it. Answers leave `members` out when `excludedAttributes=members`.",
  properties: {
    schemas: schemasListing(SCIM_SCHEMAS.group),
    id: {
      type: 'string',
      pattern: GROUP_ID_PATTERN,
      readOnly: true,
      description: "`g` and the role's id, so that no group shares an id with a user (RFC 7643 §3.1).",
    },
    displayName: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: '^[^,;|]*$',
      description: 'The role name rule: up to 100 characters, none of `,` `;` `|`.',
    },
    members: {
      type: 'array',
      maxItems: 10_000,
      items: reference('user', USER_ID_PATTERN),
      description: 'At most 10 000 in one request: add more with PATCH. A PUT without `members` keeps them.',
    },
    meta: meta('Group'),
  },
  required: ['schemas', 'displayName'],
};

export const ScimPatchOpSchema: JsonSchema = {
  type: 'object',
  description:
    'RFC 7644 §3.5.2. `op` in any case (Entra sends "Replace"); with or without `path` (a value filter allowed: `emails[type eq "work"].value`, `members[value eq "12"]`). All operations apply, or none.',
  properties: {
    schemas: schemasListing(SCIM_SCHEMAS.patchOp),
    Operations: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        type: 'object',
        properties: {
          op: {
            type: 'string',
            pattern: '^\\s*([Aa][Dd][Dd]|[Rr][Ee][Pp][Ll][Aa][Cc][Ee]|[Rr][Ee][Mm][Oo][Vv][Ee])\\s*$',
          },
          path: nullableText,
          value: { description: 'Required unless `op` is remove.' },
        },
        required: ['op'],
      },
    },
  },
  required: ['schemas', 'Operations'],
};

export const ScimErrorSchema: JsonSchema = {
  type: 'object',
  description: 'Every refusal of the SCIM door (RFC 7644 §3.12).',
  properties: {
    schemas: { type: 'array', items: { const: SCIM_SCHEMAS.error }, minItems: 1, maxItems: 1 },
    status: { type: 'string', pattern: '^[1-5]\\d\\d$', description: 'The HTTP status, as a string.' },
    scimType: { enum: [...SCIM_ERROR_TYPES] },
    detail: text,
  },
  required: ['schemas', 'status', 'detail'],
  additionalProperties: false,
};

export const ScimListResponseSchema: JsonSchema = {
  type: 'object',
  description:
    'RFC 7644 §3.4.2. Paged by `startIndex` (answers `startIndex`) or by cursor (RFC 9865: answers `nextCursor` while more remain).',
  properties: {
    schemas: { type: 'array', items: { const: SCIM_SCHEMAS.listResponse }, minItems: 1, maxItems: 1 },
    totalResults: { type: 'integer', minimum: 0 },
    itemsPerPage: { type: 'integer', minimum: 0 },
    startIndex: { type: 'integer', minimum: 1 },
    nextCursor: text,
    Resources: { type: 'array', items: { type: 'object' } },
  },
  required: ['schemas', 'totalResults', 'itemsPerPage', 'Resources'],
};

const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const names = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };
const whole = { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?\\d{1,12}$' }] };

export const ScimSearchRequestSchema: JsonSchema = {
  type: 'object',
  description:
    "RFC 7644 §3.4.3: a list's query parameters (see GET /Users) as a body, so a long filter stays out of URLs and logs. `schemas`, when sent, must list the SearchRequest URN.",
  properties: {
    schemas: { ...schemasListing(SEARCH_REQUEST) },
    filter: { type: 'string', maxLength: 1000 },
    startIndex: whole,
    count: whole,
    cursor: { type: 'string', maxLength: 200 },
    sortBy: { type: 'string', maxLength: 200 },
    sortOrder: { type: 'string' },
    attributes: names,
    excludedAttributes: names,
  },
};

/** The discovery documents (RFC 7643 §5–7): described loosely; their own content is the description. */
export const ScimDiscoverySchema: JsonSchema = {
  type: 'object',
  properties: { schemas: { type: 'array', items: text } },
  required: ['schemas'],
};

export const SCIM_COMPONENTS: Record<string, JsonSchema> = {
  ScimUser: ScimUserSchema,
  ScimGroup: ScimGroupSchema,
  ScimPatchOp: ScimPatchOpSchema,
  ScimSearchRequest: ScimSearchRequestSchema,
  ScimListResponse: ScimListResponseSchema,
  ScimError: ScimErrorSchema,
  ScimDiscovery: ScimDiscoverySchema,
};

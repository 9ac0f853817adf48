import type { ScimErrorType } from '@app/contracts';
import { SCIM_MAX_RESULTS } from '../scim/scim-list-query.js';
import type { JsonSchema, OpenApiMethod, OpenApiParameter } from './openapi-types.js';

/**
 * The SCIM door's operations as data, read from its route code (src/scim/): paths under
 * /api/scim/v2, the permission each checks, its parameters, the statuses and `scimType`s it answers.
 * openapi-scim.ts turns them into the document's operations.
 */

const query = (name: string, schema: JsonSchema, description: string): OpenApiParameter => ({
  name,
  in: 'query',
  description,
  schema,
});
const wholeNumber = { type: 'integer', minimum: -999_999_999_999, maximum: 999_999_999_999 };

const SHOWN: OpenApiParameter[] = [
  query(
    'attributes',
    { type: 'string', maxLength: 2000 },
    'Comma-separated attributes to return (with `id` and `schemas`); `name.givenName` selects inside its parent.',
  ),
  query(
    'excludedAttributes',
    { type: 'string', maxLength: 2000 },
    'Comma-separated attributes to leave out. `members` on a Group is not even read.',
  ),
];

const listParameters = (sortable: string): OpenApiParameter[] => [
  query(
    'filter',
    { type: 'string', maxLength: 1000 },
    'RFC 7644 §3.4.2.2: `eq ne co sw ew pr gt ge lt le`, `and or not`, grouping, sub-attributes, value paths. An attribute that cannot be filtered is 400 `invalidFilter`, never an empty page.',
  ),
  query('startIndex', wholeNumber, '1-based position of the first result; a value under 1 reads as 1.'),
  query(
    'count',
    wholeNumber,
    `Page size (default 100); above ${SCIM_MAX_RESULTS} it is ${SCIM_MAX_RESULTS}, a negative one 0.`,
  ),
  query(
    'cursor',
    { type: 'string', maxLength: 200 },
    'RFC 9865 cursor paging, in id order: empty for the first page, then the `nextCursor` of the last answer (else 400 `invalidCursor`). Not with `sortBy`.',
  ),
  query(
    'sortBy',
    { type: 'string', maxLength: 200 },
    `One of ${sortable} (any case, the schema URN prefix allowed); another is 400 \`invalidValue\`.`,
  ),
  query(
    'sortOrder',
    { type: 'string', pattern: '^([Aa][Ss][Cc][Ee][Nn][Dd][Ii][Nn][Gg]|[Dd][Ee][Ss][Cc][Ee][Nn][Dd][Ii][Nn][Gg])$' },
    '`ascending` (the default) or `descending`, in any case.',
  ),
  ...SHOWN,
];

const ID: OpenApiParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The resource id; anything else finds nothing (404).',
  schema: { type: 'string' },
};
const USER_ID: OpenApiParameter = { ...ID, description: "The user's id (digits); anything else finds nothing (404)." };
const GROUP_ID: OpenApiParameter = {
  ...ID,
  description:
    "The group's id: `g` and the role's id (`g7`), so no group shares an id with a user; anything else finds nothing (404).",
};
const IF_MATCH: OpenApiParameter = {
  name: 'If-Match',
  in: 'header',
  description:
    'The resource\'s ETag (`W/"<n>"`), several separated by commas, or `*`. Absent or `*`: no check. Otherwise 412 unless one is current.',
  schema: { type: 'string' },
};

export interface ScimOperation {
  method: OpenApiMethod;
  path: string;
  operationId: string;
  summary: string;
  access: string;
  permission?: string;
  parameters: OpenApiParameter[];
  body?: string;
  success: { status: 200 | 201 | 204; schema?: string; etag?: boolean };
  statuses: number[];
  badRequest: ScimErrorType[];
}

const PATCH_TYPES: ScimErrorType[] = [
  'invalidSyntax',
  'invalidValue',
  'invalidPath',
  'noTarget',
  'mutability',
  'invalidFilter',
];
const WRITE_TYPES: ScimErrorType[] = ['invalidSyntax', 'invalidValue', 'invalidFilter'];
const READ_TYPES: ScimErrorType[] = ['invalidValue', 'invalidFilter'];
const ANY_TOKEN = 'Any valid API token.';
const USER_SORTS =
  '`id`, `userName`, `name`, `name.formatted`, `displayName`, `emails`, `emails.value`, `meta.created`, `meta.lastModified`';
const GROUP_SORTS = '`id`, `displayName`, `meta.created`, `meta.lastModified`';

const discovery = (path: string, summary: string, one: boolean): ScimOperation => ({
  method: 'get',
  path,
  operationId: `scim.${summary.replace(/\W/g, '')}`,
  summary,
  access: ANY_TOKEN,
  parameters: one ? [ID] : [],
  success: { status: 200, schema: one ? 'ScimDiscovery' : 'ScimListResponse' },
  statuses: one ? [401, 404] : [401],
  badRequest: [],
});

/** `POST …/.search` (RFC 7644 §3.4.3): a list's query parameters in a body, answered as the GET list. */
const search = (path: string, operationId: string, access: string, permission?: string): ScimOperation => ({
  method: 'post',
  path,
  operationId,
  summary: `Search ${path === '/.search' ? 'every resource type' : path.split('/')[1]?.toLowerCase()}`,
  access,
  ...(permission ? { permission } : {}),
  parameters: [],
  body: 'ScimSearchRequest',
  success: { status: 200, schema: 'ScimListResponse' },
  statuses: [401, 403, 413, 415],
  badRequest: ['invalidSyntax', 'invalidValue', 'invalidFilter', 'invalidCursor'],
});

export const SCIM_OPERATIONS: ScimOperation[] = [
  search(
    '/.search',
    'scim.search',
    'Users (with `users.view`), then groups (with `roles.view`): a type the token may not read adds nothing; 403 when it may read neither. Paged by `startIndex` only.',
  ),
  search('/Users/.search', 'scim.users.search', 'Requires `users.view`.', 'users.view'),
  search('/Groups/.search', 'scim.groups.search', 'Requires `roles.view`.', 'roles.view'),
  {
    ...discovery('/ServiceProviderConfig', 'Service provider config', false),
    success: { status: 200, schema: 'ScimDiscovery' },
  },
  discovery('/ResourceTypes', 'Resource types', false),
  discovery('/ResourceTypes/{id}', 'Resource type', true),
  discovery('/Schemas', 'Schemas', false),
  discovery('/Schemas/{id}', 'Schema', true),
  {
    method: 'get',
    path: '/Users',
    operationId: 'scim.users.list',
    summary: 'List users',
    access: 'Requires `users.view`.',
    permission: 'users.view',
    parameters: listParameters(USER_SORTS),
    success: { status: 200, schema: 'ScimListResponse' },
    statuses: [401, 403],
    badRequest: ['invalidFilter', 'invalidValue', 'invalidCursor'],
  },
  {
    method: 'get',
    path: '/Users/{id}',
    operationId: 'scim.users.show',
    summary: 'Read a user',
    access: 'Requires `users.view`.',
    permission: 'users.view',
    parameters: [USER_ID, ...SHOWN],
    success: { status: 200, schema: 'ScimUser', etag: true },
    statuses: [401, 403, 404],
    badRequest: READ_TYPES,
  },
  {
    method: 'post',
    path: '/Users',
    operationId: 'scim.users.create',
    summary: 'Create a user',
    access: 'Requires `users.create`.',
    permission: 'users.create',
    parameters: SHOWN,
    body: 'ScimUser',
    success: { status: 201, schema: 'ScimUser', etag: true },
    statuses: [401, 403, 409, 413, 415],
    badRequest: WRITE_TYPES,
  },
  {
    method: 'put',
    path: '/Users/{id}',
    operationId: 'scim.users.replace',
    summary: 'Replace a user',
    access: 'Requires `users.update`, and `users.setActive` too when `active` is all that changes.',
    permission: 'users.update',
    parameters: [USER_ID, IF_MATCH, ...SHOWN],
    body: 'ScimUser',
    success: { status: 200, schema: 'ScimUser', etag: true },
    statuses: [401, 403, 404, 409, 412, 413, 415],
    badRequest: WRITE_TYPES,
  },
  {
    method: 'patch',
    path: '/Users/{id}',
    operationId: 'scim.users.patch',
    summary: 'Patch a user',
    access:
      "Requires `users.update`; `users.setActive` alone when `active` is all that changes (Okta's deactivation). A token holding neither is refused before the body or the user is read.",
    parameters: [USER_ID, IF_MATCH, ...SHOWN],
    body: 'ScimPatchOp',
    success: { status: 200, schema: 'ScimUser', etag: true },
    statuses: [401, 403, 404, 409, 412, 413, 415],
    badRequest: PATCH_TYPES,
  },
  {
    method: 'delete',
    path: '/Users/{id}',
    operationId: 'scim.users.delete',
    summary: 'Delete a user',
    access:
      'Requires `users.delete`; an active user is deactivated first (ending its sessions and tokens), which needs `users.setActive` too.',
    permission: 'users.delete',
    parameters: [USER_ID, IF_MATCH],
    success: { status: 204 },
    statuses: [401, 403, 404, 412],
    badRequest: ['invalidValue'],
  },
  {
    method: 'get',
    path: '/Groups',
    operationId: 'scim.groups.list',
    summary: 'List groups',
    access: 'Requires `roles.view`.',
    permission: 'roles.view',
    parameters: listParameters(GROUP_SORTS),
    success: { status: 200, schema: 'ScimListResponse' },
    statuses: [401, 403],
    badRequest: ['invalidFilter', 'invalidValue', 'invalidCursor'],
  },
  {
    method: 'get',
    path: '/Groups/{id}',
    operationId: 'scim.groups.show',
    summary: 'Read a group',
    access: 'Requires `roles.view`.',
    permission: 'roles.view',
    parameters: [GROUP_ID, ...SHOWN],
    success: { status: 200, schema: 'ScimGroup', etag: true },
    statuses: [401, 403, 404],
    badRequest: READ_TYPES,
  },
  {
    method: 'post',
    path: '/Groups',
    operationId: 'scim.groups.create',
    summary: 'Create a group',
    access: 'Requires `roles.create`, and `users.update` for the members.',
    permission: 'roles.create',
    parameters: SHOWN,
    body: 'ScimGroup',
    success: { status: 201, schema: 'ScimGroup', etag: true },
    statuses: [401, 403, 409, 413, 415],
    badRequest: WRITE_TYPES,
  },
  {
    method: 'put',
    path: '/Groups/{id}',
    operationId: 'scim.groups.replace',
    summary: 'Replace a group',
    access:
      'Requires `roles.view` and `roles.update` (a replacement sets the name, even the one it has), and `users.update` when `members` is given. The administrator role keeps its name (400 `mutability`).',
    parameters: [GROUP_ID, IF_MATCH, ...SHOWN],
    body: 'ScimGroup',
    success: { status: 200, schema: 'ScimGroup', etag: true },
    statuses: [401, 403, 404, 409, 412, 413, 415],
    badRequest: [...WRITE_TYPES, 'mutability'],
  },
  {
    method: 'patch',
    path: '/Groups/{id}',
    operationId: 'scim.groups.patch',
    summary: 'Patch a group',
    access:
      'Requires `roles.view` (the answer shows the group), `roles.update` to rename or set its externalId, `users.update` to add or remove members; all or nothing.',
    parameters: [GROUP_ID, IF_MATCH, ...SHOWN],
    body: 'ScimPatchOp',
    success: { status: 200, schema: 'ScimGroup', etag: true },
    statuses: [401, 403, 404, 409, 412, 413, 415],
    badRequest: PATCH_TYPES,
  },
  {
    method: 'delete',
    path: '/Groups/{id}',
    operationId: 'scim.groups.delete',
    summary: 'Delete a group',
    access:
      'Requires `roles.delete`; its members lose the role. The administrator role cannot be deleted (400 `mutability`).',
    permission: 'roles.delete',
    parameters: [GROUP_ID, IF_MATCH],
    success: { status: 204 },
    statuses: [401, 403, 404, 409, 412],
    badRequest: ['invalidValue', 'mutability'],
  },
];

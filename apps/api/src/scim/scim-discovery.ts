import { SCIM_SCHEMAS } from '@app/contracts';
import type { MappedField } from '../modules/scim-mapping/scim-mapping.repository.js';
import { SCIM_MAX_RESULTS } from './scim-list-query.js';
import type { EnterpriseMapping } from './users/scim-enterprise.js';

/**
 * The discovery documents (RFC 7643 §5–7, RFC 7644 §4, RFC 9865 §2.4): what this service provider
 * does, stated truthfully — every capability advertised works, and one not built says
 * `supported: false` (bulk). A resource type is listed only once its endpoint exists.
 */

type Attribute = {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued: boolean;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned: 'always' | 'never' | 'default' | 'request';
  uniqueness: 'none' | 'server' | 'global';
  description: string;
  subAttributes?: Attribute[];
  referenceTypes?: string[];
  canonicalValues?: string[];
};

const attr = (
  name: string,
  description: string,
  more: Partial<Omit<Attribute, 'name' | 'description'>> = {},
): Attribute => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  description,
  ...more,
});

const USER_ATTRIBUTES: Attribute[] = [
  attr('userName', 'Unique identifier for the user, compared without regard to case. Defaults to the e-mail.', {
    required: true,
    uniqueness: 'server',
  }),
  attr(
    'name',
    "The user's name. formatted is the name the service shows; givenName and familyName are kept as sent, else read from it.",
    {
      type: 'complex',
      // Every account has a name (taken from displayName or userName when none is sent): it cannot be removed.
      required: true,
      subAttributes: [
        attr('formatted', 'The full name.'),
        attr('familyName', 'The family name as sent; when none was, the last word of the name.'),
        attr('givenName', 'The given name as sent; when none was, the name before its last word.'),
      ],
    },
  ),
  attr('displayName', 'The name as shown; the same as name.formatted. Every account has one.', { required: true }),
  attr('emails', 'The user\'s e-mail address: one, of type "work". It is also how the user signs in.', {
    type: 'complex',
    multiValued: true,
    // Every account has an e-mail (the userName when it is one and no e-mail is sent).
    required: true,
    subAttributes: [
      attr('value', 'The e-mail address.', { uniqueness: 'server', required: true }),
      { ...attr('type', 'Always "work".'), canonicalValues: ['work'] },
      attr('primary', 'As last sent (absent when it was not); true for accounts made elsewhere.', { type: 'boolean' }),
    ],
  }),
  attr('active', 'Whether the user may sign in. Deactivating ends their sessions and revokes their API tokens.', {
    type: 'boolean',
    // An account is active or not: the attribute cannot be removed (true when a creation leaves it out).
    required: true,
  }),
  attr('password', "A password for signing in, judged by the service's password rules. Never returned.", {
    mutability: 'writeOnly',
    returned: 'never',
  }),
  attr('groups', "The user's roles. Read-only: change membership through the Group.", {
    type: 'complex',
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [
      attr('value', "The Group's id: `g` and the role's id.", { mutability: 'readOnly' }),
      attr('$ref', 'The Group resource.', { type: 'reference', referenceTypes: ['Group'], mutability: 'readOnly' }),
      attr('display', "The role's name.", { mutability: 'readOnly' }),
    ],
  }),
];

const GROUP_ATTRIBUTES: Attribute[] = [
  attr('displayName', "The role's name: unique whatever its case and spacing.", {
    required: true,
    uniqueness: 'server',
  }),
  attr('members', 'The users holding the role. Changes are judged by the same rules as any role change.', {
    type: 'complex',
    multiValued: true,
    subAttributes: [
      attr('value', "The user's id.", { mutability: 'immutable' }),
      attr('$ref', 'The User resource.', { type: 'reference', referenceTypes: ['User'], mutability: 'immutable' }),
    ],
  }),
];

const schemaResource = (baseUrl: string, id: string, name: string, description: string, attributes: Attribute[]) => ({
  schemas: [SCIM_SCHEMAS.schema],
  id,
  name,
  description,
  attributes,
  meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${id}` },
});

/** What the enterprise extension says of a mapped field: the custom attribute it fills. */
function enterpriseAttribute(m: MappedField, label: string): Attribute {
  const description = `Fills the custom attribute "${label}" (${m.key}).`;
  return m.field === 'manager'
    ? attr('manager', `${description} Names the manager by their id.`, {
        type: 'complex',
        subAttributes: [
          attr('value', "The manager's id.", { caseExact: true }),
          attr('$ref', "The manager's User resource.", { type: 'reference', referenceTypes: ['User'] }),
        ],
      })
    : attr(m.field, description);
}

/**
 * The schemas: User, Group, and the enterprise extension when a field of it is mapped — listing
 * exactly the mapped fields the caller may see (an unmapped one is ignored, so it is not offered).
 */
export function schemas(baseUrl: string, mapping: EnterpriseMapping) {
  const found = [
    schemaResource(baseUrl, SCIM_SCHEMAS.user, 'User', 'User Account', USER_ATTRIBUTES),
    schemaResource(baseUrl, SCIM_SCHEMAS.group, 'Group', 'Group: a role of this service', GROUP_ATTRIBUTES),
  ];
  if (mapping.fields.length === 0) return found;
  const labels = new Map(mapping.definitions.map((d) => [d.id, d.label]));
  const fields = mapping.fields.map((m) => enterpriseAttribute(m, labels.get(m.attributeId) ?? m.key));
  return [...found, schemaResource(baseUrl, SCIM_SCHEMAS.enterpriseUser, 'EnterpriseUser', 'Enterprise User', fields)];
}

export function resourceTypes(baseUrl: string, mapping: EnterpriseMapping) {
  return [
    {
      schemas: [SCIM_SCHEMAS.resourceType],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'User Account',
      schema: SCIM_SCHEMAS.user,
      schemaExtensions: mapping.fields.length > 0 ? [{ schema: SCIM_SCHEMAS.enterpriseUser, required: false }] : [],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: [SCIM_SCHEMAS.resourceType],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'Group: a role of this service',
      schema: SCIM_SCHEMAS.group,
      schemaExtensions: [],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SCIM_SCHEMAS.serviceProviderConfig],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: true },
    sort: { supported: true },
    etag: { supported: true },
    pagination: {
      cursor: true,
      index: true,
      defaultPaginationMethod: 'index',
      defaultPageSize: 100,
      maxPageSize: SCIM_MAX_RESULTS,
    },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'An API token of this service, sent as "Authorization: Bearer <token>".',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

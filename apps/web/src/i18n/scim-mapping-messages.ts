import type { ScimEnterpriseField } from '@app/contracts';

/** The attributes page's "SCIM provisioning" card: which attribute each enterprise field fills. */
export const scimMappingMessages = {
  title: 'SCIM provisioning',
  description:
    'Identity providers such as Okta and Microsoft Entra ID send these enterprise fields with each person. A mapped field’s value fills the attribute you choose; an unmapped field is ignored.',
  sensitiveNote:
    'A sensitive attribute is filled only by a token whose owner may see sensitive attributes; any other token’s value for it is ignored.',
  fields: {
    employeeNumber: 'Employee number',
    costCenter: 'Cost centre',
    organization: 'Organisation',
    division: 'Division',
    department: 'Department',
    manager: 'Manager',
  } satisfies Record<ScimEnterpriseField, string>,
  /** Under each select: which attributes it offers. */
  takes: { text: 'A text or list attribute', user: 'A user attribute' },
  notMapped: 'Not mapped',
  sensitive: (label: string) => `${label} (sensitive)`,
  /** A mapped key the attributes list does not hold (deleted since, or not the viewer's to see). */
  unknown: (key: string) => `${key} (not in the list)`,
  noChoice: 'No attribute of this type yet.',
  duplicate: (label: string, other: string) => `${label} already receives ${other}.`,
  save: 'Save mapping',
  saved: 'The SCIM mapping was saved.',
  failedTitle: 'The mapping was not saved',
  loading: 'Loading the SCIM mapping…',
  loadFailed: 'The SCIM mapping could not be loaded',
};

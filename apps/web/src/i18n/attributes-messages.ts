import type { AttributeSensitivity, AttributeType } from '@app/contracts';
import { pageMessages } from './messages';
import { scimMappingMessages } from './scim-mapping-messages';

const count = (n: number, locale = 'en') => n.toLocaleString(locale);
const users = (n: number) => `${count(n)} ${n === 1 ? 'user' : 'users'}`;

/** The custom attributes' settings (`/settings/attributes`) and their fields on the user pages. */
export const attributesMessages = {
  attributes: {
    title: 'Attributes',
    subtitle: 'The fields every user carries beside name and e-mail: employee number, department, manager…',
    add: 'Add attribute',
    listLabel: 'Declared attributes',
    loading: 'Loading attributes…',
    loadFailed: 'The attributes could not be loaded',
    emptyTitle: 'No attributes yet',
    emptyDescription:
      'Declare the fields your organisation keeps on its people; each becomes a field of the user form.',
    edit: 'Edit',
    delete: 'Delete',
    /** A link to the audit log's events that changed the attribute's values. */
    history: 'History',
    actions: (label: string) => `Actions for ${label}`,
    holders: (n: number) => (n === 0 ? 'No user holds a value' : `${users(n)} hold a value`),
    required: 'Required',
    unique: 'Unique',
    back: 'Attributes',
    newTitle: 'Add an attribute',
    editTitle: (label: string) => `Edit “${label}”`,
    created: (label: string) => `“${label}” was added.`,
    saved: (label: string) => `“${label}” was saved.`,
    deleted: (label: string, n: number) =>
      n === 0 ? `“${label}” was deleted.` : `“${label}” was deleted with ${count(n)} ${n === 1 ? 'value' : 'values'}.`,
    notFoundTitle: 'Attribute not found',
    notFoundDescription: 'It may have been deleted by someone else.',
    errorTitle: 'The attribute could not be loaded',
  },
  attributeTypes: {
    string: 'Text',
    number: 'Number',
    boolean: 'Yes / no',
    date: 'Date',
    email: 'E-mail address',
    url: 'Web address',
    enum: 'Choice from a list',
    user: 'A user (e.g. manager)',
  } satisfies Record<AttributeType, string>,
  sensitivities: {
    none: {
      label: 'Ordinary',
      description: 'Shown to everyone who may see the user, and sent to webhooks.',
    },
    personal: {
      label: 'Personal',
      description: 'Shown like an ordinary field, but left out of webhook payloads unless a webhook opts in.',
    },
    sensitive: {
      label: 'Sensitive',
      description:
        'Only holders of “attributes.sensitive.view” see it: absent from every answer, export, webhook and audit entry for anyone else.',
    },
  } satisfies Record<AttributeSensitivity, { label: string; description: string }>,
  attributeForm: {
    whatTitle: 'The field',
    whatDescription: 'What people see on the user form and the user page.',
    key: 'Key',
    keyDescription: 'How imports, exports, filters and the API name it. Fixed once added.',
    keyPlaceholder: 'cost_centre',
    label: 'Label',
    labelPlaceholder: 'Cost centre',
    type: 'Type',
    values: 'Values',
    valuesDescription: 'One per line: what people can pick, in this order.',
    description: 'Help text',
    descriptionDescription: 'Shown under the field on the user form.',
    rulesTitle: 'Rules',
    rulesDescription: 'Checked the same way on every form, import, bulk change and API call.',
    required: 'Required',
    requiredDescription: 'A new user must have a value; a value cannot be cleared.',
    unique: 'Unique',
    uniqueDescription: 'No two users may hold the same value.',
    minLength: 'Shortest length',
    maxLength: 'Longest length',
    pattern: 'Pattern',
    patternDescription: 'A regular expression (RE2) the whole value must match, e.g. [0-9]{6}.',
    min: 'Lowest',
    max: 'Highest',
    sensitivityTitle: 'Who sees it',
    sensitivityDescription: 'How far a value travels beyond the user form.',
    sensitivity: 'Sensitivity',
    create: 'Add attribute',
    save: 'Save attribute',
    failedTitle: 'The attribute was not saved',
  },
  attributeImpact: {
    checking: 'Checking the stored values…',
    summary: (holders: number, failing: number) =>
      `${users(holders)} ${holders === 1 ? 'holds' : 'hold'} a value; ${count(failing)} would fail.`,
    changeTitle: 'Clear the values that no longer fit?',
    changeDescription: 'This change does not fit every stored value. Saving it clears those values; the others stay.',
    clearAndSave: (n: number) => `Clear ${count(n)} ${n === 1 ? 'value' : 'values'} and save`,
    deleteTitle: (label: string) => `Delete “${label}”?`,
    deleteNone: 'No user holds a value. The field leaves the user form.',
    deleteSome: (n: number) =>
      `${users(n)} ${n === 1 ? 'holds' : 'hold'} a value: ${n === 1 ? 'it goes' : 'they all go'} with the attribute. This cannot be undone.`,
    deleteConfirm: 'Delete attribute',
  },
  attributeFields: {
    sectionTitle: 'Attributes',
    sectionDescription: 'The fields your organisation keeps on its people.',
    notSet: 'Not set',
    yes: 'Yes',
    no: 'No',
    choose: 'Choose…',
    userSearch: 'Search by name or e-mail',
    userSearching: 'Searching…',
    userNoMatch: 'No user matches.',
    userResults: (label: string) => `Users matching for ${label}`,
    userChange: 'Change',
    userId: (id: number) => `User #${id}`,
    cardTitle: 'Attributes',
    cardKeysOnly: 'Shown by key: the attributes’ labels could not be loaded.',
  },
  scimMapping: scimMappingMessages,
};

/** The attributes' words (`m.attributes`, `m.attributeForm`, …) with the shell's. */
export const useAttributesMessages = pageMessages(attributesMessages);

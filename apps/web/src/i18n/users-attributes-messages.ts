import { formatCount } from './list-strings';

// The noun agrees with the count (1 user, 2 users).
const usersCount = (count: number) => `${formatCount(count)} ${count === 1 ? 'user' : 'users'}`;

/** The users list's words for custom attributes: their cells, filters, chips and the bulk "Set attribute". */
export const usersAttributesMessages = {
  yes: 'Yes',
  no: 'No',
  userId: (id: number) => `User #${id}`,
  filters: {
    group: 'Attributes',
    any: 'Any',
    contains: (label: string) => `${label} contains`,
    from: (label: string) => `${label} from`,
    to: (label: string) => `${label} to`,
    empty: (label: string) => `${label}: no value`,
    valuesHint: 'Users with any of the ticked values.',
    chip: {
      anyOf: (values: readonly string[]) => values.join(' or '),
      contains: (text: string) => `contains “${text}”`,
      range: (from: string | undefined, to: string | undefined) =>
        from && to ? `${from} to ${to}` : from ? `from ${from}` : `up to ${to ?? ''}`,
      empty: 'no value',
    },
  },
  bulk: {
    action: 'Set attribute…',
    pickTitle: (count: number) => `Set an attribute of ${usersCount(count)}`,
    pickDescription: 'Choose the attribute and its value. Users who hold that value already are left as they are.',
    attribute: 'Attribute',
    attributePlaceholder: 'Choose an attribute…',
    noAttributes: 'No attribute you may see is declared yet.',
    value: 'Value',
    valuePlaceholder: 'Choose a value…',
    clear: 'Clear the value',
    clearHint: 'Each user’s value is removed.',
    uniqueHint: 'This attribute is unique: it can be given to one user at a time.',
    loading: 'Loading attributes…',
    next: 'Continue',
    cleared: 'no value',
    verb: (label: string) => `Set ${label} of`,
    title: (count: number, label: string) => `Set ${label} of ${usersCount(count)}?`,
    description: (label: string, value: string) => `Each user’s ${label} becomes ${value}.`,
    affected: (count: number, label: string) => `${formatCount(count)} will have ${label} set`,
    confirm: (count: number, label: string) => `Set ${label} of ${usersCount(count)}`,
    done: (count: number, label: string) => `${label} set on ${usersCount(count)}`,
  },
};

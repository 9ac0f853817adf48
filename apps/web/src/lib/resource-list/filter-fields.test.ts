import { describe, expect, it } from 'vitest';
import { chipsOf, type FilterField, fromDraft, toDraft } from './filter-fields';

const FIELDS: FilterField[] = [
  { kind: 'text', key: 'name', label: 'Name contains', chipLabel: 'Name' },
  {
    kind: 'select',
    key: 'trashed',
    label: 'Deleted',
    chipLabel: 'Deleted',
    allLabel: 'Hide',
    options: [
      { value: 'with', label: 'Include deleted', chipValue: 'Included' },
      { value: 'only', label: 'Only deleted' },
    ],
  },
  {
    kind: 'multi',
    key: 'role_id',
    label: 'Roles',
    chipLabel: 'Roles',
    options: [
      { value: 1, label: 'admin' },
      { value: 2, label: 'viewer' },
    ],
    unknownValue: (id) => `Role #${id}`,
  },
  {
    kind: 'dateRange',
    key: 'created',
    label: 'Created',
    chipLabel: 'Created',
    fromLabel: 'From',
    toLabel: 'Until',
    rangeText: (from, to) => `${from ?? '…'} – ${to ?? '…'}`,
  },
];

describe('filter fields', () => {
  it('drafts every field, empty when not in force, and applies only what is filled in', () => {
    const draft = toDraft(FIELDS, { name: 'ann' });
    expect(draft).toEqual({ name: 'ann', trashed: '', role_id: [], created: {} });
    expect(fromDraft(FIELDS, { ...draft, name: '  ann  ', created: { from: '', to: '2024-05-01' } })).toEqual({
      name: 'ann',
      created: { to: '2024-05-01' },
    });
    expect(fromDraft(FIELDS, toDraft(FIELDS, {}))).toEqual({});
  });

  it('writes one chip per filter in force, in the fields’ order, with each option’s chip text', () => {
    const chips = chipsOf(
      FIELDS,
      { created: { from: '2024-05-01' }, role_id: [2, 9], trashed: 'with', name: 'ann' },
      'en-GB',
    );
    expect(chips).toEqual([
      { id: 'name', label: 'Name', value: 'ann' },
      { id: 'trashed', label: 'Deleted', value: 'Included' },
      { id: 'role_id', label: 'Roles', value: 'viewer, Role #9' },
      { id: 'created', label: 'Created', value: '1 May 2024 – …' },
    ]);
  });

  it('says "…" for a multi filter whose options have not arrived yet', () => {
    const late = FIELDS.map((field) => (field.kind === 'multi' ? { ...field, options: undefined } : field));
    expect(chipsOf(late, { role_id: [1] }, 'en')).toEqual([{ id: 'role_id', label: 'Roles', value: '…' }]);
  });

  it('keeps a fixed filter (set by a link) through the form, and names it in its chip', () => {
    const fields: FilterField[] = [
      { kind: 'text', key: 'ip', label: 'IP', chipLabel: 'IP' },
      {
        kind: 'multi',
        key: 'action',
        label: 'Actions',
        chipLabel: 'Action',
        options: [{ value: 'user.update', label: 'Edited a user' }],
        unknownValue: (value) => String(value),
      },
      { kind: 'fixed', key: 'user_id', label: 'Involving', chipLabel: 'Involving', describe: (v) => `User #${v}` },
    ];
    const draft = toDraft(fields, { user_id: 7 });
    expect(draft).toEqual({ ip: '', action: [], user_id: 7 });
    expect(fromDraft(fields, { ...draft, action: ['user.update'] })).toEqual({ action: ['user.update'], user_id: 7 });
    expect(fromDraft(fields, toDraft(fields, {}))).toEqual({});
    expect(chipsOf(fields, { user_id: 7, action: ['user.update', 'user.gone'] }, 'en')).toEqual([
      { id: 'action', label: 'Action', value: 'Edited a user, user.gone' },
      { id: 'user_id', label: 'Involving', value: 'User #7' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { chipsOf, countInForce, type FilterField, fromDraft, toDraft, withoutField } from './filter-fields';

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

describe('conditions nested in one filter (a custom attribute’s)', () => {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const NESTED: FilterField[] = [
    {
      kind: 'text',
      key: 'attributes.code',
      path: ['attributes', 'code'],
      label: 'Code contains',
      chipLabel: 'Code',
      chipText: (text) => `contains “${text}”`,
      encode: (value) => ({ contains: value }),
      decode: (value) => (isObject(value) && typeof value.contains === 'string' ? value.contains : undefined),
    },
    {
      kind: 'flag',
      key: 'attributes.code:empty',
      path: ['attributes', 'code'],
      label: 'Code: no value',
      chipLabel: 'Code',
      chipValue: 'no value',
      encode: () => ({ empty: true }),
      decode: (value) => (isObject(value) && value.empty === true ? 'true' : undefined),
    },
    {
      kind: 'dateRange',
      input: 'number',
      key: 'attributes.level',
      path: ['attributes', 'level'],
      label: 'Level',
      chipLabel: 'Level',
      fromLabel: 'Level from',
      toLabel: 'Level to',
      rangeText: (from, to) => `${from ?? '…'} to ${to ?? '…'}`,
    },
  ];

  it('writes each field into its place, and reads back only its own shape', () => {
    const filters = fromDraft(NESTED, { 'attributes.code': ' ab ', 'attributes.level': { from: '2' } });
    expect(filters).toEqual({ attributes: { code: { contains: 'ab' }, level: { from: '2' } } });
    expect(toDraft(NESTED, filters)).toEqual({
      'attributes.code': 'ab',
      'attributes.code:empty': '',
      'attributes.level': { from: '2' },
    });
    const empty = fromDraft(NESTED, { 'attributes.code:empty': 'true' });
    expect(empty).toEqual({ attributes: { code: { empty: true } } });
    expect(toDraft(NESTED, empty)['attributes.code']).toBe('');
  });

  it('gives each condition a chip in words, counted and removed on its own', () => {
    const filters = { name: 'x', attributes: { code: { contains: 'ab' }, level: { from: '2', to: '5' } } };
    expect(chipsOf(NESTED, filters, 'en-US').map((c) => [c.id, c.label, c.value])).toEqual([
      ['attributes.code', 'Code', 'contains “ab”'],
      ['attributes.level', 'Level', '2 to 5'],
    ]);
    expect(countInForce(NESTED, filters)).toBe(3);
    expect(withoutField(NESTED, filters, 'attributes.code')).toEqual({
      name: 'x',
      attributes: { level: { from: '2', to: '5' } },
    });
    expect(withoutField(NESTED, { attributes: { code: { empty: true } } }, 'attributes.code:empty')).toEqual({});
    expect(withoutField(NESTED, filters, 'name')).toEqual({ attributes: filters.attributes });
  });
});

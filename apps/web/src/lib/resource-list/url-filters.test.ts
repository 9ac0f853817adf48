import {
  boolean,
  dateRange,
  defineListQuery,
  exact,
  integer,
  numeric,
  oneOrMany,
  textContains,
  trashed,
  tristate,
} from '@app/contracts';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineResourceList } from './define-resource-list';
import { urlFiltersFrom } from './url-filters';

const things = defineListQuery({
  search: ['title'],
  filters: {
    title: textContains(),
    tag: oneOrMany(numeric(integer('A tag is a whole number.', { min: 1 }))),
    owner: exact(numeric(integer('An owner is a whole number.', { min: 1 }))),
    kind: oneOrMany(z.enum(['a', 'b'])),
    active: tristate(),
    made: dateRange(),
    trashed: trashed(),
  },
  sorts: ['id', 'title'],
  defaultOrder: ['id', 'desc'],
  perPage: { default: 20, max: 50, choices: [20, 50] },
});

describe('a list’s URL state derived from its contract', () => {
  const list = defineResourceList(things);

  it('reads every filter kind back to the value the URL holds', () => {
    const search =
      'filters[title]=x&filters[tag][]=3&filters[owner]=7&filters[kind][]=b&filters[active]=inactive' +
      '&filters[made][from]=2024-05-01&filters[trashed]=only';
    expect(list.codec.parse(search).filters).toEqual({
      title: 'x',
      tag: [3],
      owner: 7,
      kind: ['b'],
      active: 'inactive',
      made: { from: '2024-05-01' },
      trashed: 'only',
    });
    expect(list.codec.toSearch(list.codec.parse(search))).toBe(search);
  });

  it('leaves out the trash scope’s default, and offers the contract’s page sizes', () => {
    expect(list.codec.parse('filters[trashed]=without').filters).toEqual({});
    expect(list.perPageOptions).toEqual([20, 50]);
  });

  it('refuses a plain boolean filter, whose words the URL would not round-trip', () => {
    expect(() => urlFiltersFrom({ filters: { flag: boolean() } })).toThrow(/plain boolean/);
  });
});

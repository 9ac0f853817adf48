import { defineListQuery, oneOrMany, integer, numeric, textContains } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { listStateCodec, toListInput } from './list-state';

const things = defineListQuery({
  search: ['title'],
  filters: {
    title: textContains(),
    tag: oneOrMany(numeric(integer('A tag is a whole number.', { min: 1 }))),
  },
  sorts: ['id', 'title'],
  defaultOrder: ['id', 'desc'],
  perPage: { default: 20, max: 50 },
});

const codec = listStateCodec<'id' | 'title', { title?: string; tag?: number[] }, typeof things>(things, (filters) => ({
  ...(filters.title ? { title: filters.title.value } : {}),
  ...(filters.tag ? { tag: filters.tag.values } : {}),
}));

describe('a resource’s URL state', () => {
  it('reads the contract’s query from the URL and writes it back with defaults left out', () => {
    const search = 'q=abc&page=2&sort=title&dir=desc&filters[title]=x&filters[tag][]=3';
    const state = codec.parse(`?${search}`);
    expect(state).toEqual({
      q: 'abc',
      page: 2,
      perPage: 20,
      sort: 'title',
      dir: 'desc',
      filters: { title: 'x', tag: [3] },
    });
    expect(codec.toSearch(state)).toBe(search);
    expect(codec.toSearch(codec.defaults)).toBe('');
  });

  it('drops only the invalid parts of a hand-edited link', () => {
    const state = codec.parse('?page=0&sort=nope&filters[tag][]=x&filters[title]=ok&filters[unknown]=1&perPage=500');
    expect(state).toEqual({ ...codec.defaults, perPage: 50, filters: { title: 'ok' } });
  });

  it('keys a scope by query and filters only, and asks the API for what the table shows', () => {
    const a = codec.parse('?q=abc&page=3&filters[title]=x');
    expect(codec.scopeKey(a)).toBe(codec.scopeKey({ ...a, page: 1, sort: 'title' }));
    expect(toListInput(a)).toEqual({ q: 'abc', page: 3, perPage: 20, filters: { title: 'x' } });
  });
});

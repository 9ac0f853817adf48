import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { accept, refuse } from '../test-support';
import { defineListQuery, type ListQueryOf } from './define-list-query';
import { boolean, textContains, trashed } from './filters';
import { refusedTextMessage } from '../text';

const POSTS = {
  search: ['title'],
  filters: { title: textContains(), published: boolean(), trashed: trashed() },
  sorts: ['id', 'title', 'published_at'],
  defaultOrder: ['published_at', 'desc'],
  perPage: { default: 20, max: 50 },
} as const;
const posts = defineListQuery(POSTS);

describe('defineListQuery', () => {
  it('keeps the page size as asked, before the default and cap, for servers with other limits', () => {
    expect(accept(posts.input, { perPage: '500' })).toMatchObject({ perPage: 50, perPageRequested: 500 });
    expect(accept(posts.input, {})).toMatchObject({ perPageRequested: null });
  });

  it('fills every default for an absent query', () => {
    expect(accept(posts.input, undefined)).toEqual({
      q: null,
      page: 1,
      perPage: 20,
      perPageRequested: null,
      sort: null,
      dir: 'desc',
      order: [
        ['published_at', 'desc'],
        ['id', 'desc'],
      ],
      filters: { trashed: { kind: 'trashed', value: 'without' } },
    });
  });

  it('breaks ties by id in the direction of the sort', () => {
    expect(accept(posts.input, { sort: 'title', dir: 'desc' }).order).toEqual([
      ['title', 'desc'],
      ['id', 'desc'],
    ]);
  });

  it('does not repeat id when sorting by id', () => {
    expect(accept(posts.input, { sort: 'id' }).order).toEqual([['id', 'asc']]);
  });

  it('keeps the declared parts as data', () => {
    expect({ sorts: posts.sorts, filterNames: posts.filterNames, search: posts.search }).toEqual({
      sorts: ['id', 'title', 'published_at'],
      filterNames: ['title', 'published', 'trashed'],
      search: ['title'],
    });
  });

  it('normalises booleans in a boolean filter', () => {
    expect(accept(posts.input, { filters: { published: 'FALSE' } }).filters.published).toEqual({
      kind: 'boolean',
      value: false,
    });
  });

  it('leaves a text filter holding "1" as text', () => {
    expect(accept(posts.input, { filters: { title: '1' } }).filters.title).toEqual({ kind: 'contains', value: '1' });
  });

  it('leaves a filter out of the output when it is not given', () => {
    expect(Object.keys(accept(posts.input, { filters: { title: 'x' } }).filters)).toEqual(['title', 'trashed']);
  });

  it('refuses page-size limits that make no sense', () => {
    expect(() => defineListQuery({ ...POSTS, perPage: { default: 10, max: 5 } })).toThrow(/perPage limits/);
    expect(() => defineListQuery({ ...POSTS, perPage: { default: 20, max: 50, choices: [10, 50] } })).toThrow(
      /perPage choices/,
    );
    expect(() => defineListQuery({ ...POSTS, perPage: { default: 20, max: 50, choices: [20, 100] } })).toThrow(
      /perPage choices/,
    );
  });

  it('refuses a default order on a field that is not sortable', () => {
    expect(() =>
      defineListQuery({
        search: [],
        filters: {},
        sorts: ['id'],
        defaultOrder: ['title' as 'id', 'asc'],
        perPage: { default: 1, max: 1 },
      }),
    ).toThrow(/defaultOrder/);
  });

  it('refuses any filter when none are declared, saying so', () => {
    const bare = defineListQuery({
      search: [],
      filters: {},
      sorts: ['id'],
      defaultOrder: ['id', 'asc'],
      perPage: { default: 1, max: 1 },
    });
    expect(refuse(bare.input, { filters: { x: '1' } }).errors['filters.x']).toEqual([
      'Unknown filter "x". Allowed filters: none.',
    ]);
  });
});

describe('defineListQuery: the text rule', () => {
  // Found by the API fuzzer: on SQLite a NUL inside a search term ended the SQL statement (a 500).
  it('refuses a NUL anywhere in the text, naming where, with or without extra keys', () => {
    const withLimit = posts.extend({ limit: z.coerce.number().default(5) });
    for (const schema of [posts.input, withLimit]) {
      const refused = refuse(schema, { q: 'a\u0000b', filters: { title: '\u0000', trashed: ['with', 'x\u0000'] } });
      expect(refused.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(refused.errors).sort()).toEqual(['filters.title', 'filters.trashed.1', 'q']);
      expect(refused.errors.q).toEqual([refusedTextMessage('search', '\u0000')]);
      expect(refused.errors['filters.title']?.[0]).toMatch(
        /^The filter contains an invisible or control character \(U\+0000\)/,
      );
    }
  });

  it('refuses the other controls, direction overrides and zero-width characters the same way', () => {
    for (const q of ['a\u0001b', 'a\u0085b', 'a\u202eb', 'a\u200bb', 'a\ud800b']) {
      expect(refuse(posts.input, { q }).errors).toEqual({ q: [refusedTextMessage('search', q)] });
    }
  });

  it('keeps accents, scripts and emoji searchable', () => {
    expect(accept(posts.input, { q: 'Zoë 李 😀' }).q).toBe('Zoë 李 😀');
  });
});

describe('defineListQuery: extend', () => {
  const withLimit = posts.extend({ limit: z.coerce.number().int().max(5, 'Limit is at most 5.').default(5) });

  it('validates the extra keys', () => {
    expect(refuse(withLimit, { limit: '9' }).errors).toEqual({ limit: ['Limit is at most 5.'] });
  });

  it('adds the extra keys to the list query', () => {
    const parsed = accept(withLimit, { limit: ' 3 ', sort: 'title' });
    expect([parsed.limit, parsed.sort]).toEqual([3, 'title']);
  });

  it('normalises the extra keys like the rest (empty is absent)', () => {
    expect(accept(withLimit, { limit: '' }).limit).toBe(5);
  });

  it('still validates the list query', () => {
    expect(Object.keys(refuse(withLimit, { page: '0' }).errors)).toEqual(['page']);
  });
});

describe('defineListQuery: types', () => {
  it('types the output precisely', () => {
    type Posts = ListQueryOf<typeof posts>;
    expectTypeOf<Posts['sort']>().toEqualTypeOf<'id' | 'title' | 'published_at' | null>();
    expectTypeOf<Posts['filters']['trashed']>().toEqualTypeOf<{
      kind: 'trashed';
      value: 'without' | 'with' | 'only';
    }>();
    expectTypeOf<NonNullable<Posts['filters']['published']>['kind']>().toEqualTypeOf<'boolean'>();
  });

  it('types the raw input loosely enough for query-string text', () => {
    type Input = z.input<typeof posts.input>;
    expectTypeOf<{ page: '2'; filters: { published: 'true' } }>().toExtend<Input>();
  });
});

import { describe, expect, it } from 'vitest';
import { toListInput } from '../../../lib/resource-list/list-state';
import { usersList } from '../../../lib/users-query/users-list-state';

const { parse: parseListState, toSearch, defaults: DEFAULT_LIST_STATE } = usersList.codec;

describe('users list URL state', () => {
  it('reads every part of the list query from bracket notation', () => {
    expect(
      parseListState(
        '?q=ann&page=3&perPage=25&sort=created_at&dir=DESC&filters[role_id][]=2&filters[is_active]=false' +
          '&filters[created_between][from]=2024-05-10&filters[created_between][to]=2024-05-01&filters[trashed]=with',
      ),
    ).toEqual({
      q: 'ann',
      page: 3,
      perPage: 25,
      sort: 'created_at',
      dir: 'desc',
      filters: {
        role_id: [2],
        is_active: 'inactive',
        created_between: { from: '2024-05-01', to: '2024-05-10' },
        trashed: 'with',
      },
    });
  });

  it('writes a state back to the same URL, leaving defaults out', () => {
    const search = 'q=ann&page=2&sort=name&dir=desc&filters[email]=example&filters[role_id][]=1&filters[role_id][]=3';
    expect(toSearch(parseListState(search))).toBe(search);
    expect(toSearch(DEFAULT_LIST_STATE)).toBe('');
  });

  it('falls back to the defaults for a query string it cannot read at all', () => {
    expect(parseListState('?a[b][c][d][e][f]=1')).toEqual(DEFAULT_LIST_STATE);
  });

  it('drops only the invalid parameters', () => {
    expect(parseListState('?page=-1&perPage=25&filters[is_active]=maybe&filters[name]=ann')).toEqual({
      ...DEFAULT_LIST_STATE,
      perPage: 25,
      filters: { name: 'ann' },
    });
  });

  it('asks the API for the default order when no sort is given', () => {
    expect(toListInput(parseListState('?dir=desc'))).toEqual({ page: 1, perPage: 10, filters: {} });
  });
});

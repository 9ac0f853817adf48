import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../query/query-string';
import { accept, refuse } from '../test-support';
import { ROLE_COLUMN_KEYS, RolesExportInputSchema, rolesListQuery } from './roles.list';

const list = rolesListQuery.input;
const fromUrl = (raw: string) => accept(list, parseQueryString(raw));
const refuseUrl = (raw: string) => refuse(list, parseQueryString(raw));

describe('roles list query', () => {
  it('orders by name ascending, 25 a page, when nothing is given', () => {
    const query = fromUrl('');
    expect([query.q, query.page, query.perPage, query.sort, query.order, query.filters]).toEqual([
      null,
      1,
      25,
      null,
      [
        ['name', 'asc'],
        ['id', 'asc'],
      ],
      {},
    ]);
  });

  it('sorts by users_count or created_at either way, with id as tie-breaker', () => {
    expect(fromUrl('sort=users_count&dir=DESC').order).toEqual([
      ['users_count', 'desc'],
      ['id', 'desc'],
    ]);
    expect(fromUrl('sort=created_at').order).toEqual([
      ['created_at', 'asc'],
      ['id', 'asc'],
    ]);
  });

  it('refuses an unknown sort with VALIDATION_FAILED, listing the allowed ones', () => {
    expect(refuseUrl('sort=permissions_count')).toEqual({
      code: 'VALIDATION_FAILED',
      errors: { sort: ['Sort must be one of: name, users_count, created_at.'] },
    });
  });

  it('refuses an unknown filter with VALIDATION_FAILED, listing the allowed ones', () => {
    expect(refuseUrl('filters[guard_name]=web')).toEqual({
      code: 'VALIDATION_FAILED',
      errors: { 'filters.guard_name': ['Unknown filter "guard_name". Allowed filters: permission, users_count.'] },
    });
  });

  it('reads permission as one name or many, deduplicated', () => {
    expect(fromUrl('filters[permission]=users.view').filters.permission).toEqual({
      kind: 'in',
      values: ['users.view'],
    });
    expect(
      fromUrl('filters[permission][]=users.view&filters[permission][]=audit.view&filters[permission][]=users.view')
        .filters.permission,
    ).toEqual({ kind: 'in', values: ['users.view', 'audit.view'] });
  });

  it('refuses a permission that does not exist, at its place', () => {
    const refused = refuseUrl('filters[permission][]=users.view&filters[permission][]=users.fly');
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(refused.errors)).toEqual(['filters.permission.1']);
  });

  it('reads users_count as a range of whole numbers, swapping reversed bounds', () => {
    expect(fromUrl('filters[users_count][from]=2').filters.users_count).toEqual({ kind: 'range', from: 2 });
    expect(fromUrl('filters[users_count][from]=9&filters[users_count][to]=0').filters.users_count).toEqual({
      kind: 'range',
      from: 0,
      to: 9,
    });
  });

  it.each(['-1', '1.5', 'many'])('refuses users_count from=%s at its bound', (value) => {
    expect(Object.keys(refuseUrl(`filters[users_count][from]=${value}`).errors)).toEqual(['filters.users_count.from']);
  });

  it('refuses a users_count that is not a range', () => {
    expect(refuseUrl('filters[users_count][min]=1').code).toBe('VALIDATION_FAILED');
  });
});

describe('roles export input', () => {
  it('takes the list query, csv and every column by default', () => {
    const input = accept(RolesExportInputSchema, parseQueryString('q=ops&sort=users_count'));
    expect([input.q, input.sort, input.format, input.columns]).toEqual(['ops', 'users_count', 'csv', ROLE_COLUMN_KEYS]);
  });

  it('picks and orders the columns asked for, and refuses an unknown one', () => {
    expect(accept(RolesExportInputSchema, parseQueryString('columns[]=users_count&columns[]=name')).columns).toEqual([
      'users_count',
      'name',
    ]);
    expect(refuse(RolesExportInputSchema, parseQueryString('columns[]=password')).code).toBe('VALIDATION_FAILED');
  });
});

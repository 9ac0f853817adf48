import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../query/query-string';
import { accept, refuse } from '../test-support';
import { UsersExportInputSchema, usersListQuery, UsersSelectedInputSchema } from './users.query';

const list = usersListQuery.input;
const fromUrl = (raw: string) => accept(list, parseQueryString(raw));
const refuseUrl = (raw: string) => refuse(list, parseQueryString(raw));

describe('users list query: q', () => {
  it('accepts a search of 255 characters', () => {
    expect(accept(list, { q: 'a'.repeat(255) }).q).toHaveLength(255);
  });

  it('refuses a search of 256 characters at q', () => {
    expect(refuse(list, { q: 'a'.repeat(256) }).errors).toEqual({ q: ['Search can be at most 255 characters long.'] });
  });

  it('keeps %, _ and \\ literally', () => {
    expect(fromUrl('q=%25_%5C').q).toBe('%_\\');
  });

  it('trims the search and treats a blank one as absent', () => {
    expect([fromUrl('q=%20ann%20').q, fromUrl('q=%20%20').q]).toEqual(['ann', null]);
  });
});

describe('users list query: paging', () => {
  it('defaults to page 1 of 10', () => {
    const query = fromUrl('');
    expect([query.page, query.perPage]).toEqual([1, 10]);
  });

  it('reads page and perPage from text', () => {
    const query = fromUrl('page=3&perPage=25');
    expect([query.page, query.perPage]).toEqual([3, 25]);
  });

  it.each(['0', '-1', '1.5', 'abc', '1e3'])('refuses page=%s at page', (page) => {
    expect(refuseUrl(`page=${page}`).errors).toEqual({ page: ['Page must be a whole number of 1 or more.'] });
  });

  it('refuses perPage=0 at perPage', () => {
    expect(Object.keys(refuseUrl('perPage=0').errors)).toEqual(['perPage']);
  });

  it('caps perPage=1000 to 100 instead of refusing it', () => {
    expect(fromUrl('perPage=1000').perPage).toBe(100);
  });
});

describe('users list query: sort and dir', () => {
  it('orders by id descending when no sort is given', () => {
    expect(fromUrl('').order).toEqual([['id', 'desc']]);
  });

  it('defaults to ascending when a sort is given, with id as tie-breaker', () => {
    const query = fromUrl('sort=name');
    expect([query.sort, query.dir, query.order]).toEqual([
      'name',
      'asc',
      [
        ['name', 'asc'],
        ['id', 'asc'],
      ],
    ]);
  });

  it('refuses an unknown sort, listing the allowed ones', () => {
    expect(refuseUrl('sort=password').errors).toEqual({
      sort: ['Sort must be one of: id, name, email, is_active, created_at, attributes.<key>.'],
    });
  });

  it('reads dir=DESC as desc', () => {
    expect(fromUrl('sort=email&dir=DESC').dir).toBe('desc');
  });

  it.each(['ascending', 'sideways'])('refuses dir=%s at dir', (dir) => {
    expect(refuseUrl(`sort=name&dir=${dir}`).errors).toEqual({ dir: ['Direction must be asc or desc.'] });
  });

  it('keeps the default order when dir is given without a sort', () => {
    expect(fromUrl('dir=asc').order).toEqual([['id', 'desc']]);
  });
});

describe('users list query: filters', () => {
  it('refuses filters given as a plain string, saying how to give them', () => {
    expect(refuseUrl('filters=active').errors).toEqual({
      filters: [
        'Filters must be given by name, e.g. filters[name]=value. Allowed filters: name, email, role_id, is_active, created_between, trashed, invitation, attributes.',
      ],
    });
  });

  it('refuses an unknown filter at its name, listing the allowed ones', () => {
    expect(refuseUrl('filters[password]=x').errors).toEqual({
      'filters.password': [
        'Unknown filter "password". Allowed filters: name, email, role_id, is_active, created_between, trashed, invitation, attributes.',
      ],
    });
  });

  it('ignores unknown top-level keys', () => {
    expect(fromUrl('utm_source=mail&page=2').page).toBe(2);
  });

  it('reads name and email as text filters', () => {
    expect(fromUrl('filters[name]=Ann&filters[email]=%40example').filters).toMatchObject({
      name: { kind: 'contains', value: 'Ann' },
      email: { kind: 'contains', value: '@example' },
    });
  });

  it('accepts a single role_id', () => {
    expect(fromUrl('filters[role_id]=2').filters.role_id).toEqual({ kind: 'in', values: [2] });
  });

  it('accepts role_id as a list', () => {
    expect(fromUrl('filters[role_id][]=2&filters[role_id][]=3').filters.role_id).toEqual({
      kind: 'in',
      values: [2, 3],
    });
  });

  it('refuses a role_id that is not a positive whole number at its index', () => {
    expect(Object.keys(refuseUrl('filters[role_id][]=2&filters[role_id][]=0').errors)).toEqual(['filters.role_id.1']);
  });

  it('refuses more than 100 role ids', () => {
    const raw = Array.from({ length: 101 }, (_, i) => `filters[role_id][]=${i + 1}`).join('&');
    expect(refuseUrl(raw).errors['filters.role_id']).toEqual(['Give at most 100 values.']);
  });

  it.each([
    ['true', true],
    ['FALSE', false],
    ['1', true],
    ['0', false],
    ['active', true],
    ['inactive', false],
  ])('reads is_active=%s as %s', (raw, value) => {
    expect(fromUrl(`filters[is_active]=${raw}`).filters.is_active).toEqual({ kind: 'boolean', value });
  });

  it('treats is_active=all as no filter', () => {
    expect(fromUrl('filters[is_active]=all').filters).not.toHaveProperty('is_active');
  });

  it('makes date-only created_between bounds whole UTC days', () => {
    expect(
      fromUrl('filters[created_between][from]=2024-05-01&filters[created_between][to]=2024-05-02').filters
        .created_between,
    ).toEqual({
      kind: 'range',
      from: '2024-05-01T00:00:00.000Z',
      to: '2024-05-02T23:59:59.999Z',
    });
  });

  it('swaps created_between bounds given the wrong way round', () => {
    expect(
      fromUrl('filters[created_between][from]=2024-06-01&filters[created_between][to]=2024-05-01').filters
        .created_between,
    ).toEqual({
      kind: 'range',
      from: '2024-05-01T00:00:00.000Z',
      to: '2024-06-01T23:59:59.999Z',
    });
  });

  it('refuses an impossible date at filters.created_between.from', () => {
    expect(Object.keys(refuseUrl('filters[created_between][from]=2024-02-30').errors)).toEqual([
      'filters.created_between.from',
    ]);
  });

  it('refuses a word instead of a date at filters.created_between.to', () => {
    expect(Object.keys(refuseUrl('filters[created_between][to]=yesterday').errors)).toEqual([
      'filters.created_between.to',
    ]);
  });

  it('treats empty bounds as no date filter', () => {
    expect(fromUrl('filters[created_between][from]=&filters[created_between][to]=').filters).not.toHaveProperty(
      'created_between',
    );
  });

  it('defaults trashed to without', () => {
    expect(fromUrl('').filters.trashed).toEqual({ kind: 'trashed', value: 'without' });
  });

  it('reads trashed=only', () => {
    expect(fromUrl('filters[trashed]=only').filters.trashed).toEqual({ kind: 'trashed', value: 'only' });
  });

  it('reports every invalid part of a query at once', () => {
    expect(
      Object.keys(refuseUrl('page=0&sort=x&dir=up&filters[is_active]=maybe&filters[nope]=1').errors).sort(),
    ).toEqual(['dir', 'filters.is_active', 'filters.nope', 'page', 'sort']);
  });
});

describe('GET /users/selected input', () => {
  it('defaults limit to 10 000', () => {
    expect(accept(UsersSelectedInputSchema, parseQueryString('sort=name')).limit).toBe(10_000);
  });

  it('refuses a limit above 10 000', () => {
    expect(refuse(UsersSelectedInputSchema, parseQueryString('limit=10001')).errors).toEqual({
      limit: ['Limit must be a whole number from 1 to 10000.'],
    });
  });
});

describe('GET /users/export input', () => {
  it('defaults to CSV with every column in column-set order', () => {
    const input = accept(UsersExportInputSchema, {});
    expect([input.format, input.columns]).toEqual([
      'csv',
      ['id', 'name', 'email', 'roles_count', 'roles', 'is_active', 'created_at'],
    ]);
  });

  it('keeps the caller order of columns and drops duplicates', () => {
    expect(
      accept(UsersExportInputSchema, parseQueryString('columns[]=email&columns[]=id&columns[]=email')).columns,
    ).toEqual(['email', 'id']);
  });

  it('refuses an unknown format, listing the allowed ones', () => {
    expect(refuse(UsersExportInputSchema, { format: 'pdf' }).errors).toEqual({
      format: ['Format must be one of: csv, xlsx, json.'],
    });
  });

  it('reads the format in any case', () => {
    expect(accept(UsersExportInputSchema, { format: 'XLSX' }).format).toBe('xlsx');
  });

  it('refuses an unknown column at its index', () => {
    expect(Object.keys(refuse(UsersExportInputSchema, { columns: ['id', 'password'] }).errors)).toEqual(['columns.1']);
  });

  it('accepts 10 000 ids from a query string', () => {
    const raw = `format=json&${Array.from({ length: 10_000 }, (_, i) => `ids[]=${i + 1}`).join('&')}`;
    expect(accept(UsersExportInputSchema, parseQueryString(raw)).ids).toHaveLength(10_000);
  });

  it('applies q, filters and sort like the list', () => {
    const input = accept(UsersExportInputSchema, parseQueryString('q=ann&sort=email&dir=desc&filters[is_active]=1'));
    expect([input.q, input.order, input.filters.is_active]).toEqual([
      'ann',
      [
        ['email', 'desc'],
        ['id', 'desc'],
      ],
      { kind: 'boolean', value: true },
    ]);
  });
});

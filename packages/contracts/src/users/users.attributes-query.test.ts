import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../query/query-string';
import { accept, refuse } from '../test-support';
import { UsersExportInputSchema, usersListQuery } from './users.query';

const list = usersListQuery.input;
const fromUrl = (raw: string) => accept(list, parseQueryString(raw));
const refuseUrl = (raw: string) => refuse(list, parseQueryString(raw));
const conditions = (raw: string) => fromUrl(raw).filters.attributes?.value;

describe('users list query: attribute filters', () => {
  it('reads one value as a list of one', () => {
    expect(conditions('filters[attributes][department]=Sales')).toEqual({ department: ['Sales'] });
  });

  it('reads several values, dropping repeats', () => {
    expect(
      conditions('filters[attributes][level][]=1&filters[attributes][level][]=2&filters[attributes][level][]=1'),
    ).toEqual({
      level: ['1', '2'],
    });
  });

  it('reads a range with either bound, leaving the order to the server', () => {
    expect(conditions('filters[attributes][level][from]=10&filters[attributes][level][to]=9')).toEqual({
      level: { from: '10', to: '9' },
    });
    expect(conditions('filters[attributes][start_date][to]=2024-01-01')).toEqual({ start_date: { to: '2024-01-01' } });
  });

  it('reads contains and empty', () => {
    expect(
      conditions('filters[attributes][cost_centre][contains]=CC&filters[attributes][manager][empty]=true'),
    ).toEqual({
      cost_centre: { contains: 'CC' },
      manager: { empty: true },
    });
  });

  it('takes JSON values from tRPC and echoes the normalised shapes', () => {
    const parsed = accept(list, { filters: { attributes: { level: 3, vip: [true], d: { from: 1 } } } });
    expect(parsed.filters.attributes).toEqual({ kind: 'exact', value: { level: [3], vip: [true], d: { from: 1 } } });
    // The echo parses back to itself: a URL can carry it as it is.
    expect(accept(list, { filters: { attributes: parsed.filters.attributes?.value } }).filters.attributes).toEqual(
      parsed.filters.attributes,
    );
  });

  it('treats a blank value as no filter', () => {
    expect(fromUrl('filters[attributes][department]=').filters.attributes).toBeUndefined();
  });

  it('refuses two shapes at once, naming the attribute', () => {
    expect(
      Object.keys(refuseUrl('filters[attributes][level][from]=1&filters[attributes][level][contains]=x').errors),
    ).toEqual(['filters.attributes.level']);
  });

  it('refuses a key that cannot be an attribute key', () => {
    expect(Object.keys(refuseUrl('filters[attributes][Bad-Key]=1').errors)[0]).toMatch(/^filters\.attributes/);
  });

  it('refuses empty that is not a yes/no', () => {
    expect(refuseUrl('filters[attributes][manager][empty]=maybe').errors).toEqual({
      'filters.attributes.manager.empty': ['Empty takes true or false.'],
    });
  });
});

describe('users list query: attribute sort and columns', () => {
  it('accepts sort=attributes.<key>, with id as tie-breaker', () => {
    expect(fromUrl('sort=attributes.start_date&dir=desc').order).toEqual([
      ['attributes.start_date', 'desc'],
      ['id', 'desc'],
    ]);
  });

  it('refuses a sort family it does not know', () => {
    expect(Object.keys(refuseUrl('sort=roles.name').errors)).toEqual(['sort']);
  });

  it('takes attribute columns in an export, in the order asked', () => {
    const input = accept(UsersExportInputSchema, parseQueryString('columns[]=email&columns[]=attributes.department'));
    expect(input.columns).toEqual(['email', 'attributes.department']);
  });

  it('leaves attribute columns out of the default', () => {
    expect(accept(UsersExportInputSchema, {}).columns).not.toContain('attributes.department');
  });
});

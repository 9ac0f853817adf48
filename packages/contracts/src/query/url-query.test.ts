import fc from 'fast-check';
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { parseQueryString } from './query-string';
import { readQueryString, stringifyQuery } from './url-query';

describe('stringifyQuery', () => {
  it('writes lists in bracket notation', () => {
    expect(stringifyQuery({ filters: { role_id: [2, 3] }, with: ['roles'] })).toBe(
      'filters[role_id][]=2&filters[role_id][]=3&with[]=roles',
    );
  });

  it('leaves out null, undefined, empty strings and empty lists', () => {
    expect(stringifyQuery({ q: '', sort: null, dir: undefined, filters: { name: '', role_id: [] }, page: 2 })).toBe(
      'page=2',
    );
  });

  it('encodes values so that they read back unchanged', () => {
    const query = { q: 'a&b=c %_\\ +', filters: { created_between: { from: '2024-05-01T10:00:00+02:00' } } };
    expect(parseQueryString(stringifyQuery(query))).toEqual(query);
    expect(readQueryString(stringifyQuery(query))).toEqual(query);
  });

  it('writes booleans and numbers as text', () => {
    expect(stringifyQuery({ page: 3, filters: { is_active: false } })).toBe('page=3&filters[is_active]=false');
  });

  it('replaces a lone UTF-16 half instead of failing to encode it', () => {
    expect(readQueryString(stringifyQuery({ q: 'a\uD800b' }))).toEqual({ q: 'a\uFFFDb' });
  });
});

describe('readQueryString', () => {
  it('reads what a person may type or paste: + and %20 as spaces, a leading ?', () => {
    expect(readQueryString('?q=grace+hopper&filters[name]=a%20b')).toEqual({
      q: 'grace hopper',
      filters: { name: 'a b' },
    });
  });

  it('reads percent-encoded brackets and index-style list entries', () => {
    expect(readQueryString('filters%5Brole_id%5D%5B%5D=2&ids[0]=5&ids[1]=6')).toEqual({
      filters: { role_id: ['2'] },
      ids: ['5', '6'],
    });
  });

  it('skips keys that are too deep, malformed or would touch Object.prototype', () => {
    const read = readQueryString('a[b][c][d][e][f]=1&b]=2&__proto__[x]=3&filters[constructor][y]=4&c[][d]=5&q=ok');
    expect(read).toEqual({ q: 'ok' });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('lets the first of two contradicting keys win', () => {
    expect(readQueryString('filters=x&filters[name]=ann')).toEqual({ filters: 'x' });
  });
});

// Every shape the SPA writes: names and values of any text, nested up to the contract's depth.
const name = fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/).filter((n) => !(n in Object.prototype));
const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });
const leaf = fc.oneof(text, fc.integer(), fc.boolean());
const list = fc.array(fc.oneof(text, fc.integer()), { minLength: 1, maxLength: 4 });
const level2 = fc.dictionary(name, fc.oneof(leaf, list), { minKeys: 1, maxKeys: 3 });
const level1 = fc.dictionary(name, fc.oneof(leaf, list, level2), { minKeys: 1, maxKeys: 4 });
const query = fc.dictionary(name, fc.oneof(leaf, list, level1), { minKeys: 1, maxKeys: 5 });

describe('the SPA and the API read the same URLs', () => {
  it('writes exactly what qs writes, and both readers read it back alike', () => {
    fc.assert(
      fc.property(query, (value) => {
        const written = stringifyQuery(value);
        expect(written).toBe(qs.stringify(value, { arrayFormat: 'brackets', encodeValuesOnly: true, skipNulls: true }));
        expect(readQueryString(written)).toEqual(parseQueryString(written));
      }),
      { numRuns: 500, seed: 20261123 },
    );
  });
});

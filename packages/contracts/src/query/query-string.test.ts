import { describe, expect, it } from 'vitest';
import { parseQueryString, QUERY_STRING_LIMITS, QueryStringError } from './query-string';

const repeat = (count: number, part: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => part(i)).join('&');

/** Milliseconds one call takes, after a warm-up call so the JIT is not what gets measured. */
function timed(fn: () => unknown): number {
  const attempt = () => {
    try {
      fn();
    } catch {
      // refusing is as good an outcome as parsing here: only the time counts
    }
  };
  attempt();
  const start = performance.now();
  attempt();
  return performance.now() - start;
}

describe('parseQueryString: bracket notation', () => {
  it('nests a between filter from filters[created_between][from]', () => {
    expect(
      parseQueryString('filters[created_between][from]=2024-05-01&filters[created_between][to]=2024-05-31'),
    ).toEqual({
      filters: { created_between: { from: '2024-05-01', to: '2024-05-31' } },
    });
  });

  it('collects filters[role_id][]=2&filters[role_id][]=3 into a list', () => {
    expect(parseQueryString('filters[role_id][]=2&filters[role_id][]=3')).toEqual({ filters: { role_id: ['2', '3'] } });
  });

  it('makes with[]=roles a list of one', () => {
    expect(parseQueryString('with[]=roles')).toEqual({ with: ['roles'] });
  });

  it('reads percent-encoded brackets like literal ones', () => {
    expect(parseQueryString('filters%5Bname%5D=ann')).toEqual({ filters: { name: 'ann' } });
  });

  it('decodes + and %20 as spaces and keeps % _ \\ literally', () => {
    expect(parseQueryString('q=a+b%20c%25_%5C')).toEqual({ q: 'a b c%_\\' });
  });

  it('ignores a leading question mark', () => {
    expect(parseQueryString('?page=2')).toEqual({ page: '2' });
  });

  it('orders index-style list entries by their index', () => {
    expect(parseQueryString('ids[2]=c&ids[0]=a&ids[1]=b')).toEqual({ ids: ['a', 'b', 'c'] });
  });

  it('turns a repeated plain name into a list', () => {
    expect(parseQueryString('with=roles&with=permissions')).toEqual({ with: ['roles', 'permissions'] });
  });

  it('keeps empty values as empty strings for normalisation to drop', () => {
    expect(parseQueryString('q=&filters[name]=')).toEqual({ q: '', filters: { name: '' } });
  });

  it('returns an empty object for an empty string', () => {
    expect(parseQueryString('')).toEqual({});
  });
});

describe('parseQueryString: hostile input', () => {
  it('refuses nesting deeper than four bracket levels', () => {
    expect(() => parseQueryString('a[b][c][d][e][f]=1')).toThrow(QueryStringError);
  });

  it('accepts nesting of exactly four bracket levels', () => {
    expect(parseQueryString('a[b][c][d][e]=1')).toEqual({ a: { b: { c: { d: { e: '1' } } } } });
  });

  it('says in plain words that the query string is too deeply nested', () => {
    expect(() => parseQueryString('a[b][c][d][e][f]=1')).toThrow('The query string is too deeply nested');
  });

  it('refuses more parameters than the limit', () => {
    const raw = repeat(QUERY_STRING_LIMITS.maxParameters + 1, () => 'a=1');
    expect(() => parseQueryString(raw)).toThrow('The query string has too many parameters');
  });

  it('refuses more than 200 different names', () => {
    const raw = repeat(201, (i) => `p${i}=1`);
    expect(() => parseQueryString(raw)).toThrow('too many different parameters');
  });

  it('accepts 10 000 ids[] alongside the other parameters of an export', () => {
    const raw = `format=csv&sort=name&dir=asc&filters[name]=a&${repeat(10_000, (i) => `ids[]=${i + 1}`)}`;
    const parsed = parseQueryString(raw);
    expect(parsed.ids).toHaveLength(10_000);
    expect(parsed.format).toBe('csv');
  });

  it('accepts 10 000 index-style ids as PHP clients send them', () => {
    expect(parseQueryString(repeat(10_000, (i) => `ids[${i}]=${i + 1}`)).ids).toHaveLength(10_000);
  });

  it('refuses 10 001 ids[] as a list that is too long', () => {
    const raw = repeat(10_001, (i) => `ids[]=${i + 1}`);
    expect(() => parseQueryString(raw)).toThrow('A list in the query string has too many entries');
  });

  it('refuses a huge list index instead of allocating a sparse array', () => {
    expect(() => parseQueryString('a[99999]=x')).toThrow(QueryStringError);
  });

  it('turns a high but allowed index into a one-entry list, not a sparse one', () => {
    const parsed = parseQueryString('a[9999]=x');
    expect(parsed.a).toEqual(['x']);
  });

  it('refuses a large index in the middle of a key', () => {
    expect(() => parseQueryString('a[500][b]=x')).toThrow(QueryStringError);
  });

  it('drops __proto__ keys and leaves Object.prototype untouched', () => {
    const parsed = parseQueryString('__proto__[polluted]=1&a[__proto__][polluted]=1&a[b]=ok&[__proto__]=1');
    expect(parsed).toEqual({ a: { b: 'ok' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('drops constructor[prototype] keys', () => {
    const parsed = parseQueryString('constructor[prototype][polluted]=1&filters[constructor]=x');
    expect(parsed).toEqual({});
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('tells the kind of limit that was broken', () => {
    const error = (() => {
      try {
        return parseQueryString('a[b][c][d][e][f]=1');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(QueryStringError);
    expect(error).toMatchObject({ problem: 'depth' });
  });

  const MB = 1_000_000;
  const hostile: Array<[string, string]> = [
    ['10 200 distinct keys', repeat(10_200, (i) => `k${i}[x]=${'v'.repeat(90)}`)],
    ['10 000 deep list entries', repeat(10_000, () => `a[b][c][d][]=${'v'.repeat(80)}`)],
    ['10 000 descending indices', repeat(10_000, (i) => `a[${9_999 - i}]=${'v'.repeat(80)}`)],
    ['one megabyte of open brackets', `a${'['.repeat(MB)}=1`],
    ['one megabyte of empty brackets', `a${'[]'.repeat(MB / 2)}=1`],
    ['one megabyte of ampersands', '&'.repeat(MB)],
    ['one megabyte of broken percent escapes', `q=${'%E2%'.repeat(MB / 4)}`],
    ['one megabyte in one value', `q=${'x'.repeat(MB)}`],
  ];

  for (const [name, raw] of hostile) {
    // Typically 5–50 ms; the bound is loose so a busy CI machine cannot flake it, and still far
    // below the seconds a quadratic parser takes on these inputs.
    it(`parses or refuses ${name} in a fraction of a second`, () => {
      expect(timed(() => parseQueryString(raw))).toBeLessThan(300);
    });
  }
});

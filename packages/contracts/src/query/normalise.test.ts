import { describe, expect, it } from 'vitest';
import { compareBounds, normaliseRaw, orderBounds, toBooleanish, toNumberish } from './normalise';

describe('normaliseRaw', () => {
  it('trims every string, however deep', () => {
    expect(normaliseRaw({ q: '  ann ', filters: { created_between: { from: ' 2024-05-01\t' } } })).toEqual({
      q: 'ann',
      filters: { created_between: { from: '2024-05-01' } },
    });
  });

  it('treats an empty or blank string as absent', () => {
    expect(normaliseRaw({ q: '', sort: '   ', page: '2' })).toEqual({ page: '2' });
  });

  it('drops list entries that are empty', () => {
    expect(normaliseRaw({ ids: ['1', ' ', '', '2'] })).toEqual({ ids: ['1', '2'] });
  });

  it('treats a list or object left empty as absent', () => {
    expect(normaliseRaw({ filters: { role_id: [''], created_between: { from: '', to: ' ' } } })).toBeUndefined();
  });

  it('leaves numbers, booleans and null alone', () => {
    expect(normaliseRaw({ page: 2, active: false, deleted: null })).toEqual({ page: 2, active: false, deleted: null });
  });

  it('skips __proto__ keys so the result keeps its prototype', () => {
    const raw = JSON.parse('{"__proto__": {"polluted": true}, "q": "x"}') as unknown;
    const normalised = normaliseRaw(raw) as Record<string, unknown>;
    expect(Object.getPrototypeOf(normalised)).toBe(Object.prototype);
    expect(normalised.polluted).toBeUndefined();
  });

  it('survives a very deeply nested body without overflowing the stack', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`) as unknown;
    expect(() => normaliseRaw(deep)).not.toThrow();
  });
});

describe('toBooleanish', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['False', false],
    ['0', false],
    [1, true],
    [0, false],
  ])('reads %j as %j', (raw, expected) => {
    expect(toBooleanish(raw)).toBe(expected);
  });

  it('leaves other words for validation to refuse', () => {
    expect(toBooleanish('yes')).toBe('yes');
  });
});

describe('toNumberish', () => {
  it('reads decimal text as a number', () => {
    expect(toNumberish('1.5')).toBe(1.5);
  });

  it('leaves text that only Number() would read, such as hex and exponents', () => {
    expect([toNumberish('0x10'), toNumberish('1e3'), toNumberish('abc')]).toEqual(['0x10', '1e3', 'abc']);
  });
});

describe('orderBounds', () => {
  it('swaps numbers given the wrong way round, comparing numerically', () => {
    expect(orderBounds(10, 9)).toEqual({ from: 9, to: 10 });
  });

  it('swaps dates given the wrong way round', () => {
    expect(orderBounds(new Date('2024-05-10'), new Date('2024-05-01'))).toEqual({
      from: new Date('2024-05-01'),
      to: new Date('2024-05-10'),
    });
  });

  it('compares ISO strings as instants, offsets included', () => {
    expect(compareBounds('2024-05-01T10:00:00+02:00', '2024-05-01T09:00:00Z')).toBeLessThan(0);
  });

  it('does not read short numeric text as a date', () => {
    expect(compareBounds('5', '10')).toBeGreaterThan(0);
  });

  it('keeps a single bound as it is', () => {
    expect(orderBounds(undefined, 3)).toEqual({ to: 3 });
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accept, refuse } from '../test-support';
import { integer, numeric } from './fields';
import { boolean, dateRange, exact, nullTest, oneOrMany, range, textContains, trashed, tristate } from './filters';

const id = numeric(integer('An id must be a whole number of 1 or more.', { min: 1 }));

describe('exact', () => {
  it('wraps the value', () => {
    expect(accept(exact(z.enum(['a', 'b'])).schema, 'a')).toEqual({ kind: 'exact', value: 'a' });
  });

  it('is absent when not given', () => {
    expect(accept(exact(z.string()).schema, undefined)).toBeUndefined();
  });
});

describe('range', () => {
  const numbers = range(numeric(z.number({ error: 'Give a number.' }))).schema;

  it('accepts from and to', () => {
    expect(accept(numbers, { from: '1', to: '5' })).toEqual({ kind: 'range', from: 1, to: 5 });
  });

  it('accepts only one bound', () => {
    expect(accept(numbers, { to: '5' })).toEqual({ kind: 'range', to: 5 });
  });

  it('swaps numbers given the wrong way round, comparing numerically', () => {
    expect(accept(numbers, { from: '10', to: '9' })).toEqual({ kind: 'range', from: 9, to: 10 });
  });

  it('swaps dates given the wrong way round', () => {
    const dates = range(z.coerce.date()).schema;
    expect(accept(dates, { from: '2024-05-10', to: '2024-05-01' })).toEqual({
      kind: 'range',
      from: new Date('2024-05-01'),
      to: new Date('2024-05-10'),
    });
  });

  it('refuses a bound other than from and to', () => {
    expect(refuse(z.object({ price: numbers }), { price: { form: '1' } }).errors).toHaveProperty(['price.form']);
  });

  it('refuses a plain value instead of bounds', () => {
    expect(refuse(z.object({ price: numbers }), { price: '5' }).errors.price).toEqual([
      'Give a range as "from" and/or "to", e.g. [from]=1&[to]=9.',
    ]);
  });
});

describe('oneOrMany', () => {
  const ids = oneOrMany(id, { max: 3 }).schema;

  it('accepts a single value', () => {
    expect(accept(ids, '2')).toEqual({ kind: 'in', values: [2] });
  });

  it('accepts a list and drops duplicates', () => {
    expect(accept(ids, ['2', '3', '2'])).toEqual({ kind: 'in', values: [2, 3] });
  });

  it('reports a bad single value at the filter itself', () => {
    expect(refuse(z.object({ role_id: ids }), { role_id: 'x' }).errors).toEqual({
      role_id: ['An id must be a whole number of 1 or more.'],
    });
  });

  it('reports a bad list entry at its index', () => {
    expect(Object.keys(refuse(z.object({ role_id: ids }), { role_id: ['1', '-1'] }).errors)).toEqual(['role_id.1']);
  });

  it('refuses more values than the maximum', () => {
    expect(refuse(z.object({ role_id: ids }), { role_id: ['1', '2', '3', '4'] }).errors.role_id).toEqual([
      'Give at most 3 values.',
    ]);
  });
});

describe('boolean', () => {
  it.each([
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
    [true, true],
  ])('reads %j as %j', (raw, value) => {
    expect(accept(boolean().schema, raw)).toEqual({ kind: 'boolean', value });
  });

  it('refuses other words with the accepted ones', () => {
    expect(refuse(z.object({ b: boolean().schema }), { b: 'yes' }).errors.b?.[0]).toMatch(/true or false/);
  });
});

describe('textContains', () => {
  it('keeps %, _ and \\ as typed, for the engine to escape', () => {
    expect(accept(textContains().schema, '50%_off\\')).toEqual({ kind: 'contains', value: '50%_off\\' });
  });

  it('keeps text that looks like a boolean as text', () => {
    expect(accept(textContains().schema, '1')).toEqual({ kind: 'contains', value: '1' });
  });

  it('refuses text over the maximum length', () => {
    expect(refuse(z.object({ name: textContains({ max: 3 }).schema }), { name: 'abcd' }).errors.name).toEqual([
      'The text can be at most 3 characters long.',
    ]);
  });

  it('refuses a list of texts', () => {
    expect(refuse(z.object({ name: textContains().schema }), { name: ['a', 'b'] }).errors).toHaveProperty('name');
  });
});

describe('nullTest', () => {
  it('reads null as "the value is missing"', () => {
    expect(accept(nullTest().schema, 'NULL')).toEqual({ kind: 'null', isNull: true });
  });

  it('reads notnull as "the value is set"', () => {
    expect(accept(nullTest().schema, 'notnull')).toEqual({ kind: 'null', isNull: false });
  });

  it('refuses other words', () => {
    expect(refuse(z.object({ f: nullTest().schema }), { f: 'empty' }).errors.f).toEqual(['Use null or notnull.']);
  });
});

describe('tristate', () => {
  it.each([
    ['active', true],
    ['inactive', false],
    ['Active', true],
    ['true', true],
    ['0', false],
    [false, false],
  ])('reads %j as a boolean filter of %j', (raw, value) => {
    expect(accept(tristate().schema, raw)).toEqual({ kind: 'boolean', value });
  });

  it('reads all as no restriction', () => {
    expect(accept(tristate().schema, 'all')).toBeUndefined();
  });

  it('refuses other words with the accepted ones', () => {
    expect(refuse(z.object({ is_active: tristate().schema }), { is_active: 'maybe' }).errors.is_active).toEqual([
      'Use all, active, inactive, true or false.',
    ]);
  });
});

describe('dateRange', () => {
  const dates = dateRange().schema;

  it('makes date-only bounds whole UTC days, inclusive', () => {
    expect(accept(dates, { from: '2024-05-01', to: '2024-05-31' })).toEqual({
      kind: 'range',
      from: '2024-05-01T00:00:00.000Z',
      to: '2024-05-31T23:59:59.999Z',
    });
  });

  it('makes a single date-only day cover that whole day', () => {
    expect(accept(dates, { from: '2024-05-01', to: '2024-05-01' })).toEqual({
      kind: 'range',
      from: '2024-05-01T00:00:00.000Z',
      to: '2024-05-01T23:59:59.999Z',
    });
  });

  it('swaps reversed date-only bounds and still covers both whole days', () => {
    expect(accept(dates, { from: '2024-05-10', to: '2024-05-01' })).toEqual({
      kind: 'range',
      from: '2024-05-01T00:00:00.000Z',
      to: '2024-05-10T23:59:59.999Z',
    });
  });

  it('converts date-times with an offset to UTC instants', () => {
    expect(accept(dates, { from: '2024-05-01T10:00:00+02:00' })).toEqual({
      kind: 'range',
      from: '2024-05-01T08:00:00.000Z',
    });
  });

  it('reads an offset whose + arrived as a space from an unencoded query string', () => {
    expect(accept(dates, { to: '2024-05-01T10:00:00 02:00' })).toEqual({
      kind: 'range',
      to: '2024-05-01T08:00:00.000Z',
    });
  });

  it('keeps a date-time with Z and milliseconds as that instant', () => {
    expect(accept(dates, { to: '2024-05-01T10:00:00.123Z' })).toEqual({
      kind: 'range',
      to: '2024-05-01T10:00:00.123Z',
    });
  });

  it('keeps a later date-time to on the same day as a date-only from unswapped', () => {
    expect(accept(dates, { from: '2024-05-10T08:00:00Z', to: '2024-05-10' })).toEqual({
      kind: 'range',
      from: '2024-05-10T08:00:00.000Z',
      to: '2024-05-10T23:59:59.999Z',
    });
  });

  it.each(['2024-02-30', '2023-02-29', '2024-13-01', 'yesterday', '2024-05-01T25:00:00Z', '2024-05-01T10:00:00'])(
    'refuses %j at its bound',
    (bad) => {
      const { errors } = refuse(z.object({ created_between: dates }), { created_between: { from: bad } });
      expect(errors['created_between.from']?.[0]).toMatch(/^This is not a valid date\. Use YYYY-MM-DD/);
    },
  );

  it('accepts 29 February of a leap year', () => {
    expect(accept(dates, { from: '2024-02-29' })).toEqual({ kind: 'range', from: '2024-02-29T00:00:00.000Z' });
  });
});

describe('trashed', () => {
  it('defaults to without', () => {
    expect(accept(trashed().schema, undefined)).toEqual({ kind: 'trashed', value: 'without' });
  });

  it.each(['with', 'only', 'WITH'])('accepts %j', (mode) => {
    expect(accept(trashed().schema, mode)).toEqual({ kind: 'trashed', value: mode.toLowerCase() });
  });

  it('refuses other words with the accepted ones', () => {
    expect(refuse(z.object({ trashed: trashed().schema }), { trashed: 'all' }).errors.trashed).toEqual([
      'Trashed must be one of: without, with, only.',
    ]);
  });
});

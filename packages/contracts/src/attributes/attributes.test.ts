import { describe, expect, it } from 'vitest';
import { accept, refuse } from '../test-support';
import { AttributeDeleteQuerySchema, AttributeKeySchema } from './attribute-schema';
import { AttributeCreateInputSchema, AttributeUpdateInputSchema, definitionIssues } from './attributes';

const KEY_RULE = 'A key starts with a lower-case letter and holds only lower-case letters, digits and _ (cost_centre).';
const NOT_READABLE = 'This pattern cannot be read (patterns follow RE2: no back-references or look-around).';

/** A create input for a `cost_centre` attribute of `type`, with whatever else is given. */
const create = (type: string, more: Record<string, unknown> = {}) => ({
  key: 'cost_centre',
  label: 'Cost centre',
  type,
  ...more,
});

describe('attribute key', () => {
  it.each(['cost_centre', 'department', 'x', 'level2', 'a_b_c'])('accepts %s', (key) => {
    expect(accept(AttributeKeySchema, key)).toBe(key);
  });

  it.each(['Cost', 'costCentre', '1x', '_x', 'a-b', 'cost centre', 'coût', 'a.b'])('refuses %s', (key) => {
    expect(refuse(AttributeKeySchema, key).errors).toEqual({ '': [KEY_RULE] });
  });

  it('needs a key of at most 64 characters', () => {
    expect(accept(AttributeKeySchema, 'k'.repeat(64))).toBe('k'.repeat(64));
    expect(refuse(AttributeKeySchema, 'k'.repeat(65)).errors).toEqual({
      '': ['A key can be at most 64 characters long.'],
    });
    expect(refuse(AttributeCreateInputSchema, { label: 'Cost centre', type: 'string' }).errors).toEqual({
      key: ['Give the attribute a key.'],
    });
    expect(refuse(AttributeCreateInputSchema, create('string', { key: '' })).errors.key).toContain(
      'Give the attribute a key.',
    );
  });
});

describe('attribute create input', () => {
  it('fills the defaults: optional, not unique, not sensitive, no validators', () => {
    expect(accept(AttributeCreateInputSchema, create('string'))).toEqual({
      key: 'cost_centre',
      label: 'Cost centre',
      type: 'string',
      required: false,
      unique: false,
      validators: {},
      sensitivity: 'none',
    });
  });

  it('keeps what is given, with the label and description trimmed', () => {
    expect(
      accept(
        AttributeCreateInputSchema,
        create('enum', {
          label: '  Department ',
          values: [' Sales ', 'Support'],
          required: true,
          unique: true,
          sensitivity: 'personal',
          description: ' Where they work. ',
        }),
      ),
    ).toEqual({
      key: 'cost_centre',
      label: 'Department',
      type: 'enum',
      values: ['Sales', 'Support'],
      required: true,
      unique: true,
      validators: {},
      sensitivity: 'personal',
      description: 'Where they work.',
    });
  });

  it('refuses an unknown type or sensitivity with the list of choices', () => {
    expect(refuse(AttributeCreateInputSchema, create('text')).errors).toEqual({
      type: ['A type is one of: string, number, boolean, date, email, url, enum, user.'],
    });
    expect(refuse(AttributeCreateInputSchema, create('string', { sensitivity: 'secret' })).errors).toEqual({
      sensitivity: ['A sensitivity is one of: none, personal, sensitive.'],
    });
  });

  it('refuses a blank label, or one too long', () => {
    expect(refuse(AttributeCreateInputSchema, create('string', { label: '   ' })).errors).toEqual({
      label: ['Give the attribute a label.'],
    });
    expect(refuse(AttributeCreateInputSchema, create('string', { label: 'L'.repeat(101) })).errors).toEqual({
      label: ['A label can be at most 100 characters long.'],
    });
  });

  it('refuses a validator it does not know', () => {
    const { errors } = refuse(AttributeCreateInputSchema, create('string', { validators: { format: 'x' } }));
    expect(Object.keys(errors)).toEqual(['validators.format']);
  });

  it('refuses lengths that are not whole numbers from 0 to 255', () => {
    expect(refuse(AttributeCreateInputSchema, create('string', { validators: { max_length: 256 } })).errors).toEqual({
      'validators.max_length': ['A length is at most 255.'],
    });
    expect(refuse(AttributeCreateInputSchema, create('string', { validators: { min_length: 1.5 } })).errors).toEqual({
      'validators.min_length': ['A length is a whole number.'],
    });
    expect(refuse(AttributeCreateInputSchema, create('string', { validators: { max_length: 0 } })).errors).toEqual({
      'validators.max_length': ['A maximum length is at least 1.'],
    });
  });

  it('refuses a date bound that is not a calendar date', () => {
    expect(refuse(AttributeCreateInputSchema, create('date', { validators: { min: '2026-02-30' } })).errors).toEqual({
      'validators.min': ['Give a date as YYYY-MM-DD.'],
    });
  });

  it('reports the rules between fields at their paths', () => {
    expect(refuse(AttributeCreateInputSchema, create('enum')).errors).toEqual({
      values: ['List the values people can pick.'],
    });
    expect(
      refuse(AttributeCreateInputSchema, create('string', { validators: { pattern: String.raw`(\w)\1` } })).errors,
    ).toEqual({ 'validators.pattern': [NOT_READABLE] });
    expect(refuse(AttributeCreateInputSchema, create('boolean', { unique: true })).errors).toEqual({
      unique: ['A yes/no or a user reference cannot be unique.'],
    });
  });

  it('compares enumeration values after trimming them', () => {
    expect(refuse(AttributeCreateInputSchema, create('enum', { values: ['Sales', ' sales '] })).errors).toEqual({
      values: ['Each value can be listed once (letter case aside).'],
    });
  });

  it('refuses an empty enumeration value', () => {
    expect(refuse(AttributeCreateInputSchema, create('enum', { values: ['Sales', '  '] })).errors).toEqual({
      'values.1': ['A value cannot be empty.'],
    });
  });
});

describe('attribute update input', () => {
  it('has no key, answers for real and refuses a breaking change unless told otherwise', () => {
    expect(accept(AttributeUpdateInputSchema, { label: 'Cost centre', type: 'string' })).toEqual({
      label: 'Cost centre',
      type: 'string',
      required: false,
      unique: false,
      validators: {},
      sensitivity: 'none',
      dryRun: false,
      onConflict: 'refuse',
    });
    expect(
      accept(AttributeUpdateInputSchema, { label: 'Cost centre', type: 'string', dryRun: true, onConflict: 'clear' }),
    ).toMatchObject({ dryRun: true, onConflict: 'clear' });
  });

  it('refuses an unknown onConflict', () => {
    const { errors } = refuse(AttributeUpdateInputSchema, { label: 'Cost centre', type: 'string', onConflict: 'skip' });
    expect(Object.keys(errors)).toEqual(['onConflict']);
  });

  it('holds to the same rules between fields as creation', () => {
    expect(refuse(AttributeUpdateInputSchema, { label: 'Manager', type: 'user', unique: true }).errors).toEqual({
      unique: ['A yes/no or a user reference cannot be unique.'],
    });
    expect(
      refuse(AttributeUpdateInputSchema, { label: 'Level', type: 'number', validators: { min: 5, max: 1 } }).errors,
    ).toEqual({ 'validators.min': ['The lowest value is above the highest.'] });
  });
});

describe('attribute delete query', () => {
  it.each([
    [undefined, false],
    ['true', true],
    ['1', true],
    ['TRUE', true],
    ['false', false],
    ['0', false],
    [true, true],
  ])('reads dryRun=%s as %s', (raw, value) => {
    expect(accept(AttributeDeleteQuerySchema, raw === undefined ? {} : { dryRun: raw }).dryRun).toBe(value);
  });

  it('refuses dryRun that is not a boolean word', () => {
    expect(refuse(AttributeDeleteQuerySchema, { dryRun: 'maybe' }).errors).toEqual({
      dryRun: ['dryRun must be true or false (1 or 0 also work).'],
    });
  });
});

describe('definitionIssues', () => {
  const draft = (type: Parameters<typeof definitionIssues>[0]['type'], more = {}) => ({
    type,
    unique: false,
    validators: {},
    ...more,
  });
  /** An enumeration's values, so that only the rule under test is broken. */
  const enumValues = (type: string) => (type === 'enum' ? { values: ['A'] } : {});

  it('finds nothing wrong with a plain definition of each type', () => {
    for (const type of ['string', 'number', 'boolean', 'date', 'email', 'url', 'user'] as const) {
      expect(definitionIssues(draft(type))).toEqual([]);
    }
    expect(definitionIssues(draft('enum', { values: ['Sales'] }))).toEqual([]);
  });

  it('needs an enumeration to list its values, each once whatever the letter case', () => {
    expect(definitionIssues(draft('enum'))).toEqual([{ path: 'values', message: 'List the values people can pick.' }]);
    expect(definitionIssues(draft('enum', { values: [] }))).toEqual([
      { path: 'values', message: 'List the values people can pick.' },
    ]);
    expect(definitionIssues(draft('enum', { values: ['Sales', 'SALES'] }))).toEqual([
      { path: 'values', message: 'Each value can be listed once (letter case aside).' },
    ]);
  });

  it.each(['string', 'number', 'date', 'user'] as const)(
    'refuses values on a %s attribute: only an enumeration lists them',
    (type) => {
      expect(definitionIssues(draft(type, { values: ['a'] }))).toEqual([
        { path: 'values', message: 'Only an enumeration lists values.' },
      ]);
    },
  );

  it.each(['string', 'email', 'url'] as const)('lets a %s attribute have lengths and a pattern', (type) => {
    expect(definitionIssues(draft(type, { validators: { min_length: 2, max_length: 10, pattern: '[a-z]+' } }))).toEqual(
      [],
    );
  });

  it.each(['number', 'boolean', 'date', 'enum', 'user'] as const)(
    'refuses lengths and a pattern on a %s attribute, each at its path',
    (type) => {
      const issues = definitionIssues(
        draft(type, { ...enumValues(type), validators: { min_length: 1, max_length: 5, pattern: '.*' } }),
      );
      const message = 'Length and pattern apply to text attributes only.';
      expect(issues).toEqual([
        { path: 'validators.min_length', message },
        { path: 'validators.max_length', message },
        { path: 'validators.pattern', message },
      ]);
    },
  );

  it.each([String.raw`(a)\1`, String.raw`(?<n>a)\k<n>`, '(?=a)a', '(?!a)b', '(?<=a)b', '['])(
    'refuses the pattern %s, which RE2 cannot read',
    (pattern) => {
      expect(definitionIssues(draft('string', { validators: { pattern } }))).toEqual([
        { path: 'validators.pattern', message: NOT_READABLE },
      ]);
    },
  );

  it('accepts a pattern that would stall a backtracking engine: RE2 runs it in linear time', () => {
    expect(definitionIssues(draft('string', { validators: { pattern: '(a+)+$' } }))).toEqual([]);
  });

  it('refuses a shortest length above the longest, and accepts them equal', () => {
    expect(definitionIssues(draft('string', { validators: { min_length: 5, max_length: 4 } }))).toEqual([
      { path: 'validators.min_length', message: 'The shortest length is above the longest.' },
    ]);
    expect(definitionIssues(draft('string', { validators: { min_length: 4, max_length: 4 } }))).toEqual([]);
  });

  it('lets numbers have number bounds and dates date bounds', () => {
    expect(definitionIssues(draft('number', { validators: { min: -1.5, max: 10 } }))).toEqual([]);
    expect(definitionIssues(draft('date', { validators: { min: '2026-01-01', max: '2026-12-31' } }))).toEqual([]);
  });

  it.each(['string', 'boolean', 'email', 'url', 'enum', 'user'] as const)(
    'refuses bounds on a %s attribute',
    (type) => {
      const message = 'Bounds apply to number and date attributes only.';
      expect(definitionIssues(draft(type, { ...enumValues(type), validators: { min: 1, max: 2 } }))).toEqual([
        { path: 'validators.min', message },
        { path: 'validators.max', message },
      ]);
    },
  );

  it('refuses a bound of the wrong kind: a date for a number, a number for a date', () => {
    expect(definitionIssues(draft('number', { validators: { min: '2026-01-01' } }))).toEqual([
      { path: 'validators.min', message: 'Give a number.' },
    ]);
    expect(definitionIssues(draft('date', { validators: { max: 20260101 } }))).toEqual([
      { path: 'validators.max', message: 'Give a date as YYYY-MM-DD.' },
    ]);
  });

  it('refuses a lowest value above the highest, for numbers and dates, and accepts them equal', () => {
    const message = 'The lowest value is above the highest.';
    expect(definitionIssues(draft('number', { validators: { min: 10, max: 9 } }))).toEqual([
      { path: 'validators.min', message },
    ]);
    expect(definitionIssues(draft('date', { validators: { min: '2026-12-31', max: '2026-01-01' } }))).toEqual([
      { path: 'validators.min', message },
    ]);
    expect(definitionIssues(draft('number', { validators: { min: 3, max: 3 } }))).toEqual([]);
    expect(definitionIssues(draft('date', { validators: { min: '2026-03-14', max: '2026-03-14' } }))).toEqual([]);
  });

  it('compares number bounds as numbers (9 is below 10)', () => {
    expect(definitionIssues(draft('number', { validators: { min: 9, max: 10 } }))).toEqual([]);
  });

  it.each(['boolean', 'user'] as const)('refuses a unique %s attribute', (type) => {
    expect(definitionIssues(draft(type, { unique: true }))).toEqual([
      { path: 'unique', message: 'A yes/no or a user reference cannot be unique.' },
    ]);
  });

  it.each(['string', 'number', 'date', 'email', 'url'] as const)('lets a %s attribute be unique', (type) => {
    expect(definitionIssues(draft(type, { unique: true }))).toEqual([]);
  });
});

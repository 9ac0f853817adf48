import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compilePattern } from './attribute-pattern';
import { type AttributeRules, checkAttributeValue, isCalendarDate } from './attribute-values';
import type { AttributeType, AttributeValidators } from './attribute-schema';

/** The rules of an attribute labelled "Cost centre": optional, no validators, unless told. */
function rules(type: AttributeType, more: Partial<AttributeRules> = {}): AttributeRules {
  return { label: 'Cost centre', type, values: null, required: false, validators: {}, ...more };
}

const withValidators = (type: AttributeType, validators: AttributeValidators) => rules(type, { validators });

const ok = (value: unknown) => ({ ok: true, value });
const no = (message: string) => ({ ok: false, message });

describe('a value of each type', () => {
  it.each<[AttributeType, unknown, unknown, string]>([
    ['string', 'CC-104', 'CC-104', 'Cost centre must be text.'],
    ['number', 42.5, 42.5, 'Cost centre must be a number.'],
    ['boolean', false, false, 'Cost centre must be true or false.'],
    ['date', '2026-03-14', '2026-03-14', 'Cost centre must be a date, as YYYY-MM-DD.'],
    ['email', 'ada@example.com', 'ada@example.com', 'Cost centre must be an e-mail address, such as ada@example.com.'],
    [
      'url',
      'https://example.com/cc',
      'https://example.com/cc',
      'Cost centre must be a web address starting with https:// or http://.',
    ],
    ['user', 7, 7, 'Cost centre must name a user by id.'],
  ])(
    'a %s attribute keeps a good value and refuses a bad one with a sentence naming its label',
    (type, good, stored, message) => {
      expect(checkAttributeValue(rules(type), good)).toEqual(ok(stored));
      const bad: Record<string, unknown> = {
        string: 12,
        number: 'twelve',
        boolean: 'yes',
        date: '14/03/2026',
        email: 'ada.example.com',
        url: 'example.com/cc',
        user: 'ada',
      };
      expect(checkAttributeValue(rules(type), bad[type])).toEqual(no(message));
    },
  );

  it('an enumeration keeps a declared value and refuses another, listing the choices', () => {
    const department = rules('enum', { label: 'Department', values: ['Sales', 'Support'] });
    expect(checkAttributeValue(department, 'Sales')).toEqual(ok('Sales'));
    expect(checkAttributeValue(department, 'Legal')).toEqual(no('Department must be one of: Sales, Support.'));
    expect(checkAttributeValue(department, 1)).toEqual(no('Department must be one of: Sales, Support.'));
  });

  it('a number must be finite: NaN and Infinity are refused', () => {
    expect(checkAttributeValue(rules('number'), Number.NaN)).toEqual(no('Cost centre must be a number.'));
    expect(checkAttributeValue(rules('number'), Number.POSITIVE_INFINITY)).toEqual(no('Cost centre must be a number.'));
    expect(checkAttributeValue(rules('number'), '42')).toEqual(no('Cost centre must be a number.'));
  });

  it('a yes/no is a boolean, never a word for one', () => {
    expect(checkAttributeValue(rules('boolean'), true)).toEqual(ok(true));
    expect(checkAttributeValue(rules('boolean'), 'true')).toEqual(no('Cost centre must be true or false.'));
    expect(checkAttributeValue(rules('boolean'), 1)).toEqual(no('Cost centre must be true or false.'));
  });

  it.each([0, -3, 1.5, Number.MAX_SAFE_INTEGER + 1, '7'])(
    'a user reference refuses %s: an id is a positive whole number',
    (raw) => {
      expect(checkAttributeValue(rules('user'), raw)).toEqual(no('Cost centre must name a user by id.'));
    },
  );
});

describe('clearing a value', () => {
  it.each(['string', 'number', 'boolean', 'date', 'email', 'url', 'enum', 'user'] as const)(
    'a %s attribute is cleared by null, nothing, an empty or a blank text, and such a clear is refused when required',
    (type) => {
      for (const raw of [null, undefined, '', '   ', '\t\n ']) {
        expect(checkAttributeValue(rules(type, { values: ['A'] }), raw)).toEqual(ok(null));
        expect(checkAttributeValue(rules(type, { values: ['A'], required: true }), raw)).toEqual(
          no('Cost centre is required.'),
        );
      }
    },
  );

  it('false and 0 are values, not a clear', () => {
    expect(checkAttributeValue(rules('boolean', { required: true }), false)).toEqual(ok(false));
    expect(checkAttributeValue(rules('number', { required: true }), 0)).toEqual(ok(0));
  });
});

describe('text values', () => {
  it('are trimmed before they are judged and stored', () => {
    expect(checkAttributeValue(rules('string'), '  CC-104 \n')).toEqual(ok('CC-104'));
    expect(checkAttributeValue(rules('url'), ' https://example.com ')).toEqual(ok('https://example.com'));
    expect(checkAttributeValue(rules('date'), ' 2026-03-14 ')).toEqual(ok('2026-03-14'));
    expect(checkAttributeValue(withValidators('string', { max_length: 3 }), '  abc  ')).toEqual(ok('abc'));
  });

  it('refuse a control or direction character, naming the label', () => {
    const message = 'Cost centre contains an invisible or control character. Type it again without it.';
    expect(checkAttributeValue(rules('string'), 'Mallory\u202etxt.exe')).toEqual(no(message));
    expect(checkAttributeValue(rules('string'), 'a\u0000b')).toEqual(no(message));
    expect(checkAttributeValue(rules('url'), 'https://exa\u200bmple.com')).toEqual(no(message));
  });

  it('keep the joiner that emoji sequences and some names need', () => {
    expect(checkAttributeValue(rules('string'), '👨\u200d👩\u200d👧')).toEqual(ok('👨\u200d👩\u200d👧'));
  });

  it('are at most 255 characters, counted in code points (an emoji counts once)', () => {
    expect(checkAttributeValue(rules('string'), 'x'.repeat(255))).toEqual(ok('x'.repeat(255)));
    expect(checkAttributeValue(rules('string'), '😀'.repeat(255))).toEqual(ok('😀'.repeat(255)));
    expect(checkAttributeValue(rules('string'), 'x'.repeat(256))).toEqual(
      no('Cost centre can be at most 255 characters long.'),
    );
    expect(checkAttributeValue(rules('string'), '😀'.repeat(256))).toEqual(
      no('Cost centre can be at most 255 characters long.'),
    );
  });

  it('hold to min_length and max_length, counted in code points', () => {
    const between = withValidators('string', { min_length: 2, max_length: 3 });
    expect(checkAttributeValue(between, 'a')).toEqual(no('Cost centre must be at least 2 characters long.'));
    expect(checkAttributeValue(between, '😀')).toEqual(no('Cost centre must be at least 2 characters long.'));
    expect(checkAttributeValue(between, '😀😀')).toEqual(ok('😀😀'));
    expect(checkAttributeValue(between, '😀😀😀')).toEqual(ok('😀😀😀'));
    expect(checkAttributeValue(between, 'abcd')).toEqual(no('Cost centre can be at most 3 characters long.'));
    expect(checkAttributeValue(between, '😀😀😀😀')).toEqual(no('Cost centre can be at most 3 characters long.'));
  });

  it('match a pattern as a whole value, not somewhere inside it', () => {
    const code = withValidators('string', { pattern: String.raw`[A-Z]{2}-\d+` });
    expect(checkAttributeValue(code, 'AB-12')).toEqual(ok('AB-12'));
    for (const text of ['AB-12x', 'xAB-12', 'ab-12', 'AB-']) {
      expect(checkAttributeValue(code, text)).toEqual(no('Cost centre does not have the expected form.'));
    }
  });

  it('match a pattern after trimming', () => {
    const code = withValidators('string', { pattern: String.raw`[A-Z]{2}-\d+` });
    expect(checkAttributeValue(code, '  AB-12 ')).toEqual(ok('AB-12'));
  });

  it('are refused, not let through, when the pattern cannot be read', () => {
    const broken = withValidators('string', { pattern: String.raw`(a)\1` });
    expect(checkAttributeValue(broken, 'aa')).toEqual(no('Cost centre does not have the expected form.'));
  });

  it('answer a catastrophic pattern at once: RE2 runs in linear time', () => {
    const evil = withValidators('string', { pattern: '(a+)+$' });
    const text = `${'a'.repeat(50_000)}b`;
    const started = performance.now();
    // Longer than 255 characters: the pattern is what is timed, so the cap must not answer first.
    expect(compilePattern('(a+)+$')?.matches(text)).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
    expect(checkAttributeValue(evil, `${'a'.repeat(254)}b`)).toEqual(
      no('Cost centre does not have the expected form.'),
    );
    expect(checkAttributeValue(evil, 'a'.repeat(255))).toEqual(ok('a'.repeat(255)));
  });
});

describe('e-mail values', () => {
  it('are stored in one spelling: trimmed, NFKC, lower case', () => {
    expect(checkAttributeValue(rules('email'), ' Ada.Lovelace@Example.COM ')).toEqual(ok('ada.lovelace@example.com'));
    // Full-width letters and at sign fold to ASCII.
    expect(checkAttributeValue(rules('email'), 'ＡＤＡ＠example.com')).toEqual(ok('ada@example.com'));
  });

  it('refuse invisible characters, never strip them', () => {
    expect(checkAttributeValue(rules('email'), 'ada\u200b@example.com')).toEqual(
      no('Cost centre contains an invisible or control character. Type it again without it.'),
    );
    // The joiner and variation selectors are kept in free text but never belong in an address.
    for (const text of ['ada\u200d@example.com', 'ada\u200c@example.com', 'ada\ufe0f@example.com']) {
      expect(checkAttributeValue(rules('email'), text)).toEqual(
        no('Cost centre must be an e-mail address, such as ada@example.com.'),
      );
    }
  });

  it('refuse an address no mail server can be found for', () => {
    for (const text of ['ada@', '@example.com', 'ada@example', 'ada@a-.example.com', 'a..b@example.com']) {
      expect(checkAttributeValue(rules('email'), text)).toEqual(
        no('Cost centre must be an e-mail address, such as ada@example.com.'),
      );
    }
  });

  it('hold to the length validators in their stored spelling', () => {
    expect(checkAttributeValue(withValidators('email', { max_length: 15 }), 'ADA@EXAMPLE.COM')).toEqual(
      ok('ada@example.com'),
    );
    expect(checkAttributeValue(withValidators('email', { max_length: 14 }), 'ada@example.com')).toEqual(
      no('Cost centre can be at most 14 characters long.'),
    );
  });
});

describe('web address values', () => {
  it.each(['http://example.com', 'https://example.com/a?b=c#d', 'HTTPS://EXAMPLE.COM'])('accept %s', (text) => {
    expect(checkAttributeValue(rules('url'), text)).toEqual(ok(text));
  });

  it.each([
    'javascript:alert(1)',
    'ftp://example.com',
    'file:///etc/passwd',
    'mailto:ada@example.com',
    'https://',
    'example.com',
    '//example.com',
    'http:example.com',
    'https:/example.com',
  ])('refuse %s: a web address starts with https:// or http://', (text) => {
    expect(checkAttributeValue(rules('url'), text)).toEqual(
      no('Cost centre must be a web address starting with https:// or http://.'),
    );
  });
});

describe('enumeration values', () => {
  const department = rules('enum', { label: 'Department', values: ['Sales', 'R&D'] });

  it('match whatever their letter case and are stored as declared', () => {
    expect(checkAttributeValue(department, 'sales')).toEqual(ok('Sales'));
    expect(checkAttributeValue(department, ' SALES ')).toEqual(ok('Sales'));
    expect(checkAttributeValue(department, 'r&d')).toEqual(ok('R&D'));
  });

  it('do not match a prefix or a near spelling', () => {
    expect(checkAttributeValue(department, 'Sale')).toEqual(no('Department must be one of: Sales, R&D.'));
    expect(checkAttributeValue(department, 'Sales team')).toEqual(no('Department must be one of: Sales, R&D.'));
  });
});

describe('date values', () => {
  it.each(['2026-02-30', '2026-02-29', '2026-13-01', '2026-04-31', '2026-00-10', '2026-1-5', '2026-03-14T00:00:00Z'])(
    'refuse %s: not a calendar date written YYYY-MM-DD',
    (text) => {
      expect(checkAttributeValue(rules('date'), text)).toEqual(no('Cost centre must be a date, as YYYY-MM-DD.'));
    },
  );

  it('accept the 29th of February in a leap year', () => {
    expect(checkAttributeValue(rules('date'), '2024-02-29')).toEqual(ok('2024-02-29'));
  });

  it('hold to min and max, both included', () => {
    const term = withValidators('date', { min: '2026-01-01', max: '2026-12-31' });
    expect(checkAttributeValue(term, '2026-01-01')).toEqual(ok('2026-01-01'));
    expect(checkAttributeValue(term, '2026-12-31')).toEqual(ok('2026-12-31'));
    expect(checkAttributeValue(term, '2025-12-31')).toEqual(no('Cost centre must be 2026-01-01 or more.'));
    expect(checkAttributeValue(term, '2027-01-01')).toEqual(no('Cost centre must be 2026-12-31 or less.'));
  });
});

describe('number values', () => {
  it('hold to min and max, both included', () => {
    const score = withValidators('number', { min: 0, max: 10 });
    expect(checkAttributeValue(score, 0)).toEqual(ok(0));
    expect(checkAttributeValue(score, 10)).toEqual(ok(10));
    expect(checkAttributeValue(score, 9.5)).toEqual(ok(9.5));
    expect(checkAttributeValue(score, -0.5)).toEqual(no('Cost centre must be 0 or more.'));
    expect(checkAttributeValue(score, 10.01)).toEqual(no('Cost centre must be 10 or less.'));
  });

  it('compare as numbers, not as text (9 is below 10)', () => {
    expect(checkAttributeValue(withValidators('number', { max: 10 }), 9)).toEqual(ok(9));
    expect(checkAttributeValue(withValidators('number', { min: 9 }), 10)).toEqual(ok(10));
  });
});

describe('isCalendarDate', () => {
  it.each([
    ['2026-03-14', true],
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['2026-02-30', false],
    ['2026-06-31', false],
    ['2026-12-32', false],
    ['0099-12-31', true],
    ['0000-01-01', true],
    ['9999-12-31', true],
    ['26-03-14', false],
    ['2026-03-14 ', false],
    ['', false],
  ])('reads %s as %s', (text, expected) => {
    expect(isCalendarDate(text)).toBe(expected);
  });

  it('agrees with the YYYY-MM-DD a date bound accepts, for every year and day', () => {
    const bound = z.iso.date();
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          expect(isCalendarDate(text)).toBe(bound.safeParse(text).success);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasInvisibleCharacter } from './email';
import { auditListQuery } from './audit/audit';
import { PLAIN_TEXT_PATTERN, plainText, refusedCharacter, refusedTextMessage } from './text';
import { TokenCreateInputSchema } from './tokens/tokens';
import { UserCreateInputSchema, UserUpdateInputSchema } from './users/users.forms';
import { usersListQuery } from './users/users.query';
import { webhookDeliveriesListQuery, WebhookInputSchema } from './webhooks/webhooks';

const REFUSED: Array<[string, string]> = [
  ['NUL', '\u0000'],
  ['a tab', '\t'],
  ['a line feed', '\n'],
  ['a carriage return', '\r'],
  ['escape', '\u001b'],
  ['DEL', '\u007f'],
  ['a C1 control (NEL)', '\u0085'],
  ['a C1 control (CSI)', '\u009b'],
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', '\udfff'],
  ['a high surrogate before a letter', '\ud83dx'],
  ['a left-to-right embedding', '\u202a'],
  ['a right-to-left override', '\u202e'],
  ['a pop directional formatting', '\u202c'],
  ['a left-to-right isolate', '\u2066'],
  ['a pop directional isolate', '\u2069'],
  ['a left-to-right mark', '\u200e'],
  ['a right-to-left mark', '\u200f'],
  ['an Arabic letter mark', '\u061c'],
  ['a zero-width space', '\u200b'],
  ['a word joiner', '\u2060'],
  ['a byte-order mark', '\ufeff'],
  ['a soft hyphen', '\u00ad'],
  ['a tag character', '\u{E0041}'],
  ['a line separator', '\u2028'],
  ['a paragraph separator', '\u2029'],
  ['a combining grapheme joiner', '\u034f'],
  ['a Hangul filler', '\u3164'],
];

const ACCEPTED = [
  "Zoë O'Brien",
  'Łukasz Żółć',
  'José Ångström',
  '李小龍',
  '山田 太郎',
  '김민준',
  'Ἀλέξανδρος',
  'Ann 😀',
  'thumbs 👍🏽',
  'family 👨\u200d👩\u200d👧',
  'love ❤\ufe0f',
  'flag 🇫🇷',
  // Persian: "Alireza" is written with a zero-width non-joiner.
  'علی\u200cرضا',
  'שלום',
  'a\u00a0b',
  '50% off_\\',
];

const name = plainText('name');

describe('the text rule', () => {
  it.each(REFUSED)('refuses %s, anywhere in the text, naming the field and the character', (_what, c) => {
    for (const text of [`${c}Ann`, `An${c}n`, `Ann${c}`]) {
      expect(refusedCharacter(text)).toBe(String.fromCodePoint(c.codePointAt(0) as number));
      expect(PLAIN_TEXT_PATTERN.test(text)).toBe(false);
      // An e-mail refuses whatever free text refuses.
      expect(hasInvisibleCharacter(text)).toBe(true);
    }
    // Inside the text: at its edges, what trimming removes (tabs, line breaks, the BOM) is gone first.
    const result = name.safeParse(`An${c}n`);
    expect(result.success).toBe(false);
    const code = `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
    expect(result.error?.issues[0]?.message).toBe(
      `The name contains an invisible or control character (${code}). Type it again without it.`,
    );
  });

  it.each(ACCEPTED)('accepts ordinary text: %s', (text) => {
    expect(refusedCharacter(text)).toBeUndefined();
    expect(PLAIN_TEXT_PATTERN.test(text)).toBe(true);
    expect(name.parse(text)).toBe(text);
  });

  it('trims surrounding spaces, tabs and line breaks before judging', () => {
    expect(name.parse('\t Ann \r\n')).toBe('Ann');
  });

  it('names the first refused character', () => {
    expect(refusedTextMessage('description', 'a\u200bb\u202e')).toContain('(U+200B)');
  });
});

describe('every free-text field of the contracts', () => {
  const password = 'long-enough-1';
  const account = { email: 'ann@example.com', password, password_confirmation: password };
  const fields: Array<[string, (text: string) => z.ZodSafeParseResult<unknown>, string]> = [
    ['a new user’s name', (t) => UserCreateInputSchema.safeParse({ ...account, name: t }), 'name'],
    [
      'an updated user’s name',
      (t) => UserUpdateInputSchema.safeParse({ name: t, email: 'ann@example.com', version: 'v' }),
      'name',
    ],
    ['a token’s name', (t) => TokenCreateInputSchema.safeParse({ name: t }), 'name'],
    [
      'a webhook’s description',
      (t) =>
        WebhookInputSchema.safeParse({ url: 'https://hooks.example.com', description: t, events: ['user.created'] }),
      'description',
    ],
    [
      'a webhook’s URL',
      (t) => WebhookInputSchema.safeParse({ url: `https://hooks.example.com/${t}`, events: ['user.created'] }),
      'url',
    ],
    ['the users search', (t) => usersListQuery.input.safeParse({ q: t }), 'q'],
    ['the users name filter', (t) => usersListQuery.input.safeParse({ filters: { name: t } }), 'filters.name'],
    ['the users e-mail filter', (t) => usersListQuery.input.safeParse({ filters: { email: t } }), 'filters.email'],
    ['the audit search', (t) => auditListQuery.input.safeParse({ q: t }), 'q'],
    ['the audit IP filter', (t) => auditListQuery.input.safeParse({ filters: { ip: t } }), 'filters.ip'],
    ['the delivery log search', (t) => webhookDeliveriesListQuery.input.safeParse({ q: t }), 'q'],
  ];

  it.each(fields)('%s refuses a hidden character with an issue at its path', (_what, parse, path) => {
    for (const c of ['\u0000', '\ud800', '\u202e', '\u200b', '\u0085']) {
      const result = parse(`a${c}b`);
      expect(result.success).toBe(false);
      const issue = result.error?.issues.find((i) => i.path.join('.') === path);
      expect(issue?.message).toMatch(/invisible or control character \(U\+[0-9A-F]{4}\)/);
    }
  });

  it.each(fields)('%s accepts accents, CJK, apostrophes and emoji pairs', (_what, parse, path) => {
    const result = parse('Zoë-李-O’Neil-😀');
    const issues = result.error?.issues.filter((i) => i.path.join('.') === path) ?? [];
    expect(issues).toEqual([]);
  });
});

describe('passwords', () => {
  const input = (password: string) => ({
    name: 'Ann',
    email: 'ann@example.com',
    password,
    password_confirmation: password,
  });

  it('accept any character that can be encoded: spaces, tabs, direction marks, emoji', () => {
    expect(UserCreateInputSchema.safeParse(input(' pass\tword\u202e😀 ')).success).toBe(true);
  });

  it.each([
    ['NUL', 'long-enough\u0000'],
    ['half a surrogate pair', 'long-enough\ud800'],
  ])('refuse %s: it cannot be hashed as typed', (_what, password) => {
    const result = UserCreateInputSchema.safeParse(input(password));
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['password']);
  });
});

describe('the rule in JSON Schema', () => {
  // The OpenAPI document is made from these schemas: the rule shows as the field's pattern
  // (ajv reads it with the u flag: apps/api/test/unit/text-pattern.test.ts).
  it('appears as the pattern of each free-text field', () => {
    const patternOf = (schema: z.ZodType, field: string) =>
      (z.toJSONSchema(schema, { io: 'input' }).properties?.[field] as { pattern?: string } | undefined)?.pattern;
    expect(patternOf(TokenCreateInputSchema, 'name')).toBe(PLAIN_TEXT_PATTERN.source);
    expect(patternOf(WebhookInputSchema, 'description')).toBe(PLAIN_TEXT_PATTERN.source);
    expect(patternOf(UserCreateInputSchema, 'name')).toBe(PLAIN_TEXT_PATTERN.source);
  });

  it('needs no more than the u flag: the pattern alone, recompiled, judges as the contracts do', () => {
    const recompiled = new RegExp(PLAIN_TEXT_PATTERN.source, 'u');
    for (const [, c] of REFUSED) expect(recompiled.test(`a${c}b`)).toBe(false);
    for (const text of ACCEPTED) expect(recompiled.test(text)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { portablePattern } from './portable-pattern';
import { ENCODABLE_TEXT_PATTERN, PLAIN_TEXT_PATTERN } from './text';
import { WEBHOOK_URL_PATTERN } from './webhooks/webhook-url';

const ALL_CODE_POINTS = Array.from({ length: 0x110000 }, (_, cp) => String.fromCodePoint(cp));

/**
 * Each pattern of the OpenAPI document with a `\p{…}` or `\u{…}` in it, and the texts around one
 * character that exercise each of its classes (the character stands for `X`).
 */
const CASES: Array<[string, string, string[]]> = [
  ['the text rule', PLAIN_TEXT_PATTERN.source, ['X', 'aXb', 'X\u200d']],
  ['the password rule', ENCODABLE_TEXT_PATTERN.source, ['X', 'aXb']],
  ["an e-mail address's invisible characters", String.raw`[\u200C\u200D]|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]`, ['X']],
  [
    'a webhook URL',
    WEBHOOK_URL_PATTERN,
    ['https://hooks.example.com/X', 'https://hooks.example.com/?X', 'https://hX.example/'],
  ],
];

/** Texts of several characters: pairs, lone halves of pairs, joiners, and their neighbours. */
const SEQUENCES = [
  '',
  'Zoë',
  '😀',
  'a\ud83d',
  '\ude00a',
  '\ud83d\ud83d\ude00',
  '\ude00\ud83d',
  '👨\u200d👩\u200d👧',
  '\u202eabc',
  'https://bücher.example/ü?😀',
  'https://hooks.example.com/\udb80\udc00',
];

describe.each(CASES)('%s, written for Python', (_name, source, contexts) => {
  const original = new RegExp(source, 'u');
  const portable = portablePattern(source);
  const rewritten = new RegExp(portable, 'u');

  it('has nothing Python cannot read: no \\p{…}, no \\u{…}', () => {
    expect(portable).not.toMatch(/\\[pP]\{|\\u\{/);
  });

  it.each(contexts)('accepts and refuses every code point exactly as the original, in %s', (context) => {
    const differ = ALL_CODE_POINTS.filter((c) => {
      const text = context.replace('X', c);
      return original.test(text) !== rewritten.test(text);
    });
    expect(differ.map((c) => c.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it('judges texts of several characters as the original does', () => {
    for (const text of SEQUENCES) expect(rewritten.test(text), JSON.stringify(text)).toBe(original.test(text));
  });
});

describe('the rewriting', () => {
  it('writes the text rule as the ranges it refuses', () => {
    expect(portablePattern(PLAIN_TEXT_PATTERN.source)).toMatch(
      /^\^\(\?:\[\^\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u034F.*\\uD800-\\uDFFF.*\]\|\[\\u200C\\u200D\]\)\*\$$/,
    );
  });

  it.each([
    [String.raw`^\d{4}$`, '^[0-9]{4}$'],
    [String.raw`^[\w.-]+$`, String.raw`^[\u002D-\u002E0-9A-Z\u005Fa-z]+$`],
    [String.raw`\S`, String.raw`[^\u0009-\u000D\u0020\u00A0\u1680\u2000-\u200A\u2028-\u2029\u202F\u205F\u3000\uFEFF]`],
    ['^a.b$', String.raw`^a[^\u000A\u000D\u2028-\u2029]b$`],
    [String.raw`^\uD83D\uDE00$`, '^[😀]$'],
    [String.raw`^\u{1F600}$`, '^[😀]$'],
  ])('reads %s as ECMAScript does: %s', (source, expected) => {
    expect(portablePattern(source)).toBe(expected);
  });

  it.each([
    '^(?:[Aa][Ss][Cc]|[Dd][Ee][Ss][Cc])$',
    '^[A-Za-z0-9_-]{1,64}$',
    String.raw`^\+?(?=[0-9]{1,20}(?:\.|$))0*[1-9][0-9]{0,14}$`,
    String.raw`[\u200C\u200D]|[\uFE00-\uFE0F]`,
  ])('keeps %s, which both read alike, as written', (source) => {
    expect(portablePattern(source)).toBe(source);
  });

  it('never lets a low surrogate follow a high one as escapes: the u flag would read them as one', () => {
    // Written with \u{…}, which never pairs: every high surrogate, and every low one but U+DC00.
    const source = String.raw`^[\u{D800}-\u{DBFF}\u{DC01}-\u{DFFF}]$`;
    expect(new RegExp(source, 'u').test('\udc00')).toBe(false);
    const portable = portablePattern(source);
    expect(portable).not.toMatch(/\\uD[89AB][0-9A-F]{2}\\uD[C-F]/);
    const rewritten = new RegExp(portable, 'u');
    expect(rewritten.test('\ud800')).toBe(true);
    expect(rewritten.test('\udc00')).toBe(false);
    expect(rewritten.test('\udc01')).toBe(true);
  });
});

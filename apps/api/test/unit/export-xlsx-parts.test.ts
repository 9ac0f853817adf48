import { describe, expect, it } from 'vitest';
import { columnLetters, dateSerial, inlineText, xmlText } from '../../src/export/xlsx-parts.js';

describe("the workbook writer's XML text", () => {
  it('names columns as spreadsheets do', () => {
    expect([0, 5, 25, 26, 27, 51, 52, 701, 702].map(columnLetters)).toEqual([
      'A',
      'F',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });

  it('escapes markup, keeps a carriage return and drops what XML 1.0 cannot hold', () => {
    expect(xmlText('a<b>&"c"')).toBe('a&lt;b&gt;&amp;&quot;c&quot;');
    expect(xmlText('one\r\ntwo\tthree')).toBe('one&#13;\ntwo\tthree');
    expect(xmlText('bell\u0007 nul\u0000 \uFFFF end')).toBe('bell nul  end');
    // A lone surrogate is dropped; a pair (an emoji) is kept.
    expect(xmlText('x\uD800y \uD83D\uDE00')).toBe('xy \uD83D\uDE00');
  });

  it('marks text with outer spaces to be preserved, and only that text', () => {
    expect(inlineText(' padded ')).toBe('<is><t xml:space="preserve"> padded </t></is>');
    expect(inlineText('plain')).toBe('<is><t>plain</t></is>');
  });

  it('writes timestamps as the serials spreadsheets read back to the same millisecond', () => {
    expect(dateSerial(Date.UTC(1970, 0, 1))).toBe(25_569);
    const ms = Date.UTC(2025, 5, 1, 12, 34, 56, 789);
    // Day 0 is 1899-12-30: 2025-06-01 is day 45 809, and 12:34:56.789 its fraction.
    expect(Math.floor(dateSerial(ms))).toBe(45_809);
    expect(new Date(Math.round((dateSerial(ms) - 25_569) * 86_400_000)).getTime()).toBe(ms);
  });
});

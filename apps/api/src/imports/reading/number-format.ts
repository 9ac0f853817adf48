import { format } from 'numfmt';

/**
 * The built-in number formats of ECMA-376 (18.8.30): a style may name them by id without
 * writing the code. Excel shows id 14 (and the date of 22) in the viewer's locale; ISO dates
 * are used here, being the one reading no locale can mistake.
 */
const BUILT_IN: Readonly<Record<number, string>> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'yyyy-mm-dd',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'yyyy-mm-dd h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

/** Days between the 1900 and 1904 date systems, for workbooks saved with the 1904 one (old Mac Excel). */
const DAYS_1904 = 1462;

export function formatCode(numFmtId: number, custom: ReadonlyMap<number, string>): string {
  return custom.get(numFmtId) ?? BUILT_IN[numFmtId] ?? 'General';
}

/**
 * A numeric cell as Excel displays it, by numfmt (an implementation of Excel's format codes):
 * a date serial under `dd/mm/yyyy` becomes "26/11/2026", 12345 under General "12345". A code
 * numfmt cannot read leaves the number in General, never a crash.
 */
export function displayNumber(raw: string, code: string, date1904: boolean): string {
  const value = Number(raw);
  if (!Number.isFinite(value)) return raw;
  if (code === 'General') return format('General', value);
  const serial = date1904 && isDateCode(code) ? value + DAYS_1904 : value;
  const text = format(code, serial, { throws: false, invalid: '', nbsp: false });
  return text === '' ? format('General', value) : text;
}

const DATE_CODE = /[dmyhs]/i;
const QUOTED_OR_ESCAPED = /"[^"]*"|\\.|\[[^\]]*\]/g;

function isDateCode(code: string): boolean {
  return DATE_CODE.test(code.replace(QUOTED_OR_ESCAPED, ''));
}

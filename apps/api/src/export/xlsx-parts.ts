/**
 * The fixed parts of an Office Open XML workbook (ECMA-376 part 1, SpreadsheetML) holding one
 * sheet, and the XML text rules the sheet's cells follow.
 */
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const PKG_RELS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const OOXML_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/** Cell style indexes into `cellXfs` below. */
export const STYLE = { plain: 0, header: 1, dateTime: 2 } as const;

export const SHEET_PATH = 'xl/worksheets/sheet1.xml';

/** Every part but the sheet, by path inside the zip. */
export function workbookParts(sheetName: string, dateTimeFormat: string): Record<string, string> {
  return {
    '[Content_Types].xml': `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${OOXML_TYPE}.sheet.main+xml"/><Override PartName="/${SHEET_PATH}" ContentType="${OOXML_TYPE}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${OOXML_TYPE}.styles+xml"/></Types>`,
    '_rels/.rels': `${XML_HEAD}<Relationships xmlns="${PKG_RELS_NS}"><Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${DOC_RELS}"><bookViews><workbookView/></bookViews><sheets><sheet name="${xmlText(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `${XML_HEAD}<Relationships xmlns="${PKG_RELS_NS}"><Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${DOC_RELS}/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml': `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="${xmlText(dateTimeFormat)}"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
  };
}

/**
 * The sheet's opening, up to `<sheetData>`: the header row frozen in place, and column widths
 * in characters.
 */
export function sheetStart(widths: readonly number[]): string {
  const cols = widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('');
  return `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${DOC_RELS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`;
}

export const SHEET_END = '</sheetData></worksheet>';

/** The column letters of a cell reference: 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };
const NEEDS_ESCAPE = /[&<>"\r]/g;
/** Characters XML 1.0 cannot carry at all (C0 controls but tab and newlines, U+FFFE/U+FFFF, lone surrogates). */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Anything `xmlText` changes: markup, a carriage return, a control character, a surrogate, U+FFFE/U+FFFF. */
const NOT_PLAIN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[&<>"\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Text as XML character data: markup escaped, a carriage return kept, unrepresentable characters dropped. */
export function xmlText(text: string): string {
  // Most cells hold none of it: one scan instead of two replacements over every cell.
  if (!NOT_PLAIN.test(text)) return text;
  return text.replace(NOT_XML, '').replace(NEEDS_ESCAPE, (c) => ESCAPED[c] as string);
}

const SPACE = /\s/;

/** An inline text cell's `<is>`: leading or trailing spaces survive only when marked to be preserved. */
export function inlineText(text: string): string {
  const escaped = xmlText(text);
  // The first and the last character only: `/^\s|\s$/` tried the second branch at every position.
  const padded = escaped !== '' && (SPACE.test(escaped.charAt(0)) || SPACE.test(escaped.charAt(escaped.length - 1)));
  return padded ? `<is><t xml:space="preserve">${escaped}</t></is>` : `<is><t>${escaped}</t></is>`;
}

const MS_PER_DAY = 86_400_000;
/** Days from the spreadsheet epoch (1899-12-30) to 1970-01-01. */
const UNIX_EPOCH_SERIAL = 25_569;

/** A timestamp as a spreadsheet date-time serial (days since 1899-12-30, UTC, fractional). */
export function dateSerial(ms: number): number {
  return UNIX_EPOCH_SERIAL + ms / MS_PER_DAY;
}

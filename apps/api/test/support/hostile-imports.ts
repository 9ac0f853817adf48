import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/**
 * Workbooks and bodies a hostile sender posts to POST /users/imports, made as real writers make
 * them: SpreadsheetML parts zipped by yazl (deflate, as the product's own XLSX export and most
 * writers do), so the reader meets them as it would meet a file from the wild. Shared by the
 * reader's unit tests, the HTTP tests, the memory test against the compiled API and the REST
 * fuzzer's fixed cases.
 */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const SHEET_PATH = 'xl/worksheets/sheet1.xml';

/** A part's content: text, bytes, or a stream made when the zip is written (a part too large to hold). */
export type PartContent = string | Buffer | (() => Readable);

export interface WorkbookExtra {
  styles?: string;
  shared?: PartContent;
  date1904?: boolean;
}

export const sheetXml = (rows: string) => `<worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`;

/** An inline-string cell, as writers that skip the shared strings table write one. */
export const inlineCell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

/** The smallest workbook Excel's parts allow: one sheet, optional styles and shared strings. */
export function workbookParts(sheet: PartContent, extra: WorkbookExtra = {}): Record<string, PartContent> {
  const rels = [
    `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`,
    extra.styles ? `<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/>` : '',
    extra.shared ? `<Relationship Id="rId3" Type="${REL}/sharedStrings" Target="/xl/sharedStrings.xml"/>` : '',
  ].join('');
  const parts: Record<string, PartContent> = {
    '_rels/.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<workbook xmlns="${MAIN}" xmlns:r="${REL}">${extra.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    [SHEET_PATH]: sheet,
  };
  if (extra.styles) parts['xl/styles.xml'] = extra.styles;
  if (extra.shared) parts['xl/sharedStrings.xml'] = extra.shared;
  return parts;
}

function zipStream(parts: Record<string, PartContent>): Readable {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(parts)) {
    if (typeof content === 'function') zip.addReadStream(content(), name);
    else zip.addBuffer(Buffer.from(content), name);
  }
  zip.end();
  return zip.outputStream as Readable;
}

export async function zipOf(parts: Record<string, PartContent>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of zipStream(parts)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The zip written to `path` as it is made: a bomb's inflated parts are never held whole. */
export async function zipToFile(parts: Record<string, PartContent>, path: string): Promise<void> {
  await pipeline(zipStream(parts), createWriteStream(path));
}

export const workbook = (sheet: PartContent, extra: WorkbookExtra = {}) => zipOf(workbookParts(sheet, extra));

const HEADER = `<row r="1">${inlineCell('A1', 'email')}</row>`;

/** Row 2 shows shared string 1 (index 0), which holds `chars` characters: the probe's one enormous text. */
export function longSharedString(chars = 40_000): Promise<Buffer> {
  const shared = `<sst xmlns="${MAIN}" count="1" uniqueCount="1"><si><t>${'x'.repeat(chars)}</t></si></sst>`;
  return workbook(sheetXml(`${HEADER}<row r="2"><c r="A2" t="s"><v>0</v></c></row>`), { shared });
}

/** Cell A2 holds an inline string of `chars` characters. */
export const longInlineString = (chars = 40_000) =>
  workbook(sheetXml(`${HEADER}<row r="2">${inlineCell('A2', 'y'.repeat(chars))}</row>`));

/** A row numbered past Excel's last row (1 048 576) and past a 32-bit INT. */
export const rowPastExcel = (row = '99999999999') =>
  workbook(sheetXml(`${HEADER}<row r="${row}">${inlineCell(`A${row}`, 'far@example.com')}</row>`));

/** A row without a number whose cell names one past Excel's last row. */
export const cellPastExcel = (row = '99999999999') =>
  workbook(sheetXml(`${HEADER}<row>${inlineCell(`A${row}`, 'far@example.com')}</row>`));

/**
 * Rows with the `r` given to each (none for null), each holding one address: rows out of order,
 * twice, or numbered with something that is not a row number, which no spreadsheet writes
 * (SpreadsheetML numbers rows from 1, in increasing order).
 */
export const rowsNumbered = (...numbers: Array<string | null>) =>
  workbook(
    sheetXml(
      HEADER +
        numbers
          .map(
            (r, i) =>
              `<row${r === null ? '' : ` r="${r}"`}><c t="inlineStr"><is><t>row${i}@example.com</t></is></c></row>`,
          )
          .join(''),
    ),
  );

/**
 * The probe's memory bomb: `count` tiny shared strings (18 bytes of XML each, one in ten different
 * from its neighbours, so deflate packs them about 90:1 — under the ratio check), streamed into the
 * zip. `declared`: the `count`/`uniqueCount` attributes real writers put on `<sst>`; a hostile
 * writer may leave them out, so the reader must count as it goes.
 */
export function sharedStringsBomb(count: number, { declared = false } = {}): Record<string, PartContent> {
  const shared = () =>
    Readable.from(
      (function* () {
        const counts = declared ? ` count="${count}" uniqueCount="${count}"` : '';
        yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${MAIN}"${counts}>`;
        let seed = 1;
        const PER_CHUNK = 4096;
        for (let i = 0; i < count; i += PER_CHUNK) {
          let chunk = '';
          for (let j = i; j < Math.min(count, i + PER_CHUNK); j++) {
            seed = (seed * 1103515245 + 12345) & 0x7fffffff;
            chunk += seed % 10 === 0 ? '<si><t>ab</t></si>' : '<si><t>aa</t></si>';
          }
          yield chunk;
        }
        yield '</sst>';
      })(),
    );
  const rows = `<row r="1">${inlineCell('A1', 'email')}${inlineCell('B1', 'name')}</row><row r="2">${inlineCell('A2', 'bomb@example.com')}<c r="B2" t="s"><v>0</v></c></row>`;
  return workbookParts(sheetXml(rows), { shared });
}

/** A multipart form whose Content-Type names no boundary: the parser cannot find its parts. */
export const MULTIPART_WITHOUT_BOUNDARY = {
  type: 'multipart/form-data',
  body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nemail\r\na@example.com\r\n--x--\r\n',
};

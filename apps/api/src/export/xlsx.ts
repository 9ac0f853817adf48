import { Readable } from 'node:stream';
import yazl from 'yazl';
import {
  CHUNKS_AHEAD,
  type ExportColumn,
  type ExportRow,
  jsonText,
  listText,
  neutralise,
  PIECE_CHARS,
  readerOf,
} from './columns.js';
import {
  columnLetters,
  dateSerial,
  inlineText,
  SHEET_END,
  SHEET_PATH,
  STYLE,
  sheetStart,
  workbookParts,
} from './xlsx-parts.js';
import { useZlibCrc32ForZips } from './zip-crc.js';

useZlibCrc32ForZips();

const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** Widths in characters: wide enough for typical values without the user resizing every column. */
const WIDTH: Record<ExportColumn<ExportRow>['type'], number> = {
  number: 10,
  boolean: 9,
  datetime: 20,
  string: 32,
  json: 48,
  list: 32,
};

/**
 * zlib level 1: the sheet is the whole cost of the download, and at a million rows level 6
 * took 30 % longer for a file 15 % smaller (measured at 200 000 rows: 1.57 s and 9.5 MB against
 * 1.21 s and 11.1 MB).
 */
const COMPRESSION_LEVEL = 1;

const absent = (value: unknown) => value === null || value === undefined;

/** How a column's value becomes a cell of row `r` (the reference, its type and its style). */
function cellWriter(column: ExportColumn<ExportRow>, index: number): (row: ExportRow, r: number) => string {
  const value = readerOf(column);
  const letters = columnLetters(index);
  switch (column.type) {
    case 'string':
      return (row, r) => `<c r="${letters}${r}" t="inlineStr">${inlineText(neutralise(String(value(row) ?? '')))}</c>`;
    case 'json':
      return (row, r) => `<c r="${letters}${r}" t="inlineStr">${inlineText(neutralise(jsonText(value(row))))}</c>`;
    case 'list':
      return (row, r) => `<c r="${letters}${r}" t="inlineStr">${inlineText(neutralise(listText(value(row))))}</c>`;
    // An absent yes/no or number (a custom attribute without a value) is no cell at all: an
    // empty cell imports back as "no value", where 0 or false would set one.
    case 'boolean':
      return (row, r) => {
        const yes = value(row);
        return absent(yes) ? '' : `<c r="${letters}${r}" t="b"><v>${yes ? 1 : 0}</v></c>`;
      };
    case 'datetime':
      return (row, r) =>
        `<c r="${letters}${r}" s="${STYLE.dateTime}"><v>${dateSerial(Date.parse(String(value(row))))}</v></c>`;
    default:
      return (row, r) => {
        const number = value(row);
        return absent(number) ? '' : `<c r="${letters}${r}"><v>${Number(number)}</v></c>`;
      };
  }
}

/** The sheet's XML, in chunks of about PIECE_CHARS, read only as fast as the zip takes it. */
function sheetXml(batches: AsyncIterable<readonly object[]>, columns: readonly ExportColumn<ExportRow>[]): Readable {
  const cells = columns.map(cellWriter);
  const widths = columns.map((column) => Math.max(WIDTH[column.type], column.label.length + 2));
  const header = columns
    .map((column, i) => `<c r="${columnLetters(i)}1" s="${STYLE.header}" t="inlineStr">${inlineText(column.label)}</c>`)
    .join('');
  async function* chunks() {
    yield `${sheetStart(widths)}<row r="1">${header}</row>`;
    let r = 1;
    for await (const batch of batches) {
      let chunk = '';
      for (const item of batch) {
        const row = item as ExportRow;
        r += 1;
        chunk += `<row r="${r}">`;
        for (const cell of cells) chunk += cell(row, r);
        chunk += '</row>';
        if (chunk.length >= PIECE_CHARS) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }
    yield SHEET_END;
  }
  return Readable.from(chunks(), { highWaterMark: CHUNKS_AHEAD });
}

/**
 * A real workbook, written as the rows arrive: one sheet named `sheetName`, typed cells (numbers,
 * booleans, dates with a date-time format), a bold header row frozen in place.
 *
 * The SpreadsheetML is written here and zipped by yazl (Node's zlib, on the thread pool, so
 * compression overlaps the next batch's query and XML; the CRC-32 is zlib's too, zip-crc.ts):
 * exceljs's streaming writer built a cell model per value and took 4× as long (200 000 rows:
 * 4.8 s against 1.2 s). The zip reads the sheet through a pipe, so a slow client holds back the
 * zip, the sheet and then the queries; a closed download stops the sheet, which stops asking
 * for batches.
 */
export function xlsxBody<Row extends object>(
  batches: AsyncIterable<Row[]>,
  columns: readonly ExportColumn<Row>[],
  sheetName: string,
): Readable {
  const zip = new yazl.ZipFile();
  const mtime = new Date();
  for (const [name, text] of Object.entries(workbookParts(sheetName, DATE_TIME_FORMAT))) {
    zip.addBuffer(Buffer.from(text, 'utf8'), name, { mtime, compressionLevel: COMPRESSION_LEVEL });
  }
  const sheet = sheetXml(batches, columns as readonly ExportColumn<ExportRow>[]);
  zip.addReadStream(sheet, SHEET_PATH, { mtime, compressionLevel: COMPRESSION_LEVEL });
  zip.end();
  const body = zip.outputStream as unknown as Readable;
  sheet.once('error', (error) => body.destroy(error));
  body.once('close', () => sheet.destroy());
  return body;
}
